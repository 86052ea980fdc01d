//! What the step budget is spent on: passes that can teach nothing new are not run.
//!
//! The expected line and message come from running the program with NumPy 2.2.6
//! (`STOP=1 python spin.py`): `ValueError: matmul: Input operand 1 has a mismatch in its core
//! dimension 0, with gufunc signature (n?,k),(k,m?)->(n?,m?) (size 4 is different from 3)` at
//! the last line.

use std::fs;

use ranklift_shapes::check::{Options, check_paths};

/// `spin` loops `while True` over four characters (its state comes round every four passes,
/// and it leaves only by the `return`), then the module makes a shape error on line `3 + 60 +
/// 12`.
fn spin_program(rhs: &str) -> tempfile::TempDir {
    let mut body = String::new();
    for k in 0..60 {
        body.push_str(&format!("        c{k} = chars[index] * {k}\n"));
    }
    let text = format!(
        "import os\n\nimport numpy as np\n\n\ndef spin(chars):\n    index = 0\n    while True:\n{body}        if os.environ.get(\"STOP\"):\n            return c0\n        index = (index + 1) % len(chars)\n\n\nspin(\"abcd\")\nnp.ones((2, 3)) @ {rhs}\n"
    );
    let tmp = tempfile::tempdir().unwrap();
    fs::write(tmp.path().join("spin.py"), text).unwrap();
    tmp
}

#[test]
fn an_unrolled_loop_stops_when_its_state_comes_round_again() {
    // Unrolled to the limit (64 passes of 60 statements), the loop alone is over the budget
    // and the error after it is never reached; four passes are not.
    within_a_small_budget(spin_program, "spin.py", 75);
}

/// With a budget of 3,000 steps, the program `make` writes with a wrong right operand is fully
/// analysed and its matmul error found at `line`; with the right operand (the negative
/// control), nothing is reported and the analysis is still complete.
fn within_a_small_budget(make: fn(&str) -> tempfile::TempDir, file: &str, line: usize) {
    let opts = Options {
        fuel: 3_000,
        ..Options::default()
    };
    let tmp = make("np.ones((4, 5))");
    let r = &check_paths(&[tmp.path().join(file)], &opts)[0];
    let found: Vec<_> = r.findings.iter().map(|d| (d.line, d.code)).collect();
    assert_eq!(found, vec![(line, "W504")], "{:?}", r.findings);
    assert!(!r.incomplete);
    let tmp = make("np.ones((3, 5))");
    let r = &check_paths(&[tmp.path().join(file)], &opts)[0];
    assert!(r.findings.is_empty(), "{:?}", r.findings);
    assert!(!r.incomplete);
}

/// `spinner` is a generator whose `while True` counts its passes (no two heads are equal, so
/// the cycle rule cannot stop it); the module makes five of them, then a shape error on its
/// last line, 46 (8 lines to the loop's list, 30 statements, 8 to the end). Python runs none
/// of the bodies (a generator runs when iterated): `python spinner.py` with NumPy 2.2.6 raises
/// `ValueError: matmul: Input operand 1 has a mismatch in its core dimension 0 ... (size 4 is
/// different from 3)` at the last line.
fn spinner_program(rhs: &str) -> tempfile::TempDir {
    let mut body = String::new();
    for k in 0..30 {
        body.push_str(&format!("        c{k} = frame[0] * {k}\n"));
    }
    let text = format!(
        "import numpy as np\n\n\ndef spinner(chars):\n    index = 0\n    shown = 0\n    while True:\n        frame = [chars[index]]\n{body}        yield c0\n        shown += 1\n        index = (index + 1) % len(chars)\n\n\nfor _ in range(5):\n    spinner(\"abcd\")\nnp.ones((2, 3)) @ {rhs}\n"
    );
    let tmp = tempfile::tempdir().unwrap();
    fs::write(tmp.path().join("spinner.py"), text).unwrap();
    tmp
}

#[test]
fn a_generators_endless_loop_is_not_unrolled_to_the_limit() {
    // Unrolled to the limit, one generator's loop (64 passes of 32 statements) is over the
    // budget and the error is never reached; two exact passes and the fixpoint are not.
    within_a_small_budget(spinner_program, "spinner.py", 46);
}
