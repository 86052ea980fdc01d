//! Every shape rule against NumPy itself: `numpy_cases.json` holds, for each case, the shape NumPy
//! produced or the exception it raised (made by `gen_numpy_cases.py`; NumPy version recorded in the
//! file). For concrete shapes the models must agree exactly: same shape, or a *certain* error with
//! NumPy's message.

use ranklift_shapes::models::{
    broadcast::broadcast, concatenate, dot::dot, expand_squeeze, matmul::matmul, reduce::reduce,
    reshape, transpose::transpose,
};
use ranklift_shapes::{Certainty, Dim, Outcome, Shape};
use serde_json::Value;

use crate::common;

fn shape(v: &Value) -> Shape {
    Shape::of(
        &v.as_array()
            .unwrap()
            .iter()
            .map(|d| d.as_u64().unwrap())
            .collect::<Vec<_>>(),
    )
}

fn shapes(v: &Value) -> Vec<Shape> {
    v.as_array().unwrap().iter().map(shape).collect()
}

fn ints(v: &Value) -> Option<Vec<i64>> {
    v.as_array()
        .map(|a| a.iter().map(|x| x.as_i64().unwrap()).collect())
}

fn run(case: &Value) -> Outcome {
    let op = case["op"].as_str().unwrap();
    match op {
        "broadcast" => broadcast(&shape(&case["a"]), &shape(&case["b"])),
        "dot" => dot(&shape(&case["a"]), &shape(&case["b"])),
        "matmul" => matmul(&shape(&case["a"]), &shape(&case["b"])),
        "reshape" => {
            let new: Vec<reshape::NewDim> = ints(&case["newshape"])
                .unwrap()
                .into_iter()
                .map(|d| {
                    if d == -1 {
                        reshape::NewDim::Infer
                    } else {
                        reshape::NewDim::Size(Dim::Known(d as u64))
                    }
                })
                .collect();
            reshape::reshape(&shape(&case["a"]), &new)
        }
        "transpose" => transpose(&shape(&case["a"]), ints(&case["axes"]).as_deref()),
        "concatenate" => {
            concatenate::concatenate(&shapes(&case["shapes"]), case["axis"].as_i64().unwrap())
        }
        "stack" => concatenate::stack(&shapes(&case["shapes"]), case["axis"].as_i64().unwrap()),
        "sum" => reduce(
            &shape(&case["a"]),
            ints(&case["axis"]).as_deref(),
            case["keepdims"].as_bool().unwrap(),
        ),
        "expand_dims" => {
            expand_squeeze::expand_dims(&shape(&case["a"]), case["axis"].as_i64().unwrap())
        }
        "squeeze" => expand_squeeze::squeeze(&shape(&case["a"]), case["axis"].as_i64()),
        other => panic!("unknown op {other}"),
    }
}

/// Compare our outcome with NumPy's recorded result; returns a description of any difference.
fn compare(case: &Value) -> Option<String> {
    let got = run(case);
    let want = &case["result"];
    match (&want["shape"], &got.error) {
        (Value::Array(_), None) => {
            let w = shape(&want["shape"]);
            (got.shape != w).then(|| format!("{case}: shape {} instead of {w}", got.shape))
        }
        (Value::Array(_), Some(e)) => Some(format!("{case}: unexpected error {e:?}")),
        (_, Some(e)) if e.certainty == Certainty::Certain => {
            let m = want["message"].as_str().unwrap().trim_end();
            (e.message != m)
                .then(|| format!("{case}: message\n  ours:  {}\n  numpy: {m}", e.message))
        }
        (_, e) => Some(format!(
            "{case}: NumPy raises {}, we report {e:?}",
            want["message"]
        )),
    }
}

#[test]
fn models_agree_with_numpy_on_every_recorded_case() {
    let doc: Value = serde_json::from_str(include_str!("../numpy_cases.json")).unwrap();
    let cases = doc["cases"].as_array().unwrap();
    assert!(cases.len() >= 70);
    let bad: Vec<String> = cases.iter().filter_map(compare).collect();
    assert!(
        bad.is_empty(),
        "{} of {} cases differ from NumPy {}:\n{}",
        bad.len(),
        cases.len(),
        doc["numpy_version"],
        bad.join("\n")
    );
}

/// Re-run the generator when a Python with NumPy is available, so that the recorded expectations
/// cannot drift from NumPy's real behaviour, with NumPy 1 and NumPy 2 (see
/// `common::numpy_python_for`); says so when one is missing.
#[test]
fn recorded_cases_match_numpy_when_it_is_installed() {
    for major in [1, 2] {
        match common::numpy_python_for(major) {
            Some(py) => cases_match(&py),
            None => eprintln!(
                "NumPy {major} is not importable here: the recorded cases were not re-checked against it"
            ),
        }
    }
}

fn cases_match(py: &str) {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let out = std::env::temp_dir().join(format!("ranklift-numpy-{}.json", std::process::id()));
    let st = std::process::Command::new(py)
        .arg(dir.join("gen_numpy_cases.py"))
        .arg(&out)
        .status()
        .unwrap();
    assert!(st.success());
    let fresh: Value = serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    let recorded: Value = serde_json::from_str(include_str!("../numpy_cases.json")).unwrap();
    let _ = std::fs::remove_file(&out);
    if fresh["numpy_version"] != recorded["numpy_version"] {
        eprintln!(
            "NumPy {} differs from the recorded {}: comparing shapes and error kinds only",
            fresh["numpy_version"], recorded["numpy_version"]
        );
    }
    for (f, r) in fresh["cases"]
        .as_array()
        .unwrap()
        .iter()
        .zip(recorded["cases"].as_array().unwrap())
    {
        assert_eq!(f["op"], r["op"]);
        assert_eq!(f["result"]["shape"], r["result"]["shape"], "{f}");
        if fresh["numpy_version"] == recorded["numpy_version"] {
            assert_eq!(f["result"], r["result"], "{f}");
        }
        // And our models agree with the fresh answer too.
        assert_eq!(compare(f), None);
    }
}
