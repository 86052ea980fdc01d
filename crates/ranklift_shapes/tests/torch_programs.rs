//! The PyTorch program corpus (`tests/torch_programs/`), shaped like the shape bugs of real model
//! code (issue 28). Every expectation was recorded by running the program with CPython and real
//! torch (`gen_torch_expectations.py` under scripts/torch-env.sh's Python; the file names the
//! versions).
//!
//! - `certain/`: exactly one finding by default, at the line and column where torch raised, with
//!   torch's own message.
//! - `clean/`: nothing by default (each is valid model code a naive checker would flag: blocks
//!   built in a loop, an optional shortcut, `padding="same"`, `view(n, -1)`, an unmodelled layer).

use std::path::{Path, PathBuf};

use ranklift_shapes::check::{Options, check_file};
use serde_json::Value;

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/torch_programs")
}

fn expected() -> Value {
    serde_json::from_str(include_str!("torch_programs/expected.json")).unwrap()
}

fn findings(rel: &str) -> Vec<(usize, usize, String, String)> {
    let r = check_file(&dir().join(rel), &Options::default());
    assert!(r.fatal.is_none(), "{rel}: {:?}", r.fatal);
    assert!(!r.incomplete, "{rel}: analysis incomplete");
    r.findings
        .into_iter()
        .map(|d| {
            let message = d.runtime_message.unwrap_or(d.message);
            (d.line, d.column - 1, d.code.to_owned(), message)
        })
        .collect()
}

#[test]
fn corpus_has_both_groups() {
    let doc = expected();
    let programs = doc["programs"].as_object().unwrap();
    let count = |g: &str| programs.keys().filter(|k| k.starts_with(g)).count();
    assert!(
        count("certain/") >= 16 && count("clean/") >= 12,
        "{programs:?}"
    );
    assert!(doc["torch_version"].as_str().unwrap().starts_with("2."));
}

#[test]
fn certain_errors_are_found_exactly_where_torch_raised() {
    let mut bad = Vec::new();
    for (rel, want) in expected()["programs"].as_object().unwrap() {
        if !rel.starts_with("certain/") {
            continue;
        }
        let line = want["line"].as_u64().unwrap() as usize;
        let col = want["col"].as_u64().unwrap() as usize;
        let message = want["message"].as_str().unwrap();
        let got = findings(rel);
        match got.as_slice() {
            [(l, c, _, m)] if *l == line && *c == col && m == message => {}
            _ => bad.push(format!(
                "{rel}: torch raised at {line}:{col} `{message}`\n   we report {got:?}"
            )),
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

#[test]
fn clean_programs_have_no_findings() {
    let mut bad = Vec::new();
    for rel in expected()["programs"].as_object().unwrap().keys() {
        if rel.starts_with("clean/") {
            let got = findings(rel);
            if !got.is_empty() {
                bad.push(format!("{rel}: {got:?}"));
            }
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}
