//! Configuration files from the command line: `[tool.ranklift]` in `pyproject.toml` and
//! `ranklift.toml`, discovered upwards from the input, `--config`, `--isolated`, the command line
//! over the file, and located errors.
//!
//! Expected outputs are reasoned here: `np.product` exists in NumPy 1.x (deprecated in 1.25) and
//! is gone in 2.0, so `numpy-version = 1` turns the E011 of the default (NumPy 2) off and lets the
//! analysis reach the matmul mismatch on the next line (W504), as `--numpy-version 1` does.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::common;

const PROGRAM: &str =
    "import numpy as np\nx = np.product([1, 2])\ny = np.zeros((2, 3)) @ np.ones((4, 2))\n";

fn project(files: &[(&str, &str)]) -> tempfile::TempDir {
    let d = tempfile::tempdir().unwrap();
    for (name, text) in files {
        let p = d.path().join(name);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
    d
}

fn run(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let o = Command::new(env!("CARGO_BIN_EXE_ranklift"))
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap();
    (
        o.status.code().unwrap_or(-1),
        common::plain_summary(&String::from_utf8_lossy(&o.stdout)),
        common::plain_summary(&String::from_utf8_lossy(&o.stderr)),
    )
}

fn codes(out: &str) -> Vec<String> {
    out.lines()
        .filter_map(|l| l.split(": ").nth(1))
        .filter_map(|rest| rest.split(' ').next())
        .map(str::to_owned)
        .collect()
}

#[test]
fn pyproject_settings_apply_to_files_below_it() {
    let d = project(&[
        (
            "pyproject.toml",
            "[project]\nname = \"demo\"\n\n[tool.ranklift.shapes]\nnumpy-version = 1\ncolumns = 0\n",
        ),
        ("src/pkg/v.py", PROGRAM),
    ]);
    let (code, out, err) = run(d.path(), &["shapes", "src/pkg/v.py"]);
    assert_eq!(code, 1, "{err}");
    assert_eq!(codes(&out), ["W504"], "{out}");
    // columns = 0 (Pytropos' numbering): the `@` expression starts at the fifth character,
    // column 4 counted from 0.
    assert!(out.starts_with("src/pkg/v.py:3:4: W504"), "{out}");
    // Negative control: without the file, NumPy 2 and the default 1-based columns.
    let (_, out, _) = run(d.path(), &["--isolated", "shapes", "src/pkg/v.py"]);
    assert_eq!(codes(&out), ["E011"], "{out}");
    assert!(out.starts_with("src/pkg/v.py:2:5: E011"), "{out}");
    // The command line wins over the file.
    let (_, out, _) = run(
        d.path(),
        &["shapes", "--numpy-version", "2", "src/pkg/v.py"],
    );
    assert_eq!(codes(&out), ["E011"], "{out}");
}

#[test]
fn ranklift_toml_ignores_and_per_file_ignores() {
    let d = project(&[
        (
            "ranklift.toml",
            "[shapes]\nnumpy-version = \"1.26\"\nper-file-ignores = { \"legacy/*\" = [\"W5\"] }\n",
        ),
        // A pyproject.toml without [tool.ranklift] is passed over.
        ("legacy/pyproject.toml", "[project]\nname = \"x\"\n"),
        ("legacy/v.py", PROGRAM),
        ("new/v.py", PROGRAM),
    ]);
    let (code, out, _) = run(d.path(), &["shapes", "legacy/v.py", "new/v.py"]);
    assert_eq!(code, 1);
    assert_eq!(codes(&out), ["W504"], "{out}");
    assert!(out.starts_with("new/v.py:"), "{out}");
    // --ignore adds to the file's list; nothing left to report is exit 0.
    let (code, out, _) = run(
        d.path(),
        &["shapes", "--ignore", "W504", "legacy/v.py", "new/v.py"],
    );
    assert_eq!((code, out.as_str()), (0, "All checks passed.\n"));
}

#[test]
fn explicit_config_file() {
    let d = project(&[
        ("conf/strict.toml", "[shapes]\nnumpy-version = 1\n"),
        ("v.py", PROGRAM),
    ]);
    let (_, out, _) = run(d.path(), &["shapes", "v.py"]);
    assert_eq!(codes(&out), ["E011"], "{out}");
    let (_, out, err) = run(
        d.path(),
        &["--config", "conf/strict.toml", "shapes", "v.py"],
    );
    assert_eq!(codes(&out), ["W504"], "{out}{err}");
    let (code, _, err) = run(d.path(), &["shapes", "--config", "conf/none.toml", "v.py"]);
    assert_eq!(code, 2);
    assert!(err.contains("conf/none.toml: no such file"), "{err}");
}

#[test]
fn errors_name_the_file_line_and_key_and_nothing_runs() {
    let cases: [(&str, &str, &str); 4] = [
        (
            "[project]\nname = \"x\"\n\n[tool.ranklift.shapes]\npossible = true\nnumpy = 1\n",
            "pyproject.toml:6:1: RL010 unknown field `numpy`",
            "help: ranklift reads only the keys listed",
        ),
        (
            "[tool.ranklift.shapes]\nnumpy-version = 3\n",
            "pyproject.toml:2:17: RL010 invalid value for `numpy-version`",
            "help: the same values as the command line's --numpy-version",
        ),
        (
            "[tool.ranklift.shapes]\nignore = [\"W5\", \"all\"]\n",
            "pyproject.toml:2:17: RL010 `all` is not a code or code prefix",
            "help: write codes as printed",
        ),
        (
            "[tool.ranklift.shapes\nfuel = 1\n",
            "pyproject.toml:1:",
            "help: the file must be valid TOML",
        ),
    ];
    for (toml, want, hint) in cases {
        let d = project(&[("pyproject.toml", toml), ("v.py", PROGRAM)]);
        let (code, out, err) = run(d.path(), &["shapes", "v.py"]);
        assert_eq!(code, 2, "{toml}\n{err}");
        assert_eq!(out, "", "no analysis runs on a bad configuration");
        let first = err.lines().next().unwrap_or_default();
        assert!(first.contains(want), "{toml}\nwant {want}\ngot {err}");
        assert!(first.starts_with(d.path().to_str().unwrap()), "{err}");
        assert!(err.contains(hint), "{err}");
    }
}

fn torch_example() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/distribute/torch/plain_loop.py")
}

