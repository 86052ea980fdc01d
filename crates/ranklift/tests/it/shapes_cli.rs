//! `ranklift shapes` from the command line: output format, columns, exit codes, formats,
//! ignore comments, directories.

use std::path::PathBuf;
use std::process::Command;

use crate::common;
use common::plain_summary;

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_ranklift"))
}

fn tmp(name: &str, files: &[(&str, &str)]) -> PathBuf {
    let d = std::env::temp_dir().join(format!("ranklift-shapes-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    for (f, text) in files {
        std::fs::write(d.join(f), text).unwrap();
    }
    d
}

/// `ranklift shapes --statistics --format json FILE` run in `dir`: the JSON it printed.
fn statistics_json(dir: &std::path::Path, file: &str) -> serde_json::Value {
    let o = bin()
        .args(["shapes", "--statistics", "--format", "json", file])
        .current_dir(dir)
        .output()
        .unwrap();
    serde_json::from_slice(&o.stdout).unwrap()
}

fn run(args: &[&str]) -> (i32, String, String) {
    let o = bin().args(args).output().unwrap();
    (
        o.status.code().unwrap_or(-1),
        plain_summary(&String::from_utf8_lossy(&o.stdout)),
        plain_summary(&String::from_utf8_lossy(&o.stderr)),
    )
}

#[test]
fn the_summary_says_how_much_was_understood() {
    // A model whose every shape is known, and one whose data comes from an unmodelled library
    // attribute: both pass, and the summary tells them apart.
    let d = tmp(
        "coverage",
        &[
            (
                "known.py",
                "import numpy as np\nx = np.zeros((2, 3))\ny = x @ np.ones((3, 4))\nz = y.sum(axis=0)\n",
            ),
            (
                "dark.py",
                "import torch\nx = torch.special_data((2, 3))\ny = x @ x.T\nz = y.sum(dim=0)\n",
            ),
        ],
    );
    let summary = |f: &str| {
        let o = bin().arg("shapes").arg(d.join(f)).output().unwrap();
        assert_eq!(o.status.code(), Some(0));
        String::from_utf8_lossy(&o.stdout).into_owned()
    };
    // Six array values, each shape known: `np.zeros(...)`, `x` (line 3), `np.ones(...)`, the
    // product, `y` and `y.sum(axis=0)`; nothing unknown.
    let known = summary("known.py");
    assert_eq!(
        known,
        "All checks passed (100% of tensor expressions understood).\n"
    );
    // Every expression but `torch` and the name `torch.special_data` itself is unknown: the
    // call, `x` twice, `x.T`, `x @ x.T`, `y`, `y.sum`, `y.sum(dim=0)`.
    let dark = summary("dark.py");
    assert_eq!(
        dark,
        "All checks passed (0% of tensor expressions understood).\n"
    );
    // --statistics names the cause, with its place and the expressions it left unknown: the
    // 7 of lines 2-4 (the call, `x` twice, `x.T`, the product, `y`, the sum; a called
    // attribute such as `y.sum` is counted as its call).
    let o = bin()
        .args(["shapes", "--statistics"])
        .arg(d.join("dark.py"))
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        out.contains(
            "dark.py:2:5: torch.special_data: not modelled — 7 expressions unknown after it (1 use)"
        ),
        "{out}"
    );
    let o = bin()
        .args(["shapes", "--statistics", "--format", "json"])
        .arg(&d)
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["statistics"]["files"].as_array().unwrap().len(), 2, "{v}");
    let cause = &v["statistics"]["not_modelled"][0];
    assert_eq!(cause["name"], "torch.special_data");
    assert_eq!(cause["darkened"], 7);
    assert_eq!(v["statistics"]["total"]["unattributed"], 0, "{v}");
}

#[test]
fn an_unknown_value_is_traced_through_names_and_attributes_to_its_cause() {
    // Two causes: the first darkens what flows from it through a variable and an attribute
    // (lines 4-7), the second only its own call. Ranked by what they darkened, not by uses.
    let d = tmp(
        "coverage-trace",
        &[(
            "trace.py",
            "import torch\nimport mystery\n\nclass Box:\n    pass\n\nb = Box()\nb.data = mystery.load()\nt = b.data\nu = t.reshape(3, 4)\nv = u + torch.zeros(3, 4)\nmystery.log(1)\nmystery.log(2)\nmystery.log(3)\n",
        )],
    );
    let o = bin()
        .args(["shapes", "--statistics", "--format", "json"])
        .arg(d.join("trace.py"))
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let causes = v["statistics"]["not_modelled"].as_array().unwrap();
    // The call `mystery.load()`, `b.data` (line 9), `t` and its reshape, `u` and the sum (a
    // called attribute is counted as its call).
    assert_eq!(causes[0]["name"], "mystery.load", "{v}");
    assert_eq!(causes[0]["darkened"], 6, "{v}");
    // Its three calls, each unknown and read by nothing.
    assert_eq!(causes[1]["name"], "mystery.log", "{v}");
    assert_eq!(causes[1]["uses"], 3, "{v}");
    assert_eq!(causes[1]["darkened"], 3, "{v}");
}

