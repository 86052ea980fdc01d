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
    let python = std::env::var("RANKLIFT_NUMPY2_PYTHON").ok();
    let torch_python = std::env::var("RANKLIFT_TORCH_PYTHON").ok();
    let hints = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../python");
    for (code, program) in EXAMPLES {
        let r = check_text(
            std::path::Path::new("example.py"),
            (*program).to_owned(),
            &Options::default(),
        );
        let codes: Vec<&str> = r.findings.iter().map(|d| d.code).collect();
        assert_eq!(codes, [*code], "{code}:\n{program}");
        let python = if program.contains("import torch") {
            &torch_python
        } else {
            &python
        };
        let Some(py) = python else { continue };
        let out = std::process::Command::new(py)
            .args(["-c", program])
            .env("PYTHONPATH", &hints)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        let what = CODES.iter().find(|(c, _, _)| c == code).unwrap().1;
        if code.starts_with("W3") {
            assert!(out.status.success(), "{code}: {err}");
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
            !out.status.success() && names.iter().any(|n| err.contains(&format!("{n}:"))),
            "{code}: expected {names:?}, Python said:\n{err}"
        );
    }
}
