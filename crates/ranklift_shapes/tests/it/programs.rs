//! The program corpus (`tests/programs/`): every expectation was established by running the
//! program with CPython and NumPy (`gen_program_expectations.py`), once with NumPy 1
//! (`expected.json`) and once with NumPy 2 (`expected-numpy2.json`); each is checked against
//! `ranklift shapes --numpy-version` of that major version.
//!
//! - `certain/`: exactly one finding by default, at the line and column where Python raised,
//!   with Python's own message.
//! - `clean/`: nothing by default (each is valid code that a naive checker would flag).
//! - `runtime/`: shapes depend on the program's input (some inputs fail, others do not): nothing
//!   by default, and with `--possible` a finding at the line where the failing input raised.

use std::path::{Path, PathBuf};

use ranklift_shapes::check::{Options, check_file};
use ranklift_shapes::numpy::NumpyVersion;
use serde_json::Value;

use crate::common;

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/programs")
}

/// The recorded runs per NumPy: (model, major version, expectations).
fn versions() -> [(NumpyVersion, u8, Value); 2] {
    [
        (
            NumpyVersion::V1,
            1,
            serde_json::from_str(include_str!("../programs/expected.json")).unwrap(),
        ),
        (
            NumpyVersion::V2,
            2,
            serde_json::from_str(include_str!("../programs/expected-numpy2.json")).unwrap(),
        ),
    ]
}

fn expected() -> Value {
    versions()[1].2.clone()
}

fn findings(rel: &str, possible: bool) -> Vec<(usize, usize, String, String)> {
    findings_with(rel, possible, NumpyVersion::default())
}

fn findings_with(
    rel: &str,
    possible: bool,
    numpy: NumpyVersion,
) -> Vec<(usize, usize, String, String)> {
    let r = check_file(
        &dir().join(rel),
        &Options {
            possible,
            numpy,
            ..Options::default()
        },
    );
    assert!(r.fatal.is_none(), "{rel}: {:?}", r.fatal);
    assert!(!r.incomplete, "{rel}: analysis incomplete");
    r.findings
        .into_iter()
        // What Python prints (the headline names the operands' shapes instead), with the
        // `[possible: reason]` of a possible finding.
        .map(|d| {
            let possible = d
                .message
                .find(" [possible: ")
                .map(|i| d.message[i..].to_owned())
                .unwrap_or_default();
            let message = match d.runtime_message {
                Some(rt) => format!("{rt}{possible}"),
                None => d.message,
            };
            (d.line, d.column - 1, d.code.to_owned(), message)
        })
        .collect()
}

#[test]
fn corpus_has_three_groups_of_at_least_sixty_programs() {
    let doc = expected();
    let programs = doc["programs"].as_object().unwrap();
    let count = |g: &str| programs.keys().filter(|k| k.starts_with(g)).count();
    assert!(programs.len() >= 60, "{} programs", programs.len());
    assert!(count("certain/") >= 20 && count("clean/") >= 20 && count("runtime/") >= 10);
}

