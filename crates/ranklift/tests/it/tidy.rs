//! Tidiness of the repository itself (rust-analyzer's `tidy` idea): what a newcomer relies on
//! when finding their way, checked so that it stays true.
//!
//! - no Rust source file over 1,500 lines (a file that long mixes concerns: split it along its
//!   seams);
//! - every path a comment or a document names inside the repository (`scripts/…`, `docs/…`,
//!   `crates/…`, …) exists;
//! - no comment or document cites what is not in the repository (notes, specifications or issue
//!   numbers of the tracker the work came from).

use std::path::{Path, PathBuf};

const MAX_LINES: usize = 1_500;
/// Directories of the repository whose files comments and documents name.
const ROOTS: &[&str] = &[
    "scripts/",
    "docs/",
    "bench/",
    "crates/",
    "python/",
    ".ci/",
    "examples/",
];

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Every file under `dir`, but build output, VCS data and the analysed programs (inputs).
fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    for e in rd.flatten() {
        let p = e.path();
        let name = e.file_name().to_string_lossy().into_owned();
        if p.is_dir() {
            if !matches!(
                name.as_str(),
                "target" | ".git" | "node_modules" | "__pycache__" | "programs" | "snapshots"
            ) {
                files(&p, out);
            }
        } else {
            out.push(p);
        }
    }
}

fn rel(p: &Path) -> String {
    p.strip_prefix(repo())
        .unwrap_or(p)
        .to_string_lossy()
        .into_owned()
}

#[test]
fn no_rust_source_file_is_over_the_limit() {
    let mut all = Vec::new();
    files(&repo().join("crates"), &mut all);
    let long: Vec<String> = all
        .iter()
        .filter(|p| p.extension().is_some_and(|e| e == "rs"))
        .filter_map(|p| {
            let n = std::fs::read_to_string(p).ok()?.lines().count();
            (n > MAX_LINES).then(|| format!("{}: {n} lines", rel(p)))
        })
        .collect();
    assert!(
        long.is_empty(),
        "over {MAX_LINES} lines (split along the file's seams):\n{}",
        long.join("\n")
    );
}

/// The commentary of a file: comments of Rust, Python and shell files, all of a Markdown one.
fn commentary(path: &Path, text: &str) -> Vec<(usize, String)> {
    let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
    text.lines()
        .enumerate()
        .filter_map(|(i, line)| {
            let c = match ext {
                "md" => Some(line),
                "rs" => line.find("//").map(|k| &line[k..]),
                "py" | "sh" | "toml" => line.find('#').map(|k| &line[k..]),
                _ => None,
            }?;
            Some((i + 1, c.to_owned()))
        })
        .collect()
}

/// The repository paths `line` names: a root directory followed by path characters, not
/// preceded by one (`../scripts/x` and `a/docs/b` are not ours), ending in a file name.
fn named_paths(line: &str) -> Vec<String> {
    let is_path = |c: char| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '/' | '-');
    let mut out = Vec::new();
    for root in ROOTS {
        let mut from = 0;
        while let Some(k) = line[from..].find(root) {
            let start = from + k;
            from = start + root.len();
            if line[..start].chars().next_back().is_some_and(is_path) {
                continue;
            }
            let end = line[start..]
                .find(|c: char| !is_path(c))
                .map_or(line.len(), |e| start + e);
            let p = line[start..end].trim_end_matches(['.', '/']);
            // A file (with an extension), not a pattern or a program ranklift writes.
            let file = p.rsplit('/').next().unwrap_or("");
            if file.contains('.')
                && !p.contains("*")
                && !file.ends_with("_ddp.py")
                && !file.ends_with("_hvd.py")
            {
                out.push(p.to_owned());
            }
        }
    }
    out
}

/// The commentary of every file of the repository: (path relative to the root, line, text).
fn all_commentary() -> Vec<(String, usize, String)> {
    let mut all = Vec::new();
    files(&repo(), &mut all);
    let mut out = Vec::new();
    for p in &all {
        let Ok(text) = std::fs::read_to_string(p) else {
            continue;
        };
        let rel = rel(p);
        out.extend(
            commentary(p, &text)
                .into_iter()
                .map(|(line, c)| (rel.clone(), line, c)),
        );
    }
    out
}

#[test]
fn every_path_named_in_comments_and_documents_exists() {
    let mut dangling = Vec::new();
    for (path, line, c) in all_commentary() {
        if path.starts_with("examples/") {
            continue;
        }
        for named in named_paths(&c) {
            if !repo().join(&named).exists() {
                dangling.push(format!("{path}:{line}: {named}"));
            }
        }
    }
    assert!(
        dangling.is_empty(),
        "paths named that do not exist in the repository:\n{}",
        dangling.join("\n")
    );
}

/// Does this comment cite what is not in the repository: the notes or specifications the work
/// came from, or an issue of its tracker by number?
fn cites_outside(comment: &str) -> bool {
    // Spelled in pieces, so that this file does not match itself.
    let outside = [
        ["../", "shared"].concat(),
        ["seed ", "00"].concat(),
        ["ddp-", "rules"].concat(),
        ["horovod-", "rules"].concat(),
        ["modern-", "tf.md"].concat(),
    ];
    let lower = comment.to_lowercase();
    let issue = lower.match_indices("issue ").any(|(k, _)| {
        lower[k + 6..]
            .trim_start_matches('#')
            .starts_with(|ch: char| ch.is_ascii_digit())
    });
    issue || outside.iter().any(|o| lower.contains(o.as_str()))
}

#[test]
fn nothing_cites_what_is_outside_the_repository() {
    let cited: Vec<String> = all_commentary()
        .into_iter()
        .filter(|(_, _, c)| cites_outside(c))
        .map(|(path, line, c)| format!("{path}:{line}: {}", c.trim()))
        .collect();
    assert!(
        cited.is_empty(),
        "references to what is not in the repository (write the design note in docs/ and point there, or drop it):\n{}",
        cited.join("\n")
    );
}

/// The checks above can fail: each finds what it looks for in a sample.
#[test]
fn the_checks_see_what_they_look_for() {
    assert_eq!(
        named_paths("// see scripts/e2e_torch.py and docs/rules.md."),
        ["scripts/e2e_torch.py", "docs/rules.md"]
    );
    assert!(named_paths("// ../scripts/x.py, a/docs/b.md, crates/*/src/x.rs, scripts/").is_empty());
    assert!(!repo().join("scripts/no_such_file.py").exists());
    let text = ["let x = 1; // iss", "ue 12\nno comment"].concat();
    let c = commentary(Path::new("a.rs"), &text);
    assert_eq!(c, [(1, ["// iss", "ue 12"].concat())]);
    assert!(cites_outside(&c[0].1));
    assert!(cites_outside(&["see Se", "ed 001 §3"].concat()));
    assert!(!cites_outside("// an issue with the data; seeded draws"));
}
