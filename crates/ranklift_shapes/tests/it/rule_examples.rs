//! The example on every shapes code's page (`ranklift rule CODE`, docs/rules.md) is a program
//! that gets that code: the analysis reports it, and — where a NumPy 2 interpreter is given
//! (`RANKLIFT_NUMPY2_PYTHON`, as scripts/test.sh sets) — running it raises the exception the
//! code names (W3xx hints are not run-time errors: the program runs). The PyTorch codes'
//! examples run with `RANKLIFT_TORCH_PYTHON` (scripts/torch-env.sh's venv).

use ranklift_shapes::check::{Options, check_text};
use ranklift_shapes::codes::{CODES, EXAMPLES};

#[test]
fn every_code_has_an_example_that_gets_it() {
    for (code, _, _) in CODES {
        assert!(
            EXAMPLES.iter().any(|(c, _)| c == code),
            "{code} has no example"
        );
    }
    for (code, program) in EXAMPLES {
        let r = check_text(
            std::path::Path::new("example.py"),
            (*program).to_owned(),
            &Options::default(),
        );
        let codes: Vec<&str> = r.findings.iter().map(|d| d.code).collect();
        assert_eq!(codes, [*code], "{code}:\n{program}");
    }
    // Each program run by real Python: torch's with the torch venv, the others with NumPy 2.
    let (with_torch, without): (Vec<_>, Vec<_>) = EXAMPLES
        .iter()
        .partition(|(_, program)| program.contains("import torch"));
    for (var, group) in [
        ("RANKLIFT_TORCH_PYTHON", with_torch),
        ("RANKLIFT_NUMPY2_PYTHON", without),
    ] {
        let Ok(py) = std::env::var(var) else { continue };
        let outcomes = run_snippets(&py, &group);
        for ((code, _), outcome) in group.iter().zip(outcomes) {
            let err = outcome["error"].as_str().unwrap_or_default();
            let ok = outcome["ok"].as_bool().unwrap();
            let what = CODES.iter().find(|(c, _, _)| c == code).unwrap().1;
            if code.starts_with("W3") {
                assert!(ok, "{code}: {err}");
                continue;
            }
            // `TypeError / IndexError: ...`: any of the named exceptions.
            let names: Vec<&str> = what
                .split(':')
                .next()
                .unwrap()
                .split('/')
                .map(str::trim)
                .collect();
            assert!(
                !ok && names.iter().any(|n| err.contains(&format!("{n}:"))),
                "{code}: expected {names:?}, Python said:\n{err}"
            );
        }
    }
}

/// How each program ended under `py` (tests/run_snippets.py: one interpreter, a fork each).
fn run_snippets(py: &str, group: &[&(&str, &str)]) -> Vec<serde_json::Value> {
    use std::io::Write;
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut child = std::process::Command::new(py)
        .arg(dir.join("tests/run_snippets.py"))
        .arg(dir.join("../../python"))
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let texts: Vec<&str> = group.iter().map(|(_, p)| *p).collect();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(serde_json::to_string(&texts).unwrap().as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    let v: Vec<serde_json::Value> = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v.len(), group.len());
    v
}