#[test]
fn certain_errors_are_found_exactly_where_python_raised() {
    let mut bad = Vec::new();
    for (numpy, major, doc) in versions() {
        certain_errors(numpy, major, &doc, &mut bad);
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

fn certain_errors(numpy: NumpyVersion, major: u8, doc: &Value, bad: &mut Vec<String>) {
    for (rel, want) in doc["programs"].as_object().unwrap() {
        if !rel.starts_with("certain/") {
            continue;
        }
        let got = findings_with(rel, false, numpy);
        expect_raised(rel, major, want, &got, bad);
    }
}

/// Exactly one finding, where Python raised and with its message.
fn expect_raised(
    rel: &str,
    major: u8,
    want: &Value,
    got: &[(usize, usize, String, String)],
    bad: &mut Vec<String>,
) {
    let line = want["line"].as_u64().unwrap() as usize;
    let col = want["col"].as_u64().unwrap() as usize;
    let message = want["message"].as_str().unwrap().trim_end();
    match got {
        [(l, c, _, m)] if *l == line && *c == col && m == message => {}
        _ => bad.push(format!(
            "{rel} (NumPy {major}): Python raised at {line}:{col} `{message}`\n   we report {got:?}"
        )),
    }
}

#[test]
fn clean_programs_have_no_findings() {
    let doc = expected();
    let mut bad = Vec::new();
    for rel in doc["programs"].as_object().unwrap().keys() {
        if rel.starts_with("clean/") {
            let got = findings(rel, false);
            if !got.is_empty() {
                bad.push(format!("{rel}: {got:?}"));
            }
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

#[test]
fn input_dependent_errors_are_only_possible() {
    let doc = expected();
    let mut bad = Vec::new();
    for (rel, want) in doc["programs"].as_object().unwrap() {
        if !rel.starts_with("runtime/") {
            continue;
        }
        let failing = want["runs"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| !r["ok"].as_bool().unwrap())
            .unwrap();
        let line = failing["line"].as_u64().unwrap() as usize;
        let class = failing["message"]
            .as_str()
            .unwrap()
            .split(':')
            .next()
            .unwrap();
        let default = findings(rel, false);
        if !default.is_empty() {
            bad.push(format!("{rel}: reported by default: {default:?}"));
        }
        let possible = findings(rel, true);
        if !possible
            .iter()
            .any(|(l, _, _, m)| *l == line && m.starts_with(class) && m.contains("[possible: "))
        {
            bad.push(format!(
                "{rel}: expected a possible {class} at line {line}, got {possible:?}"
            ));
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

/// Re-run every program with CPython and NumPy when they are available, so that a wrong
/// expectation cannot hide. Looks at `$RANKLIFT_NUMPY_PYTHON`, `python3`, then the end-to-end
/// virtualenv.
#[test]
fn recorded_expectations_match_a_fresh_run() {
    for (_, major, recorded) in versions() {
        let Some(py) = common::numpy_python_for(major) else {
            eprintln!(
                "NumPy {major} is not importable here: its program expectations were not re-run (scripts/numpy-env.sh {major})"
            );
            continue;
        };
        fresh_run_matches(&py, &recorded);
    }
}

fn fresh_run_matches(py: &str, recorded: &Value) {
    let out = std::env::temp_dir().join(format!("ranklift-programs-{}.json", std::process::id()));
    let st = std::process::Command::new(py)
        .arg(dir().join("../gen_program_expectations.py"))
        .arg(&out)
        .status()
        .unwrap();
    assert!(st.success());
    let fresh: Value = serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    let _ = std::fs::remove_file(&out);
    if fresh["numpy_version"] == recorded["numpy_version"] {
        assert_eq!(fresh["programs"], recorded["programs"]);
    } else {
        // Another NumPy: the same programs must still fail (or not) on the same lines.
        let lines = |v: &Value| {
            v["programs"]
                .as_object()
                .unwrap()
                .iter()
                .map(|(k, p)| (k.clone(), p["ok"].clone(), p["line"].clone()))
                .collect::<Vec<_>>()
        };
        assert_eq!(lines(&fresh), lines(recorded));
    }
}

/// `versioned/`: each program is checked against the run of each NumPy major version with
/// `--numpy-version` of that version — a finding exactly where that NumPy raised, or none.
#[test]
fn versioned_programs_follow_each_numpy() {
    let mut bad = Vec::new();
    let mut differ = 0;
    let all = versions();
    for (numpy, major, doc) in &all {
        for (rel, want) in doc["programs"].as_object().unwrap() {
            if !rel.starts_with("versioned/") {
                continue;
            }
            let got = findings_with(rel, false, *numpy);
            if want["ok"].as_bool().unwrap() {
                if !got.is_empty() {
                    bad.push(format!(
                        "{rel} (NumPy {major}) runs cleanly; we report {got:?}"
                    ));
                }
                continue;
            }
            expect_raised(rel, *major, want, &got, &mut bad);
        }
    }
    for (rel, one) in all[0].2["programs"].as_object().unwrap() {
        if rel.starts_with("versioned/") && all[1].2["programs"][rel]["ok"] != one["ok"] {
            differ += 1;
        }
    }
    assert!(
        differ >= 3,
        "only {differ} versioned programs behave differently under NumPy 1 and 2"
    );
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}