#[test]
fn distribute_reads_its_section() {
    let text = std::fs::read_to_string(torch_example()).unwrap();
    let d = project(&[
        (
            "pyproject.toml",
            "[tool.ranklift.distribute]\nscale-lr = \"linear\"\n",
        ),
        ("train.py", &text),
    ]);
    let (code, out, err) = run(d.path(), &["distribute", "train.py", "--diff"]);
    assert_eq!(code, 0, "{err}");
    // `--scale-lr linear` multiplies the rate by the number of processes.
    let scaled = |diff: &str| {
        diff.lines()
            .any(|l| l.starts_with('+') && l.contains("lr=0.05 * WORLD_SIZE"))
    };
    assert!(scaled(&out), "the learning rate is scaled:\n{out}");
    // Negative control: the command line's value wins.
    let (_, out, _) = run(
        d.path(),
        &["distribute", "train.py", "--diff", "--scale-lr", "none"],
    );
    assert!(!scaled(&out), "{out}");
    // A bad value is an error at its line, and nothing is written.
    std::fs::write(
        d.path().join("pyproject.toml"),
        "[tool.ranklift.distribute]\nmain = \"train.py\"\nscale-lr = \"quadratic\"\n",
    )
    .unwrap();
    let (code, _, err) = run(d.path(), &["distribute", "train.py"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("pyproject.toml:3:12: RL010 invalid value for `scale-lr`"),
        "{err}"
    );
    assert!(!d.path().join("train_ddp.py").exists());
}

/// Hand `path` to another user (uid 65534, `nobody`); only root may, so the test says when it
/// cannot (CI runs as root).
fn give_away(path: &Path) -> bool {
    let c = std::ffi::CString::new(path.to_str().unwrap()).unwrap();
    // SAFETY: a valid NUL-terminated path.
    unsafe { libc::chown(c.as_ptr(), 65534, 65534) == 0 }
}

#[test]
fn a_configuration_another_user_owns_is_not_applied_silently() {
    // A directory another user owns (as /tmp is shared) holds a ranklift.toml that would silence
    // everything; the user's project below it is checked without it, with a warning.
    let d = project(&[
        ("shared/ranklift.toml", "[shapes]\nnumpy-version = 1\n"),
        ("shared/mine/v.py", PROGRAM),
    ]);
    let shared = d.path().join("shared");
    if !give_away(&shared.join("ranklift.toml")) || !give_away(&shared) {
        eprintln!("skipped: only root can give a file to another user");
        return;
    }
    let (code, out, err) = run(&shared.join("mine"), &["shapes", "v.py"]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("owned by another user") && err.contains("ranklift.toml"),
        "{err}"
    );
    // NumPy 2, the default: np.product is E011, as without any configuration.
    assert!(codes(&out).contains(&"E011".to_owned()), "{out}");
    // Named with --config it is the user's choice, and applies.
    let (_, out, err) = run(
        &shared.join("mine"),
        &["--config", "../ranklift.toml", "shapes", "v.py"],
    );
    assert_eq!(codes(&out), ["W504"], "{out}{err}");
    // Control: the same layout owned by the user applies without a word.
    let d = project(&[
        ("shared/ranklift.toml", "[shapes]\nnumpy-version = 1\n"),
        ("shared/mine/v.py", PROGRAM),
    ]);
    let (_, out, err) = run(&d.path().join("shared/mine"), &["shapes", "v.py"]);
    assert_eq!(codes(&out), ["W504"], "{out}");
    assert!(!err.contains("owned by another user"), "{err}");
}

#[test]
fn a_pathological_glob_is_an_error_at_its_key_not_a_panic() {
    let deep = format!("{}a{}", "{".repeat(200), "}".repeat(200));
    let alt = format!("{}b{}", "{a,".repeat(200), "}".repeat(200));
    for pattern in [deep, alt] {
        let toml = format!("[shapes]\nper-file-ignores = {{ \"{pattern}\" = [\"W5\"] }}\n");
        let d = project(&[("ranklift.toml", &toml), ("v.py", PROGRAM)]);
        let (code, _, err) = run(d.path(), &["shapes", "v.py"]);
        assert_eq!(code, 2, "{err}");
        assert!(err.contains("ranklift.toml:2:22: RL010"), "{err}");
        assert!(err.contains("nested 200 deep"), "{err}");
        assert!(!err.contains("panicked"), "{err}");
    }
    // Control: a glob with braces at a sane depth works.
    let d = project(&[
        (
            "ranklift.toml",
            "[shapes]\nper-file-ignores = { \"{v,w}.py\" = [\"W5\", \"E0\"] }\n",
        ),
        ("v.py", PROGRAM),
    ]);
    let (code, out, err) = run(d.path(), &["shapes", "v.py"]);
    assert_eq!(code, 0, "{out}{err}");
}
