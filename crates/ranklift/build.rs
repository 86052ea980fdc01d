//! Collects the documentation of every diagnostic code from the doc comments of the library
//! crates, so that `ranklift rule CODE`, docs/rules.md, SARIF's `helpUri` and the editor's code
//! links show the text the rule or check itself carries and cannot drift from it.
//!
//! A code's page is, in order of preference:
//! 1. the module doc (`//!`) of a file whose first doc line names that code alone (a check
//!    file: `//! DST004 — ...`, `//! Check \`custom_sampler\` (DST401): ...`);
//! 2. the `///` doc above `pub const NAME: &str = "CODE";` (`ranklift_distribute::codes`);
//! 3. the module doc of a file whose first doc line names several codes (a module of checks);
//! 4. a row `| CODE | ... |` of a table in a module doc (a one-line summary).
//!
//! The shapes codes come from `ranklift_shapes::codes` at run time (a table with examples).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

const CRATES: &[&str] = &[
    "ranklift_python",
    "ranklift_distribute",
    "ranklift_choreo",
    "ranklift_shapes",
];

fn main() {
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("manifest dir"));
    let crates = manifest.parent().expect("crates/").to_path_buf();
    let mut files = Vec::new();
    for c in CRATES {
        let src = crates.join(c).join("src");
        println!("cargo:rerun-if-changed={}", src.display());
        walk(&src, &mut files);
    }
    let src = manifest.join("src");
    println!("cargo:rerun-if-changed={}", src.display());
    walk(&src, &mut files);
    files.sort();
    // code -> (rank: 0 best, text, source)
    let mut pages: std::collections::BTreeMap<String, (u8, String, String)> = Default::default();
    let mut offer = |code: &str, rank: u8, text: String, source: &str| {
        let e = pages
            .entry(code.to_owned())
            .or_insert((u8::MAX, String::new(), String::new()));
        if rank < e.0 || (rank == e.0 && text.len() > e.1.len()) {
            *e = (rank, text, source.to_owned());
        }
    };
    for f in &files {
        for dir in std::iter::successors(f.parent(), |p| p.parent()) {
            println!("cargo:rerun-if-changed={}", dir.display());
            if dir == crates {
                break;
            }
        }
        let Ok(text) = std::fs::read_to_string(f) else {
            continue;
        };
        let source = f
            .strip_prefix(crates.parent().unwrap_or(&crates))
            .unwrap_or(f)
            .display()
            .to_string();
        let lines: Vec<&str> = text.lines().collect();
        // 1. The module doc of a file whose first doc line names codes.
        let header: Vec<&str> = lines
            .iter()
            .take_while(|l| l.starts_with("//!"))
            .map(|l| strip(l, "//!"))
            .collect();
        if let Some(first) = header.first() {
            // A file of one code's own (a check) is that code's page; a header naming several
            // (a module of checks) is a page only for codes documented nowhere better.
            let named = codes_in(first);
            let rank = if named.len() == 1 { 0 } else { 2 };
            for code in named {
                offer(&code, rank, header.join("\n"), &source);
            }
        }
        // 3. Table rows of module docs.
        for l in lines.iter().filter(|l| l.starts_with("//! |")) {
            let cells: Vec<&str> = l["//! |".len()..].split('|').map(str::trim).collect();
            if let Some(code) = cells.first().and_then(|c| codes_in(c).into_iter().next())
                && cells.first().is_some_and(|c| c.trim_matches('`') == code)
            {
                let rest: Vec<&str> = cells[1..]
                    .iter()
                    .copied()
                    .filter(|c| !c.is_empty())
                    .collect();
                offer(&code, 3, rest.join(" — "), &source);
            }
        }
        // 2. `///` above a code constant.
        for (i, l) in lines.iter().enumerate() {
            let t = l.trim_start();
            let Some(rest) = t
                .strip_prefix("pub const ")
                .or_else(|| t.strip_prefix("const "))
            else {
                continue;
            };
            let Some((_, value)) = rest.split_once(": &str = \"") else {
                continue;
            };
            let Some(code) = value.strip_suffix("\";") else {
                continue;
            };
            if !is_code(code) {
                continue;
            }
            let mut doc = Vec::new();
            for prev in lines[..i].iter().rev() {
                let p = prev.trim_start();
                if p.starts_with("///") {
                    doc.push(strip(p, "///"));
                } else if p.starts_with("#[") {
                    continue;
                } else {
                    break;
                }
            }
            doc.reverse();
            if !doc.is_empty() {
                offer(code, 1, doc.join("\n"), &source);
            }
        }
    }
    let mut out = String::from("/// Generated by build.rs: (code, source file, documentation).\n");
    out.push_str("pub static PAGES: &[(&str, &str, &str)] = &[\n");
    for (code, (_, text, source)) in &pages {
        let _ = writeln!(out, "    ({code:?}, {source:?}, {text:?}),");
    }
    out.push_str("];\n");
    let dest = PathBuf::from(std::env::var("OUT_DIR").expect("out dir")).join("rule_pages.rs");
    std::fs::write(dest, out).expect("write rule_pages.rs");
}

fn strip<'a>(line: &'a str, marker: &str) -> &'a str {
    let rest = line.trim_start().strip_prefix(marker).unwrap_or(line);
    rest.strip_prefix(' ').unwrap_or(rest)
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            walk(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// `DST123`, `RL123`, `E-ABC`.
fn is_code(s: &str) -> bool {
    let digits = |r: &str| r.len() == 3 && r.bytes().all(|b| b.is_ascii_digit());
    if let Some(r) = s.strip_prefix("DST") {
        return digits(r);
    }
    if let Some(r) = s.strip_prefix("RL") {
        return digits(r);
    }
    if let Some(r) = s.strip_prefix("E-") {
        return !r.is_empty() && r.bytes().all(|b| b.is_ascii_uppercase());
    }
    false
}

/// The codes a line names, in order.
fn codes_in(line: &str) -> Vec<String> {
    line.split(|c: char| !(c.is_ascii_alphanumeric() || c == '-'))
        .filter(|w| is_code(w))
        .map(str::to_owned)
        .collect()
}