#[test]
fn an_unknown_value_is_traced_through_the_list_it_was_joined_in() {
    // A module's encoding loses its value to an unmodelled call, then joins it with a known
    // tensor in a list (`torch.cat([lost, known])`); the entry reads the result. Its cause is
    // the call, not "unattributed" (the list was known, and dropped the origin before).
    let d = tmp(
        "coverage-list",
        &[
            (
                "enc.py",
                "import torch\nimport mystery\n\n\nclass Encoding:\n    def __init__(self):\n        lost = mystery.flip(torch.zeros(4, 8))\n        known = torch.zeros(3, 8)\n        self.pe = torch.cat([lost, known], dim=0)\n\n    def get(self):\n        return self.pe\n",
            ),
            (
                "main.py",
                "from enc import Encoding\n\npe = Encoding().get()\nrows = pe.size(0)\n",
            ),
        ],
    );
    let v = statistics_json(&d, "main.py");
    let causes = v["statistics"]["not_modelled"].as_array().unwrap();
    assert_eq!(causes.len(), 1, "{v}");
    assert_eq!(causes[0]["name"], "mystery.flip", "{v}");
    assert!(causes[0]["darkened"].as_u64().unwrap() >= 2, "{v}");
    assert_eq!(v["statistics"]["total"]["unattributed"], 0, "{v}");
}

#[test]
fn a_library_function_that_loses_known_arguments_is_named_as_the_cause() {
    // `copy.deepcopy` of an object whose class copies itself its own way: the analysis cannot
    // say what it returns although everything handed to it was known. The unknown is the
    // call's, by the name the program called it (it was "unattributed": no cause listed).
    let d = tmp(
        "coverage-known-args",
        &[(
            "main.py",
            "import copy\nimport torch\n\n\nclass Odd:\n    def __init__(self):\n        self.w = torch.zeros(2, 3)\n\n    def __deepcopy__(self, memo):\n        return Odd()\n\n\no = copy.deepcopy(Odd())\ny = o.w @ torch.zeros(3, 4)\n",
        )],
    );
    let v = statistics_json(&d, "main.py");
    let causes = v["statistics"]["not_modelled"].as_array().unwrap();
    assert!(
        causes
            .iter()
            .any(|c| c["name"] == "copy.deepcopy" && c["darkened"].as_u64().unwrap() >= 2),
        "{v}"
    );
    assert_eq!(v["statistics"]["total"]["unattributed"], 0, "{v}");
}

#[test]
fn a_wrapper_not_followed_from_a_test_may_fill_its_modules_lists() {
    // astropy's `ascii.read` (behind a decorator factory of another module) empties and fills
    // a module-level trace that `get_read_trace()` hands back as a deep copy. From a test the
    // wrapper is not followed; the trace must not stay the empty list the import left, or
    // `get_trace()[-1]` is a certain IndexError that Python never raises (it passes: the
    // program runs clean).
    let d = tmp(
        "wrapper-trace",
        &[
            (
                "deco.py",
                "import functools\n\n\ndef renamed(old):\n    def deco(f):\n        @functools.wraps(f)\n        def wrapper(*args, **kwargs):\n            return f(*args, **kwargs)\n\n        return wrapper\n\n    return deco\n",
            ),
            (
                "lib.py",
                "import copy\nfrom deco import renamed\n\n_trace = []\n\n\n@renamed(\"Reader\")\ndef read(lines):\n    del _trace[:]\n    for line in lines:\n        _trace.append({\"line\": line})\n    return lines\n\n\ndef get_trace():\n    return copy.deepcopy(_trace)\n",
            ),
            (
                "test_lib.py",
                "from lib import get_trace, read\n\n\ndef test_read():\n    read([\"a\", \"b\"])\n    assert get_trace()[-1][\"line\"] == \"b\"\n",
            ),
        ],
    );
    let o = bin()
        .args(["shapes", "."])
        .current_dir(&d)
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(0), "{out}");
    assert!(!out.contains("E017"), "{out}");
}

#[test]
fn a_lambda_not_run_is_named_as_where_its_results_went_dark() {
    // A lambda the analysis does not run (it takes `*args`): what it returns is unknown, and
    // the statistics say so (the unknowns were unattributed, the summary silent about why).
    let d = tmp(
        "coverage-lambda",
        &[(
            "main.py",
            "import torch\n\nf = lambda *xs: xs[0] @ torch.zeros(3, 4)  # noqa: E731\ny = f(torch.zeros(2, 3))\nz = y + 1\n",
        )],
    );
    let v = statistics_json(&d, "main.py");
    let causes = v["statistics"]["not_modelled"].as_array().unwrap();
    assert!(
        causes.iter().any(
            |c| c["name"].as_str().is_some_and(|n| n.starts_with("lambdas"))
                && c["darkened"].as_u64().unwrap() >= 3
        ),
        "{v}"
    );
    assert_eq!(v["statistics"]["total"]["unattributed"], 0, "{v}");
}

