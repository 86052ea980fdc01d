//! The PyTorch program corpus (`tests/torch_programs/`), shaped like the shape bugs of real model
//! code. Every expectation was recorded by running the program with CPython and real
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
    serde_json::from_str(include_str!("../torch_programs/expected.json")).unwrap()
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

/// `annotated/`: jaxtyping-annotated code that jaxtyping's runtime checker (beartype) rejects.
/// An argument that contradicts its annotation is reported (W303) at the call, where the
/// checker raised; a result that contradicts the return annotation is reported at the
/// annotation (the line the program marks `# ranklift: W303 here`; the checker raises at the
/// call, after the body ran).
#[test]
fn annotation_violations_are_found_where_the_checker_raised() {
    let mut bad = Vec::new();
    let mut seen = 0;
    for (rel, want) in expected()["programs"].as_object().unwrap() {
        if !rel.starts_with("annotated/") {
            continue;
        }
        seen += 1;
        let source = std::fs::read_to_string(dir().join(rel)).unwrap();
        let line = match source
            .lines()
            .position(|l| l.contains("# ranklift: W303 here"))
        {
            Some(i) => {
                assert!(
                    want["message"]
                        .as_str()
                        .unwrap()
                        .contains("checking the return value"),
                    "{rel}: marked for a return annotation, but the checker said {want}"
                );
                i + 1
            }
            None => want["line"].as_u64().unwrap() as usize,
        };
        let got = findings(rel);
        if !got.iter().any(|(l, _, c, _)| *l == line && c == "W303") {
            bad.push(format!(
                "{rel}: W303 expected at line {line}, we report {got:?}"
            ));
        }
    }
    assert!(seen >= 3, "{seen} annotated programs");
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

/// A module nobody instantiates: its annotated `forward` is checked against its body, on the
/// module `Head()` builds (its `__init__` needs no argument). The body returns `fc2`'s 20
/// features for an annotation of 10 (reasoned: `Linear(32, 20)` maps `(batch, 32)` to
/// `(batch, 20)`); the control with the annotation corrected to 20 has no finding, and neither
/// has a module whose `__init__` needs arguments (its layers cannot be built).
#[test]
fn an_uncalled_annotated_forward_is_checked_against_its_body() {
    let program = |ret: &str, init: &str| {
        format!(
            "import torch\nimport torch.nn as nn\nfrom jaxtyping import Float\nfrom torch import Tensor\n\n\n\
class Head(nn.Module):\n    def __init__(self{init}):\n        super().__init__()\n        self.fc1 = nn.Linear(64, 32)\n        self.fc2 = nn.Linear(32, 20)\n\n    \
def forward(self, x: Float[Tensor, \"batch 64\"]) -> Float[Tensor, \"batch {ret}\"]:\n        return self.fc2(torch.relu(self.fc1(x)))\n"
        )
    };
    let run = |text: String| {
        let r = ranklift_shapes::check::check_text(Path::new("head.py"), text, &Options::default());
        r.findings
            .into_iter()
            .map(|d| (d.line, d.code, d.message))
            .collect::<Vec<_>>()
    };
    let got = run(program("10", ", classes=10"));
    assert!(
        matches!(got.as_slice(), [(13, "W303", m)] if m.contains("(batch,20)") && m.contains("(batch,10)")),
        "{got:?}"
    );
    assert_eq!(run(program("20", ", classes=10")), []);
    assert_eq!(run(program("10", ", classes")), []);
}

/// ranklift's own hint for tensors (`ranklift.hints.Tensor`, `NdArray`'s form): an uncalled
/// forward annotated with it is checked like a jaxtyping one (reasoned: `Linear(64, 20)` maps
/// `(b, 64)` to `(b, 20)`); the control with the annotation saying 20 has no finding, and the
/// hints module runs (the annotations evaluate at run time without checking anything).
#[test]
fn ranklifts_own_tensor_hint_is_checked() {
    let program = |ret: &str| {
        format!(
            "import torch.nn as nn\nfrom ranklift.hints import Tensor\n\n\nclass Head(nn.Module):\n    \
def __init__(self):\n        super().__init__()\n        self.fc = nn.Linear(64, 20)\n\n    \
def forward(self, x: Tensor[\"b\", 64]) -> Tensor[\"b\", {ret}]:\n        return self.fc(x)\n"
        )
    };
    let run = |text: String| {
        ranklift_shapes::check::check_text(Path::new("head.py"), text, &Options::default())
            .findings
            .into_iter()
            .map(|d| (d.line, d.code))
            .collect::<Vec<_>>()
    };
    assert_eq!(run(program("10")), [(10, "W303")]);
    assert_eq!(run(program("20")), []);
    if let Ok(py) = std::env::var("RANKLIFT_TORCH_PYTHON") {
        let hints = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../python");
        let out = std::process::Command::new(py)
            .args([
                "-c",
                &(program("10") + "print(Head()(__import__('torch').randn(2, 64)).shape)\n"),
            ])
            .env("PYTHONPATH", hints)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}
