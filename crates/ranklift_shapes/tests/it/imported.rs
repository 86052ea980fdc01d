//! Certain shape errors inside project modules the entry imports are reported at the module's
//! own file and line, once, whichever entry reaches them. The expected lines and
//! messages come from running these programs with NumPy 2.2.6: `python main.py` raises
//! `ValueError: shapes (10,3) and (4,2) not aligned: 3 (dim 1) != 4 (dim 0)` in helper.py line 5.

use std::fs;
use std::path::Path;

use ranklift_shapes::check::{Options, check_paths};

const HELPER: &str = "import numpy as np\n\n\ndef project(X, W):\n    return np.dot(X, W)\n\n\ndef checked(X, W):\n    if X.sum() > 0:\n        return np.dot(X, W)\n    return X\n";

/// A project directory holding `helper.py` and the given entry files.
fn project(entries: &[(&str, &str)]) -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    fs::write(tmp.path().join("helper.py"), HELPER).unwrap();
    for (name, text) in entries {
        fs::write(tmp.path().join(name), text).unwrap();
    }
    tmp
}

fn findings(paths: &[std::path::PathBuf]) -> Vec<(String, usize, String)> {
    check_paths(paths, &Options::default())
        .into_iter()
        .flat_map(|r| r.findings)
        .map(|d| {
            let file = Path::new(&d.path)
                .file_name()
                .unwrap()
                .to_string_lossy()
                .into_owned();
            (file, d.line, d.runtime_message.unwrap_or(d.message))
        })
        .collect()
}

#[test]
fn an_error_inside_an_imported_module_is_reported_there_once() {
    let tmp = project(&[
        (
            "main.py",
            "import numpy as np\nfrom helper import project\n\nX = np.ones((10, 3))\nprint(project(X, np.ones((4, 2))).shape)\n",
        ),
        (
            "other.py",
            "import numpy as np\nimport helper\n\nprint(helper.project(np.ones((10, 3)), np.ones((4, 2))).shape)\n",
        ),
    ]);
    let dir = tmp.path();
    let expected = (
        "helper.py".to_owned(),
        5,
        "ValueError: shapes (10,3) and (4,2) not aligned: 3 (dim 1) != 4 (dim 0)".to_owned(),
    );
    // One entry file.
    assert_eq!(findings(&[dir.join("main.py")]), vec![expected.clone()]);
    // Two entries reaching it, and the whole directory: still once.
    assert_eq!(
        findings(&[dir.join("main.py"), dir.join("other.py")]),
        vec![expected.clone()]
    );
    assert_eq!(findings(&[dir.to_path_buf()]), vec![expected]);
}

#[test]
fn correct_calls_and_undecided_dispatch_report_nothing() {
    // Negative controls: the same call with aligned shapes, and a mismatch reached only under a
    // condition of the module's own code that the analysis cannot decide (in the entry's own
    // code the same `if X.sum() > 0: np.dot(...)` is reported: every run entering it fails).
    let tmp = project(&[(
        "main.py",
        "import numpy as np\nfrom helper import checked, project\n\nprint(project(np.ones((10, 3)), np.ones((3, 2))).shape)\nprint(checked(np.ones((10, 3)), np.ones((4, 2))).shape)\n",
    )]);
    assert_eq!(findings(&[tmp.path().join("main.py")]), vec![]);
}

#[test]
fn a_validation_that_raises_does_not_hide_what_follows_it() {
    // `if ...: raise` validates: past it the function runs on every valid input, so a mismatch
    // there is certain (pydmd's `differentiate`, transforms3d's `decompose_matrix`). An arm
    // that *returns* dispatches instead, and what follows it stays unreported (control). The
    // expected line and message come from `python main.py` with NumPy 2.2.6 (raises in
    // valid.py line 7; `python other.py` runs clean: its input takes the early return).
    let tmp = project(&[
        (
            "valid.py",
            "import numpy as np\n\n\ndef fit(X, W):\n    if X.sum() < 0:\n        raise ValueError(\"negative input\")\n    return np.dot(X, W)\n\n\ndef dispatch(X, W):\n    if X.sum() > 0:\n        return X\n    return np.dot(X, W)\n",
        ),
        (
            "main.py",
            "import numpy as np\nfrom valid import fit\n\nprint(fit(np.ones((10, 3)), np.ones((4, 2))).shape)\n",
        ),
        (
            "other.py",
            "import numpy as np\nfrom valid import dispatch\n\nprint(dispatch(np.ones((10, 3)), np.ones((4, 2))).shape)\n",
        ),
    ]);
    let dir = tmp.path();
    assert_eq!(
        findings(&[dir.join("main.py")]),
        vec![(
            "valid.py".to_owned(),
            7,
            "ValueError: shapes (10,3) and (4,2) not aligned: 3 (dim 1) != 4 (dim 0)".to_owned()
        )]
    );
    assert_eq!(findings(&[dir.join("other.py")]), vec![]);
}

