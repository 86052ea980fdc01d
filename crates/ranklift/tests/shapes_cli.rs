//! `ranklift shapes` from the command line: output format, columns, exit codes, formats,
//! ignore comments, directories.

use std::path::PathBuf;
use std::process::Command;

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

fn run(args: &[&str]) -> (i32, String, String) {
    let o = bin().args(args).output().unwrap();
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

const BAD: &str = "import numpy as np\nx = np.zeros((2, 3))\ny = x @ np.ones((4, 2))\n";

#[test]
fn findings_exit_one_in_pytropos_format_with_zero_based_columns() {
    let d = tmp("fmt", &[("a.py", BAD)]);
    let f = d.join("a.py");
    let (code, out, _) = run(&["shapes", f.to_str().unwrap()]);
    assert_eq!(code, 1);
    let want = format!(
        "{}:3:4: W504 ValueError: matmul: Input operand 1 has a mismatch in its core dimension 0, with gufunc signature (n?,k),(k,m?)->(n?,m?) (size 4 is different from 3)\n",
        f.display()
    );
    assert_eq!(out, want);
    let (_, out1, _) = run(&["shapes", "--columns", "1", f.to_str().unwrap()]);
    assert!(out1.contains(":3:5: W504"), "{out1}");
}

#[test]
fn clean_file_exits_zero_and_prints_nothing() {
    let d = tmp(
        "clean",
        &[("a.py", "import numpy as np\nx = np.zeros((2, 3)) + 1\n")],
    );
    let (code, out, _) = run(&["shapes", d.join("a.py").to_str().unwrap()]);
    assert_eq!((code, out.as_str()), (0, ""));
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
    assert_eq!((code, out.as_str()), (0, ""));
}

#[test]
fn possible_mode_reports_with_the_reason() {
    let src = "import sys\nimport numpy as np\nn = int(sys.argv[1])\ny = np.zeros((n,)) + np.ones((3,))\n";
    let d = tmp("possible", &[("a.py", src)]);
    let f = d.join("a.py");
    let (code, out, _) = run(&["shapes", f.to_str().unwrap()]);
    assert_eq!((code, out.as_str()), (0, ""));
    let (code, out, _) = run(&["shapes", "--possible", f.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert!(
        out.contains(":4:4: W502 ValueError: operands could not be broadcast together with shapes (n,) (3,) [possible: dimension `n` unknown]"),
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
        (Some("W504"), Some(3), Some(4))
    );
    assert_eq!(d0["severity"], "warning");
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
    assert_eq!(out.lines().count(), 1, "{out}");
    assert!(out.contains("train.py:3:4: W504"), "{out}");
}

#[test]
fn python_version_rejects_newer_syntax() {
    let src = "match 1:\n    case 1:\n        pass\n";
    let d = tmp("version", &[("a.py", src)]);
    let f = d.join("a.py");
    let (code, out, _) = run(&["shapes", "--python-version", "3.9", f.to_str().unwrap()]);
    assert_eq!(code, 2, "{out}");
    assert!(
        out.contains(":1:0: RL004 SyntaxError: ") && out.contains("match"),
        "{out}"
    );
    let (code, _, _) = run(&["shapes", "--python-version", "3.11", f.to_str().unwrap()]);
    assert_eq!(code, 0);
    let (code, _, err) = run(&["shapes", "--python-version", "2.7", f.to_str().unwrap()]);
    assert_eq!(code, 2, "{err}");
}
