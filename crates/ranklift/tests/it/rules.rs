//! `ranklift rule CODE`: every code the sources can raise has a page, unknown codes are an
//! error, and docs/rules.md (where SARIF `helpUri` and the editor's code links point) is exactly
//! what `ranklift rule --all` prints.
//!
//! The list of codes is read from the sources (every string literal shaped like a code), so a
//! new code without documentation fails here.

use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn rule(args: &[&str]) -> (i32, String, String) {
    let o = Command::new(env!("CARGO_BIN_EXE_ranklift"))
        .arg("rule")
        .args(args)
        .output()
        .unwrap();
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        let p = e.path();
        if p.is_dir() {
            sources(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// `"DST123"`, `"RL123"`, `"E-ABC"`, `"W504"`-style literals in the crates' sources.
fn codes_in_sources() -> Vec<String> {
    let mut files = Vec::new();
    for c in std::fs::read_dir(root().join("crates")).unwrap().flatten() {
        let src = c.path().join("src");
        if src.is_dir() {
            sources(&src, &mut files);
        }
    }
    let mut codes = Vec::new();
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap();
        // Unit tests use made-up codes (`ignore = ["W501"]`).
        let text = text.split("#[cfg(test)]").next().unwrap_or("");
        for lit in text.split('"').skip(1).step_by(2) {
            let digits = |r: &str| r.len() == 3 && r.bytes().all(|b| b.is_ascii_digit());
            let is_code = lit.strip_prefix("DST").is_some_and(digits)
                || lit.strip_prefix("RL").is_some_and(digits)
                || lit
                    .strip_prefix("E-")
                    .is_some_and(|r| !r.is_empty() && r.bytes().all(|b| b.is_ascii_uppercase()))
                || ((lit.starts_with('W') || lit.starts_with("E0")) && digits(&lit[1..]));
            if is_code {
                codes.push(lit.to_owned());
            }
        }
    }
    codes.sort();
    codes.dedup();
    codes
}

#[test]
fn every_code_in_the_sources_has_a_page() {
    let codes = codes_in_sources();
    assert!(codes.len() > 80, "{codes:?}");
    let (_, all, _) = rule(&["--all"]);
    let missing: Vec<&String> = codes
        .iter()
        .filter(|c| !all.contains(&format!("\n## {c}\n")))
        .collect();
    assert!(missing.is_empty(), "codes without a page: {missing:?}");
    // One page, case-insensitive; it names the code and says something.
    let (code, page, _) = rule(&["dst401"]);
    assert_eq!(code, 0);
    assert!(page.starts_with("# DST401\n"), "{page}");
    assert!(page.contains("sampler"), "{page}");
    // From the registry: the target and the file that raises the code.
    assert!(
        page.contains(
            "(PyTorch), an error (nothing is written). Raised in `crates/ranklift_distribute/src/torch/checks/custom_sampler.rs`"
        ),
        "{page}"
    );
    for reg in ranklift_distribute::codes::REGISTRY {
        assert!(
            all.contains(&format!("\n## {}\n", reg.code)),
            "registry code {} has no page",
            reg.code
        );
    }
    let (code, page, _) = rule(&["W504"]);
    assert_eq!(code, 0);
    assert!(page.contains("```python\n"), "{page}");
    // Negative control: an unknown code is an error (exit 2) with a pointer.
    let (code, out, err) = rule(&["DST999"]);
    assert_eq!((code, out.as_str()), (2, ""));
    assert!(err.contains("no such code: `DST999`"), "{err}");
    let (code, _, err) = rule(&["DST4"]);
    assert_eq!(code, 2);
    assert!(err.contains("DST401"), "{err}");
}

/// docs/rules.md is generated; `RANKLIFT_UPDATE_DOCS=1 cargo test -p ranklift --test rules`
/// rewrites it.
#[test]
fn docs_rules_md_is_what_rule_all_prints() {
    let (code, all, _) = rule(&["--all"]);
    assert_eq!(code, 0);
    let path = root().join("docs/rules.md");
    if std::env::var_os("RANKLIFT_UPDATE_DOCS").is_some() {
        std::fs::write(&path, &all).unwrap();
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == all,
        "docs/rules.md is out of date: run `RANKLIFT_UPDATE_DOCS=1 cargo test -p ranklift --test rules`"
    );
    // Every page is a section the help URIs can point at (`#dst401` is GitHub's anchor of
    // `## DST401`).
    assert!(all.contains("\n## DST401\n") && all.contains("\n## E-LOC\n"));
}