/// What an imported module made at import time is known to its importer: a class attribute
/// list (`cfg = [2, 3]`, read as `self.cfg`) and a module-level list, both defined in a package
/// whose `__init__.py` re-exports them with a relative import (`from .base import *`).
/// Expected from running `python main.py` with NumPy 2.2.6: `ValueError: operands could not be
/// broadcast together with shapes (2,) (5,) ` (its trailing space trimmed) in pkg/model.py line 9.
#[test]
fn lists_made_at_import_and_package_relative_imports_are_followed() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    fs::create_dir(dir.join("pkg")).unwrap();
    fs::write(
        dir.join("pkg/__init__.py"),
        "from .base import *  # noqa: F403\n",
    )
    .unwrap();
    fs::write(
        dir.join("pkg/base.py"),
        "SIZES = [2, 3]\n\n\nclass Base:\n    cfg = SIZES\n",
    )
    .unwrap();
    fs::write(
        dir.join("pkg/model.py"),
        "import numpy as np\n\nfrom pkg import Base\n\n\nclass Model(Base):\n    def run(self):\n        first = self.cfg[0]\n        return np.zeros(first) + np.zeros(5)\n",
    )
    .unwrap();
    fs::write(
        dir.join("main.py"),
        "from pkg.model import Model\n\nModel().run()\n",
    )
    .unwrap();
    assert_eq!(
        findings(&[dir.join("main.py")]),
        vec![(
            "model.py".to_owned(),
            9,
            "ValueError: operands could not be broadcast together with shapes (2,) (5,)".to_owned()
        )]
    );
}

#[test]
fn entries_of_a_directory_share_imported_modules_but_not_what_they_change() {
    // A directory run executes each imported module's body once and starts every entry from
    // there: what one entry does to a module's objects must not reach another entry, and each
    // entry must find what it finds when checked alone. `grow.py` appends 4 to the shared list,
    // so `np.ones((2, 4)) @ np.ones((3, 2))` fails (NumPy 2.2.6: "matmul: Input operand 1 has a
    // mismatch in its core dimension 0, ... (size 3 is different from 4)"); `keep.py` reads the
    // list as the module made it, `[3]`, and `(2, 3) @ (3, 2)` runs.
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    fs::write(dir.join("config.py"), "SIZES = [3]\n").unwrap();
    let grow = "import numpy as np\nimport config\n\nconfig.SIZES.append(4)\nprint(np.ones((2, config.SIZES[-1])) @ np.ones((3, 2)))\n";
    let keep = "import numpy as np\nimport config\n\nprint(np.ones((2, config.SIZES[-1])) @ np.ones((3, 2)))\n";
    // Both orders of the entries (file names sort `a_` before `b_`).
    for (first, second) in [("a_grow.py", "b_keep.py"), ("b_grow.py", "a_keep.py")] {
        let sub = dir.join(first.trim_end_matches(".py"));
        fs::create_dir(&sub).unwrap();
        fs::write(sub.join("config.py"), "SIZES = [3]\n").unwrap();
        fs::write(sub.join(first), grow).unwrap();
        fs::write(sub.join(second), keep).unwrap();
        let expected = vec![(
            first.to_owned(),
            5,
            "ValueError: matmul: Input operand 1 has a mismatch in its core dimension 0, with gufunc signature (n?,k),(k,m?)->(n?,m?) (size 3 is different from 4)".to_owned(),
        )];
        assert_eq!(
            findings(std::slice::from_ref(&sub)),
            expected,
            "directory run, {first}"
        );
        assert_eq!(findings(&[sub.join(first)]), expected, "{first} alone");
        assert_eq!(findings(&[sub.join(second)]), vec![], "{second} alone");
    }
}