const BAD: &str = "import numpy as np\nx = np.zeros((2, 3))\ny = x @ np.ones((4, 2))\n";

#[test]
fn findings_exit_one_with_one_based_columns_and_a_summary() {
    let d = tmp("fmt", &[("a.py", BAD)]);
    let f = d.join("a.py");
    let (code, out, _) = run(&["shapes", f.to_str().unwrap()]);
    assert_eq!(code, 1);
    let want = format!(
        "{}:3:5: W504 x @ np.ones((4, 2)): (2, 3) @ (4, 2): matmul: size 4 is different from 3\nFound 1 error in 1 file.\n",
        f.display()
    );
    assert_eq!(out, want);
    // Pytropos' 0-based numbering on request.
    let (_, out0, _) = run(&["shapes", "--columns", "0", f.to_str().unwrap()]);
    assert!(out0.contains(":3:4: W504"), "{out0}");
}

#[test]
fn clean_file_exits_zero_and_prints_nothing() {
    let d = tmp(
        "clean",
        &[("a.py", "import numpy as np\nx = np.zeros((2, 3)) + 1\n")],
    );
    let (code, out, _) = run(&["shapes", d.join("a.py").to_str().unwrap()]);
    assert_eq!((code, out.as_str()), (0, "All checks passed.\n"));
}

