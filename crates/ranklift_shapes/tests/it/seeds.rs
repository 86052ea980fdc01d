//! The Pytropos examples of seeds 002/004 (the thesis), with the findings the thesis reports,
//! in Pytropos' format (`line:col: CODE message`, 0-based column). Where the thesis gives only
//! prose, the expectation is reasoned here next to it.

use std::path::Path;

use ranklift_shapes::check::{Options, check_file};

fn lines(name: &str) -> Vec<String> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/seeds")
        .join(name);
    let r = check_file(&path, &Options::default());
    assert!(r.fatal.is_none() && !r.incomplete, "{name}: {:?}", r.fatal);
    r.findings
        .iter()
        .map(|d| {
            let m = d.runtime_message.as_ref().unwrap_or(&d.message);
            format!("{}:{}: {} {m}", d.line, d.column - 1, d.code)
        })
        .collect()
}

/// §1 (introduction): "fails because the shapes of the two matrices are incompatible (3 ≠ 4)".
/// The message is NumPy's (checked by the program corpus, c01).
#[test]
fn introduction_dot() {
    assert_eq!(
        lines("intro_dot.py"),
        ["4:4: W503 ValueError: shapes (2,3) and (4,1) not aligned: 3 (dim 1) != 4 (dim 0)"]
    );
}

/// §3.5: `mat` is unknown but hinted (1,12,6,7); `(mat + 12).reshape((12*6, -1))` is (72,7);
/// the dot with (8,21) fails, "7 != 8". (The thesis's snippet omits `import numpy as np`; it is
/// line 1 here.)
#[test]
fn annotation_then_reshape_then_dot() {
    assert_eq!(
        lines("annotation_reshape.py"),
        ["7:9: W503 ValueError: shapes (72,7) and (8,21) not aligned: 7 (dim 1) != 8 (dim 0)"]
    );
}

/// §5.1, type annotations: only `e: NdArray[2, 5] = c` is wrong (c is (2,1)); every other hint
/// refines an unknown value or agrees with the computed one (`h` refines `np.array(g)`, which is
/// (int?,2)). The W301 text follows Pytropos (shapes printed NumPy-style).
#[test]
fn hints_listing() {
    assert_eq!(
        lines("hints_listing.py"),
        [
            "10:0: W301 Type array(shape=(2,5)) is NOT more specific than type array(shape=(2,1)). \
          Incompatible types in assignment (expression has type array(shape=(2,1)), variable has \
          type array(shape=(2,5)))"
        ]
    );
}

/// §5.2.2, failure 3: "the expected result is a warning explaining that one of the dimensions of
/// an array cannot be a floating number" (Pytropos itself failed here).
#[test]
fn float_dimension_in_a_hint() {
    assert_eq!(
        lines("float_hint.py"),
        ["5:0: W302 hint dimension `float` is not a natural number"]
    );
}

/// Figure 5.1: line 18 of the editor screenshot (`W503 ... 3 (dim 1) ≠ 1 (dim 0)`), and the
/// next line is fine.
#[test]
fn linter_figure() {
    assert_eq!(
        lines("linter_figure.py"),
        ["4:4: W503 ValueError: shapes (2,3) and (1,2) not aligned: 3 (dim 1) != 1 (dim 0)"]
    );
}

/// §5.2.2, failures 1 and 2: an aliasing join and a list growing in a loop with an unknown
/// condition. Pytropos lost precision in the first and crashed on the second; neither has an
/// error, and the analysis must finish.
#[test]
fn aliasing_join_and_list_widening_finish_cleanly() {
    assert!(lines("aliasing_join.py").is_empty());
    assert!(lines("widening_lists.py").is_empty());
}