#[test]
fn a_class_attribute_written_through_an_unseen_base_is_not_assumed_stored() {
    // `Shift` derives from a library class the analysis cannot see; its base (a metaclass or a
    // `__setattr__`, as astropy's `Model`) may turn `sh.offset = 3` into a parameter object,
    // so reading `sh.offset.value` afterwards is not a certain AttributeError. With a base of
    // the program that does nothing of the kind (the control), Python raises
    // `AttributeError: 'int' object has no attribute 'value'` at line 15 (CPython 3.11).
    let tmp = tempfile::tempdir().unwrap();
    let body = "\n\nclass Parameter:\n    def __init__(self, default=0):\n        self.default = default\n\n\nclass Shift(Model):\n    offset = Parameter(default=0)\n\n\nsh = Shift()\nsh.offset = 3\nprint(sh.offset.value)\n";
    let unseen = tmp.path().join("unseen.py");
    fs::write(&unseen, format!("from somelib import Model{body}")).unwrap();
    assert_eq!(findings(std::slice::from_ref(&unseen)), vec![]);
    let known = tmp.path().join("known.py");
    fs::write(&known, format!("class Model:\n    pass{body}")).unwrap();
    assert_eq!(
        findings(std::slice::from_ref(&known)),
        vec![(
            "known.py".to_owned(),
            15,
            "AttributeError: 'int' object has no attribute 'value'".to_owned()
        )]
    );
}

/// `slowlib.churn()` makes 8⁵ calls that each append to one list (no two alike, nothing to
/// remember): far more steps than the budget below. Python runs the tests:
/// `test_slow` passes, `test_bug` raises `ValueError: matmul: Input operand 1 has a mismatch in
/// its core dimension 0, with gufunc signature (n?,k),(k,m?)->(n?,m?) (size 4 is different from
/// 3)` at line 11 (NumPy 2.2.6).
fn deep_library_project(bug: &str) -> tempfile::TempDir {
    deep_library_tests(bug, 1)
}

/// [`deep_library_project`] with `slow` tests calling `slowlib.churn()`, each as `test_slow`.
fn deep_library_tests(bug: &str, slow: usize) -> tempfile::TempDir {
    let mut lib = String::from("def l0(out, k):\n    out.append(k)\n    out.append(k + 1)\n\n");
    for level in 1..=5 {
        lib.push_str(&format!("def l{level}(out):\n"));
        for i in 0..8 {
            let k = if level == 1 {
                format!(", {i}")
            } else {
                String::new()
            };
            lib.push_str(&format!("    l{}(out{k})\n", level - 1));
        }
        lib.push('\n');
    }
    lib.push_str("def churn():\n    out = []\n    l5(out)\n    return out\n");
    let tmp = tempfile::tempdir().unwrap();
    fs::write(tmp.path().join("slowlib.py"), lib).unwrap();
    let mut tests = String::from("import numpy as np\n\nimport slowlib\n\n");
    for i in 0..slow {
        let name = if i == 0 {
            String::new()
        } else {
            format!("_{i}")
        };
        tests.push_str(&format!(
            "\ndef test_slow{name}():\n    assert len(slowlib.churn()) == 2 * 8**5\n\n"
        ));
    }
    tests.push_str(&format!(
        "\ndef test_bug():\n    assert (np.ones((2, 3)) @ {bug}).shape == (2, 5)\n"
    ));
    fs::write(tmp.path().join("test_things.py"), tests).unwrap();
    tmp
}

#[test]
fn a_deep_library_call_from_a_test_does_not_spend_the_whole_files_budget() {
    let opts = Options {
        fuel: 100_000,
        ..Options::default()
    };
    let tmp = deep_library_project("np.ones((4, 5))");
    let results = check_paths(&[tmp.path().join("test_things.py")], &opts);
    let r = &results[0];
    let found: Vec<_> = r.findings.iter().map(|d| (d.line, d.code)).collect();
    // The call was cut at its own budget; the next test was analysed, and its error found.
    assert_eq!(found, vec![(11, "W504")], "{:?}", r.findings);
    assert!(!r.incomplete);
    // Coverage names the cut, where the test made the call.
    let cut = r
        .causes
        .iter()
        .find(|c| c.name == ranklift_shapes::interp::coverage::CALL_BUDGET)
        .expect("the cut call is a cause of unknown values");
    assert_eq!(cut.line, 7);
    // Negative control: the same tests with the right operand report nothing.
    let tmp = deep_library_project("np.ones((3, 5))");
    let results = check_paths(&[tmp.path().join("test_things.py")], &opts);
    assert!(results[0].findings.is_empty(), "{:?}", results[0].findings);
}