#[test]
fn syntax_error_and_missing_file_exit_two_never_one() {
    let d = tmp(
        "syntax",
        &[("bad.py", "def f(:\n    pass\n"), ("a.py", BAD)],
    );
    let (code, out, _) = run(&[
        "shapes",
        d.join("bad.py").to_str().unwrap(),
        d.join("a.py").to_str().unwrap(),
    ]);
    assert_eq!(code, 2, "fatal wins over findings");
    assert!(out.contains("bad.py:1:") && out.contains("RL001"), "{out}");
    assert!(
        out.contains("W504"),
        "the other file is still checked: {out}"
    );
    let (code, _, err) = run(&["shapes", d.join("nope.py").to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(err.contains("no such file"), "{err}");
}

#[test]
fn ignore_comment_silences_one_code() {
    let src = BAD.replace(
        "np.ones((4, 2))\n",
        "np.ones((4, 2))  # ranklift: ignore[W504]\n",
    );
    let d = tmp("ignore", &[("a.py", &src)]);
    let (code, out, _) = run(&["shapes", d.join("a.py").to_str().unwrap()]);
    assert_eq!((code, out.as_str()), (0, "All checks passed.\n"));
}

#[test]
fn possible_mode_reports_with_the_reason() {
    let src = "import sys\nimport numpy as np\nn = int(sys.argv[1])\ny = np.zeros((n,)) + np.ones((3,))\n";
    let d = tmp("possible", &[("a.py", src)]);
    let f = d.join("a.py");
    let (code, out, _) = run(&["shapes", f.to_str().unwrap()]);
    assert_eq!((code, out.as_str()), (0, "All checks passed.\n"));
    let (code, out, _) = run(&["shapes", "--possible", f.to_str().unwrap()]);
    assert_eq!(code, 1);
    // A possible error is a warning; a certain one (above) an error.
    assert!(out.ends_with("Found 1 warning in 1 file.\n"), "{out}");
    assert!(
        out.contains(":4:5: W502 np.zeros((n,)) + np.ones((3,)): (n,) + (3,): cannot be broadcast together [possible: dimension `n` unknown]"),
        "{out}"
    );
}

#[test]
fn json_and_sarif_carry_the_findings() {
    let d = tmp("json", &[("a.py", BAD)]);
    let f = d.join("a.py");
    let (_, out, _) = run(&["shapes", "--format", "json", f.to_str().unwrap()]);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let d0 = &v["diagnostics"][0];
    assert_eq!(
        (
            d0["code"].as_str(),
            d0["line"].as_u64(),
            d0["column"].as_u64()
        ),
        (Some("W504"), Some(3), Some(5))
    );
    // Certain: the line raises whenever it runs.
    assert_eq!(d0["severity"], "error");
    // The headline names the operands' shapes; NumPy's own words (confirmed by running the
    // program with NumPy 2.2) are what the program prints at run time.
    assert_eq!(
        d0["message"],
        "x @ np.ones((4, 2)): (2, 3) @ (4, 2): matmul: size 4 is different from 3"
    );
    assert_eq!(
        d0["runtime_message"],
        "ValueError: matmul: Input operand 1 has a mismatch in its core dimension 0, with gufunc signature (n?,k),(k,m?)->(n?,m?) (size 4 is different from 3)"
    );
    let (_, out, _) = run(&["shapes", "--format", "sarif", f.to_str().unwrap()]);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["runs"][0]["results"][0]["ruleId"], "W504");
}

#[test]
fn directory_checks_every_file_with_imports_between_them() {
    let d = tmp(
        "dir",
        &[
            (
                "model.py",
                "import numpy as np\n\ndef weights():\n    return np.zeros((5, 3))\n",
            ),
            (
                "train.py",
                "import numpy as np\nfrom model import weights\nh = np.ones((2, 4)) @ weights()\n",
            ),
        ],
    );
    let (code, out, _) = run(&["shapes", d.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert_eq!(out.lines().count(), 2, "one finding and the summary: {out}");
    assert!(out.contains("train.py:3:5: W504"), "{out}");
}

#[test]
fn python_version_rejects_newer_syntax() {
    let src = "match 1:\n    case 1:\n        pass\n";
    let d = tmp("version", &[("a.py", src)]);
    let f = d.join("a.py");
    let (code, out, _) = run(&["shapes", "--python-version", "3.9", f.to_str().unwrap()]);
    assert_eq!(code, 2, "{out}");
    assert!(
        out.contains(":1:1: RL004 SyntaxError: ") && out.contains("match"),
        "{out}"
    );
    let (code, _, _) = run(&["shapes", "--python-version", "3.11", f.to_str().unwrap()]);
    assert_eq!(code, 0);
    let (code, _, err) = run(&["shapes", "--python-version", "2.7", f.to_str().unwrap()]);
    assert_eq!(code, 2, "{err}");
}

/// `examples/shapes/notebook/analysis.ipynb`: the code cells run in order as one program. What
/// is expected, cell by cell (the matmul error was confirmed by running the cells' code with
/// NumPy 2.2: `ValueError: matmul: ... (size 4 is different from 3)`):
/// - cell 2 `%run helpers.py` brings `make_batch` into the namespace (no NameError later);
/// - cell 3 `files = !ls` binds `files`; `display` is IPython's (no NameError); `np.dot?` is help;
/// - cell 5 `make_batch(4) @ np.ones((4, 2))`: (4, 3) @ (4, 2), W504 at its third line;
/// - cell 6 is a `%%bash` cell, not Python: left out;
/// - cell 7 does not parse: RL001 at its own line and column, and only that cell is left out.
#[test]
fn notebook_cells_in_order_with_cell_locations() {
    // Canonical: ranklift prints paths outside the current directory absolute, `..` resolved.
    let nb = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples/shapes/notebook/analysis.ipynb")
        .canonicalize()
        .unwrap();
    let nb = nb.to_str().unwrap();
    let (code, out, _) = run(&["shapes", nb]);
    assert_eq!(code, 1);
    let want = format!(
        "{nb}:cell 5:3:5: W504 x @ w: (4, 3) @ (4, 2): matmul: size 4 is different from 3\n\
         {nb}:cell 7:1:11: RL001 syntax error: Expected an expression\n\
         Found 2 errors in 1 file.\n"
    );
    assert_eq!(out, want);
    let (_, json, _) = run(&["shapes", nb, "--format", "json", "--columns", "1"]);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    let first = &v["diagnostics"][0];
    assert_eq!(
        (first["cell"].as_u64(), first["line"].as_u64()),
        (Some(5), Some(3))
    );
    // A directory brings its notebooks along.
    let dir = PathBuf::from(nb).parent().unwrap().to_path_buf();
    let (_, out, _) = run(&["shapes", dir.to_str().unwrap()]);
    assert!(out.contains("analysis.ipynb:cell 5:3:5: W504"), "{out}");
}

#[test]
fn notebook_that_is_not_one() {
    let d = tmp(
        "nb-bad",
        &[(
            "r.ipynb",
            r#"{"cells": [], "metadata": {"kernelspec": {"language": "R"}}, "nbformat": 4}"#,
        )],
    );
    let (code, out, err) = run(&["shapes", d.join("r.ipynb").to_str().unwrap()]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(
        out.contains(
            "r.ipynb:1:1: RL002 cannot read the notebook: the notebook's kernel runs R, not Python"
        ),
        "{out}"
    );
}

/// `a and b and c`: CPython evaluates `a` first; if it raises, nothing after it runs. Here `a` is
/// the int 1, so `a.x0` raises `AttributeError: 'int' object has no attribute 'x0'` (as
/// `python3 -c "(1).x0 and (1).x1"` shows) and the other 59,999 operands never run. A chain of
/// 60,000 operands also finishes inside the default analysis budget, whatever its operands.
#[test]
fn an_and_chain_raises_at_its_first_raising_operand_and_long_chains_finish() {
    let n = 60_000;
    let chain = |f: &dyn Fn(usize) -> String, op: &str| {
        (0..n).map(f).collect::<Vec<_>>().join(&format!(" {op} "))
    };
    let raising = format!(
        "def f(a):\n    return {}\n\n\nf(1)\n",
        chain(&|i| format!("a.x{}", i % 50), "and")
    );
    let undecided = format!(
        "import numpy as np\nimport foo\n\nb = np.ones(3)\nx = {}\n",
        chain(&|i| format!("(foo.k{} > b.sum())", i % 50), "or")
    );
    let d = tmp(
        "chain",
        &[("raising.py", &raising), ("undecided.py", &undecided)],
    );
    let (code, out, err) = run(&["shapes", d.join("raising.py").to_str().unwrap()]);
    assert_eq!(code, 1, "{err}");
    let lines: Vec<&str> = out.lines().filter(|l| l.contains("E011")).collect();
    assert_eq!(lines.len(), 1, "{out}");
    assert!(
        lines[0].contains(":2:") && lines[0].contains("'x0'"),
        "{out}"
    );
    // The budget is steps of the interpreter, not seconds: a chain costs a few per operand.
    let fuel = (20 * n).to_string();
    for file in ["raising.py", "undecided.py"] {
        let (_, out, err) = run(&["shapes", "--fuel", &fuel, d.join(file).to_str().unwrap()]);
        assert!(!out.contains("budget exhausted"), "{file}: {out}{err}");
    }
}

fn run_in(dir: &std::path::Path, args: &[&str], envs: &[(&str, &str)]) -> (i32, String, String) {
    let mut c = bin();
    c.args(args).current_dir(dir).env_remove("NO_COLOR");
    for (k, v) in envs {
        c.env(k, v);
    }
    let o = c.output().unwrap();
    (
        o.status.code().unwrap_or(-1),
        plain_summary(&String::from_utf8_lossy(&o.stdout)),
        plain_summary(&String::from_utf8_lossy(&o.stderr)),
    )
}

/// No path means `.`; a virtual environment under it (by name, or by its `pyvenv.cfg` whatever
/// its name) is not searched, while the project's own finding is still reported (the control
/// that keeps the exclusion test from passing on an empty run).
#[test]
fn no_path_is_the_current_directory_and_virtual_environments_are_left_out() {
    let d = tmp("venv", &[("train.py", BAD)]);
    for venv in ["venv/lib/python3.11/site-packages/pip", "env/lib/vendored"] {
        std::fs::create_dir_all(d.join(venv)).unwrap();
        std::fs::write(d.join(venv).join("bad.py"), BAD).unwrap();
    }
    std::fs::write(d.join("env/pyvenv.cfg"), "home = /usr/bin\n").unwrap();
    let (code, out, err) = run_in(&d, &["shapes"], &[]);
    assert_eq!(code, 1, "{err}");
    assert!(out.starts_with("train.py:3:5: W504"), "{out}");
    assert!(!out.contains("bad.py"), "{out}");
    assert!(out.ends_with("Found 1 error in 1 file.\n"), "{out}");
    // `--exclude` replaces the defaults: the virtual environment named `venv` is searched again
    // (the one with `pyvenv.cfg` stays out), and `train.py` can be excluded by name.
    let (_, out, _) = run_in(&d, &["shapes", "--exclude", "train.py"], &[]);
    assert!(
        out.contains("venv/lib/python3.11/site-packages/pip/bad.py:3:5: W504"),
        "{out}"
    );
    assert!(
        !out.contains("env/lib/vendored") && !out.contains("train.py"),
        "{out}"
    );
    // A path named on the command line is always read.
    let (code, out, _) = run_in(
        &d,
        &["shapes", "venv/lib/python3.11/site-packages/pip/bad.py"],
        &[],
    );
    assert_eq!(code, 1, "{out}");
    // `extend-exclude` in the configuration adds to the defaults.
    std::fs::write(d.join("ranklift.toml"), "extend-exclude = [\"train.py\"]\n").unwrap();
    let (code, out, err) = run_in(&d, &["shapes"], &[]);
    assert_eq!((code, out.as_str()), (0, ""), "{err}");
    assert!(
        err.contains("warning: no Python files found under ."),
        "{err}"
    );
    // A bad pattern in the file is an error at its place.
    std::fs::write(d.join("ranklift.toml"), "exclude = [\"a[b\"]\n").unwrap();
    let (code, _, err) = run_in(&d, &["shapes"], &[]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("ranklift.toml:1:") && err.contains("bad exclude pattern"),
        "{err}"
    );
}

#[test]
fn standard_input_with_a_file_name() {
    let d = tmp("stdin", &[]);
    let mut c = bin();
    c.args(["shapes", "-", "--stdin-filename", "model.py"])
        .current_dir(&d)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped());
    let mut child = c.spawn().unwrap();
    std::io::Write::write_all(&mut child.stdin.take().unwrap(), BAD.as_bytes()).unwrap();
    let o = child.wait_with_output().unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(out.starts_with("model.py:3:5: W504"), "{out}");
    // Control: a clean source from stdin.
    let mut child = bin()
        .args(["shapes", "-"])
        .current_dir(&d)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::io::Write::write_all(&mut child.stdin.take().unwrap(), b"x = 1\n").unwrap();
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(
        plain_summary(&String::from_utf8_lossy(&o.stdout)),
        "All checks passed.\n"
    );
}

/// Colour: never when piped (the default `auto`), on request with `--color always`, and
/// `NO_COLOR` turns `auto` off even where colour would apply; `--color always` wins over it.
#[test]
fn colour_follows_the_terminal_and_no_color() {
    let d = tmp("color", &[("a.py", BAD)]);
    let (_, plain, _) = run_in(&d, &["shapes", "a.py"], &[]);
    assert!(!plain.contains('\x1b'), "{plain}");
    let (_, coloured, _) = run_in(&d, &["shapes", "--color", "always", "a.py"], &[]);
    assert!(coloured.contains("\x1b["), "{coloured}");
    let (_, forced, _) = run_in(
        &d,
        &["shapes", "--color", "always", "a.py"],
        &[("NO_COLOR", "1")],
    );
    assert!(forced.contains("\x1b["), "{forced}");
    let (_, never, _) = run_in(&d, &["shapes", "--color", "never", "a.py"], &[]);
    assert_eq!(never, plain);
}

/// The showcase: the headline shows both shapes, the notes trace `self.w` to the assignment in
/// `Dense.__init__` reached from `Dense(256, 10)` at line 26, and say through which calls the
/// failing line ran (line 27 → line 20). Reasoned from the file: `hidden` maps 784 → 128, so
/// `x` reaching the second layer is (32, 128), and `output.w` is (256, 10).
#[test]
fn shape_messages_trace_the_operands_back() {
    let f = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../examples/shapes/mlp_bug.py");
    let (code, out, _) = run(&["shapes", "--format", "json", f.to_str().unwrap()]);
    assert_eq!(code, 1);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let d = &v["diagnostics"][0];
    assert_eq!(
        d["message"],
        "x @ self.w: (32, 128) @ (256, 10): matmul: size 256 is different from 128"
    );
    let notes: Vec<(u64, String)> = d["notes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| {
            (
                n["line"].as_u64().unwrap(),
                n["message"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    assert!(
        notes.contains(&(
            11,
            "`self.w` is (256, 10): made here, reached from line 26 (`Dense(256, 10)`)".into()
        )),
        "{notes:?}"
    );
    assert!(
        notes
            .iter()
            .any(|(l, m)| *l == 20 && m.contains("reached from line 27 → 20")),
        "{notes:?}"
    );
    // Control: with the bug fixed (`Dense(128, 10)`) there is nothing to trace.
    let fixed = std::fs::read_to_string(&f)
        .unwrap()
        .replace("Dense(256, 10)", "Dense(128, 10)");
    let d = tmp("mlp-fixed", &[("mlp.py", &fixed)]);
    let (code, out, _) = run(&["shapes", d.join("mlp.py").to_str().unwrap()]);
    assert_eq!((code, out.as_str()), (0, "All checks passed.\n"));
}

/// The analysis budget bounds wall time as well as steps: with a budget far below what 3,000
/// lines of NumPy take to analyse, the run stops with the RL003 note (exit 0: nothing certain
/// was found before it); with the default budget it finishes without one. Bad values are usage
/// errors.
#[test]
fn the_time_budget_stops_an_analysis_with_a_note() {
    let mut src = String::from("import numpy as np\nx = np.ones((3, 4))\n");
    for i in 0..3000 {
        src.push_str(&format!("y{i} = x @ np.ones((4, {}))\n", i % 7 + 1));
    }
    let d = tmp("budget", &[("big.py", &src)]);
    let f = d.join("big.py");
    let (code, out, _) = run(&["shapes", "--time-budget", "0.000001", f.to_str().unwrap()]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("RL003 analysis budget exhausted"), "{out}");
    let (code, out, _) = run(&["shapes", f.to_str().unwrap()]);
    assert_eq!((code, out.as_str()), (0, "All checks passed.\n"));
    for bad in ["0", "-1", "nan", "1e300"] {
        let (code, _, err) = run(&["shapes", "--time-budget", bad, f.to_str().unwrap()]);
        assert_eq!(code, 2, "{bad}: {err}");
    }
}

const BUG: &str = "import numpy as np\nx = np.zeros((2, 3)) @ np.zeros((4, 5))\n";

/// `shapes DIR` from inside `cwd`: (exit code, stdout, stderr).
fn shapes_in(cwd: &std::path::Path, dir: &str) -> (i32, String, String) {
    let o = bin()
        .current_dir(cwd)
        .args(["shapes", dir])
        .output()
        .unwrap();
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

#[test]
fn ignore_files_above_the_repository_or_the_project_do_not_apply() {
    // A dotfiles-style `.gitignore` of `*` above a real repository, and above a plain directory.
    let top = tmp("gitignore-above", &[(".gitignore", "*\n")]);
    for (dir, git) in [("repo", true), ("plain/sub", false)] {
        let d = top.join(dir);
        std::fs::create_dir_all(d.join("pkg")).unwrap();
        if git {
            std::fs::create_dir(d.join(".git")).unwrap();
        }
        std::fs::write(d.join("pkg/a.py"), BUG).unwrap();
        let (code, out, err) = shapes_in(&top, dir);
        assert_eq!(code, 1, "{dir}: {out}{err}");
        assert!(out.contains("W504"), "{dir}: {out}{err}");
    }
    // Negative control: the same pattern in the repository's own .gitignore hides the file.
    std::fs::write(top.join("repo/.gitignore"), "pkg/\n").unwrap();
    let (code, out, _) = shapes_in(&top, "repo");
    assert_eq!(code, 0, "{out}");
    assert!(!out.contains("W504"));
    // Inside the repository, a .gitignore between its root and the walked directory applies...
    std::fs::create_dir_all(top.join("repo/lib/gen")).unwrap();
    std::fs::write(top.join("repo/lib/gen/b.py"), BUG).unwrap();
    std::fs::write(top.join("repo/lib/gen/.keep"), "").unwrap();
    std::fs::write(top.join("repo/.gitignore"), "gen/\n").unwrap();
    let (_, out, _) = shapes_in(&top, "repo/lib");
    assert!(!out.contains("b.py"), "{out}");
    // ...unless another user owns it: skipped, with a warning (making a file another user's
    // takes root, as CI runs).
    // SAFETY: geteuid has no preconditions.
    if unsafe { libc::geteuid() } != 0 {
        return;
    }
    let gi = top.join("repo/.gitignore");
    std::os::unix::fs::chown(&gi, Some(12345), None).unwrap();
    let (code, out, err) = shapes_in(&top, "repo/lib");
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.contains("b.py"), "{out}");
    assert!(err.contains("owned by another user (12345)"), "{err}");
}

#[test]
fn control_characters_in_names_are_shown_not_sent_to_the_terminal() {
    // A file name that clears the screen and sets the window title, then a forged summary.
    let name = "a\u{1b}[2J\u{1b}]0;pwn\u{7}\rAll checks passed.\n.py";
    let d = tmp("escapes", &[(name, BUG)]);
    for color in ["never", "always"] {
        let o = bin()
            .current_dir(&d)
            .args(["shapes", ".", "--color", color])
            .output()
            .unwrap();
        let out = String::from_utf8_lossy(&o.stdout);
        assert_eq!(o.status.code(), Some(1), "{out}");
        let shown = "a\\u{1b}[2J\\u{1b}]0;pwn\\u{7}\\rAll checks passed.\\n.py";
        assert!(out.contains(shown), "{out:?}");
        if color == "never" {
            assert!(out.contains(&format!("{shown}:2:5: W504")), "{out:?}");
        }
        assert!(
            !out.contains("\u{1b}[2J") && !out.contains('\u{7}') && !out.contains('\r'),
            "{out:?}"
        );
    }
}

#[test]
fn reveal_shape_names_the_cause_of_an_unknown_value() {
    let d = tmp(
        "reveal",
        &[(
            "r.py",
            "import torch\nimport mystery\nfrom ranklift.hints import reveal_shape\n\nx = torch.zeros(4, 3) @ torch.ones(3, 2)\nreveal_shape(x)\ny = mystery.load(x)\nreveal_shape(y.t())\n",
        )],
    );
    let o = bin().arg("shapes").arg(d.join("r.py")).output().unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        out.contains("r.py:6:1: W304 reveal_shape: Tensor (4, 2)"),
        "{out}"
    );
    assert!(
        out.contains("r.py:8:1: W304 reveal_shape: unknown (it comes from `mystery.load`, which the analysis does not model)"),
        "{out}"
    );
}

#[test]
fn reveal_shape_in_an_imported_module_answers_as_the_entry_reached_it() {
    // The user asks inside a helper module: the answer is what running the entry passed there
    // (a (4, 3) tensor), reported at the helper's own line. Without the entry's call the
    // helper's parameter is unknown — the control that the value comes from the entry.
    let helper = "from ranklift.hints import reveal_shape\n\n\ndef head(x):\n    reveal_shape(x)\n    return x.sum(0)\n";
    let d = tmp(
        "reveal-imported",
        &[
            ("helper.py", helper),
            (
                "main.py",
                "import torch\nfrom helper import head\n\nhead(torch.zeros(4, 3))\n",
            ),
            ("other.py", "import torch\nimport helper\n"),
        ],
    );
    let o = bin().arg("shapes").arg(d.join("main.py")).output().unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        out.contains("helper.py:5:5: W304 reveal_shape: Tensor (4, 3)"),
        "{out}"
    );
    let o = bin()
        .arg("shapes")
        .arg(d.join("other.py"))
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(!out.contains("Tensor (4, 3)"), "{out}");
}

#[test]
fn reveal_shape_opens_lists_tuples_and_dicts() {
    // A feature pyramid's maps travel in lists and dicts: the answer shows their items (the
    // shapes are what real torch gives: zeros(1, 8, 4, 4) and its 2x2 max-pool). The control:
    // a list the analysis only summarises (appended to in a loop of unknown length) is shown
    // as such, not as items it does not know.
    let d = tmp(
        "reveal-containers",
        &[(
            "r.py",
            "import sys
import torch
import torch.nn.functional as F
from ranklift.hints import reveal_shape

x = torch.zeros(1, 8, 4, 4)
maps = [x, F.max_pool2d(x, 2)]
reveal_shape(maps)
reveal_shape({\"p3\": maps[0], \"n\": 2})
reveal_shape((x, \"a\"))
more = []
for _ in range(len(sys.argv)):
    more.append(x)
reveal_shape(more)
",
        )],
    );
    let o = bin().arg("shapes").arg(d.join("r.py")).output().unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    for want in [
        "r.py:8:1: W304 reveal_shape: not an array or tensor (list of 2: [Tensor (1, 8, 4, 4), Tensor (1, 8, 2, 2)])",
        "r.py:9:1: W304 reveal_shape: not an array or tensor (dict of 2: {str 'p3': Tensor (1, 8, 4, 4), str 'n': int 2})",
        "r.py:10:1: W304 reveal_shape: not an array or tensor (tuple of 2: (Tensor (1, 8, 4, 4), str 'a'))",
        "r.py:14:1: W304 reveal_shape: not an array or tensor (list of ? items, each Tensor (1, 8, 4, 4))",
    ] {
        assert!(out.contains(want), "{want}\n{out}");
    }
}

#[test]
fn pytest_setup_module_binds_the_globals_the_tests_read() {
    // pytest calls `setup_module(module)` with the test module before its tests, so `A` and
    // `n` exist when the tests run: no NameError; the product in `test_bad` fails as NumPy's
    // matmul does on (3, 4) @ (3, 2). Without the setup function the names are undefined.
    let src = "import numpy as np\n\n\ndef setup_module(module):\n    module.A = np.zeros((3, 4))\n    module.n = 3\n\n\ndef test_shape():\n    b = A @ np.ones((4, 2))\n    assert b.shape == (n, 2)\n\n\ndef test_bad():\n    c = A @ np.ones((3, 2))\n";
    let without = src.replace("def setup_module(module):", "def prepare(module):");
    let d = tmp(
        "pytest-setup",
        &[("test_setup.py", src), ("test_nosetup.py", &without)],
    );
    let (code, out, _) = run(&["shapes", d.join("test_setup.py").to_str().unwrap()]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("test_setup.py:15:9: W504"), "{out}");
    assert!(!out.contains("W201"), "{out}");
    let (_, out, _) = run(&["shapes", d.join("test_nosetup.py").to_str().unwrap()]);
    assert!(
        out.contains("W201 NameError: name 'A' is not defined"),
        "{out}"
    );
}

#[test]
fn a_library_name_imported_from_an_unmodelled_module_is_a_cause() {
    // `FancyNorm` comes from a torch file the analysis does not model: what flows from it
    // (the layer, its call, `y`, the product) is unknown, and that import is the cause named —
    // not left unattributed.
    let d = tmp(
        "coverage-import",
        &[(
            "imp.py",
            "import torch\nfrom torch.nn.modules.fancy import FancyNorm\n\nnorm = FancyNorm(8)\ny = norm(torch.randn(2, 8))\nz = y @ torch.randn(8, 3)\n",
        )],
    );
    let o = bin()
        .args(["shapes", "--statistics", "--format", "json"])
        .arg(d.join("imp.py"))
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let cause = &v["statistics"]["not_modelled"][0];
    assert_eq!(cause["name"], "torch.nn.modules.fancy.FancyNorm", "{v}");
    assert_eq!(cause["line"], 2, "{v}");
    assert_eq!(v["statistics"]["total"]["unattributed"], 0, "{v}");
}

#[test]
fn a_file_inside_a_package_resolves_its_package_imports() {
    // `pkg/models/net.py` imports `..common` (a module of its package, outside its directory):
    // checked on its own, from the project's root and from its own directory, the package is
    // found as Python finds it when the module is imported (the directory above `pkg` on
    // `sys.path`), and the matmul inside `common.project` is reported there (torch: `mm: mat1
    // and mat2 shapes cannot be multiplied (2x3 and 4x5)`). The control: without
    // `pkg/models/__init__.py` the directory is no package, the relative import has no parent
    // package (Python: ImportError), and nothing is reported.
    let d = tmp("in-package", &[]);
    std::fs::create_dir_all(d.join("pkg/models")).unwrap();
    for (f, text) in [
        ("pkg/__init__.py", ""),
        ("pkg/models/__init__.py", ""),
        ("pkg/common.py", "def project(x, w):\n    return x @ w\n"),
        (
            "pkg/models/net.py",
            "import torch\n\nfrom ..common import project\n\ny = project(torch.randn(2, 3), torch.randn(4, 5))\n",
        ),
    ] {
        std::fs::write(d.join(f), text).unwrap();
    }
    let want = "common.py:2:12: W520 RuntimeError: mm: mat1 and mat2 shapes cannot be multiplied (2x3 and 4x5)";
    for (cwd, arg) in [
        (d.clone(), "pkg/models/net.py"),
        (d.join("pkg/models"), "net.py"),
    ] {
        let o = bin()
            .arg("shapes")
            .arg(arg)
            .current_dir(&cwd)
            .output()
            .unwrap();
        let out = String::from_utf8_lossy(&o.stdout);
        assert!(out.contains(want), "from {}: {out}", cwd.display());
        assert_eq!(o.status.code(), Some(1), "{out}");
    }
    std::fs::remove_file(d.join("pkg/models/__init__.py")).unwrap();
    let o = bin()
        .arg("shapes")
        .arg("pkg/models/net.py")
        .current_dir(&d)
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(!out.contains("W520"), "{out}");
    assert_eq!(o.status.code(), Some(0), "{out}");
}