#[test]
fn a_call_cut_once_is_not_run_again_on_the_same_arguments() {
    // 40 tests each make the call that runs out of its own budget: run 40 times, that is more
    // than the file's budget, and `test_bug` (line 167) was never reached.
    let opts = Options {
        fuel: 60_000,
        ..Options::default()
    };
    let tmp = deep_library_tests("np.ones((4, 5))", 40);
    let results = check_paths(&[tmp.path().join("test_things.py")], &opts);
    let r = &results[0];
    let found: Vec<_> = r.findings.iter().map(|d| (d.line, d.code)).collect();
    assert_eq!(found, vec![(167, "W504")], "{:?}", r.findings);
    assert!(!r.incomplete);
    // Negative control: the same tests with the right operand report nothing.
    let tmp = deep_library_tests("np.ones((3, 5))", 40);
    let results = check_paths(&[tmp.path().join("test_things.py")], &opts);
    assert!(results[0].findings.is_empty(), "{:?}", results[0].findings);
    assert!(!results[0].incomplete);
}

fn validated_project(width: usize) -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    fs::write(
        tmp.path().join("validated.py"),
        "import functools\n\nimport numpy as np\n\n\ndef validate(**spec):\n    def decorator(fn):\n        @functools.wraps(fn)\n        def wrapper(*args, **kwargs):\n            for name, kind in spec.items():\n                if name in kwargs and not isinstance(kwargs[name], kind):\n                    raise TypeError(name)\n            return fn(*args, **kwargs)\n\n        return wrapper\n\n    return decorator\n\n\n@validate(rows=int)\ndef make(rows):\n    return np.ones((rows, 3))\n",
    )
    .unwrap();
    fs::write(
        tmp.path().join("run_it.py"),
        format!(
            "import numpy as np\n\nimport validated\n\n\ndef test_make():\n    assert validated.make(rows=4).shape == (4, 3)\n\n\nout = validated.make(rows=4) @ np.ones(({width}, 2))\n"
        ),
    )
    .unwrap();
    tmp
}

#[test]
fn a_decorator_factorys_wrapper_runs_from_the_program_not_from_an_uncalled_test() {
    let tmp = validated_project(4);
    let results = check_paths(&[tmp.path().join("run_it.py")], &Options::default());
    let r = &results[0];
    // Module-level code goes through the wrapper to `make`: (4, 3) @ (4, 2).
    let found: Vec<_> = r.findings.iter().map(|d| (d.line, d.code)).collect();
    assert_eq!(found, vec![(10, "W504")], "{:?}", r.findings);
    // Negative control: the right width reports nothing.
    let tmp = validated_project(3);
    let results = check_paths(&[tmp.path().join("run_it.py")], &Options::default());
    let r = &results[0];
    assert!(r.findings.is_empty(), "{:?}", r.findings);
    // The test nobody calls does not run the wrapper; coverage says so, at its call.
    let cause = r
        .causes
        .iter()
        .find(|c| c.name == ranklift_shapes::interp::coverage::WRAPPED_FROM_UNCALLED)
        .expect("the call through the wrapper from the test is a cause");
    assert_eq!(cause.line, 7);
}

/// A library keeps a configuration dict (a feature off by default) and a test reads it: the
/// test runs with the configuration the import left (the setting is `False`, not unknown — and
/// with it unknown, both branches of every call that tests it ran). The twin turns the feature on
/// in its own module first, and there the other branch runs: NumPy 2.2.6 raises `ValueError:
/// matmul: Input operand 1 has a mismatch in its core dimension 0, ... (size 5 is different from
/// 2)` at `config_lib.py` line 12.
#[test]
fn a_test_reads_a_librarys_configuration_as_its_import_left_it() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    fs::write(
        dir.join("config_lib.py"),
        "import numpy as np\n\n_config = {\"dispatch\": False}\n\n\ndef get_config():\n    return _config.copy()\n\n\ndef project(x, basis):\n    if get_config()[\"dispatch\"]:\n        return basis @ x\n    return x @ basis\n",
    )
    .unwrap();
    fs::write(
        dir.join("test_config.py"),
        "from config_lib import get_config\nfrom ranklift.hints import reveal_shape\n\n\ndef test_default():\n    reveal_shape(get_config()[\"dispatch\"])\n",
    )
    .unwrap();
    let found = findings(&[dir.join("test_config.py")]);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].2.ends_with("(bool False)"), "{found:?}");
    fs::write(
        dir.join("turned_on.py"),
        "import numpy as np\nimport config_lib\n\nconfig_lib._config[\"dispatch\"] = True\nprint(config_lib.project(np.ones((5, 3)), np.ones((3, 2))).shape)\n",
    )
    .unwrap();
    let found = findings(&[dir.join("turned_on.py")]);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!((found[0].0.as_str(), found[0].1), ("config_lib.py", 12));
}
