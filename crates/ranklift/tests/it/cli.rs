//! The `ranklift distribute` command line: output modes, exit codes, and "nothing is written when
//! anything is wrong".

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::{distribute_examples as examples, output as run};

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_ranklift"))
}

fn tmpdir(name: &str) -> PathBuf {
    common::scratch("cli", name)
}

#[test]
fn output_file_is_written_and_exit_is_zero() {
    let d = tmpdir("out");
    let out = d.join("prog.py");
    let (code, _, err) = run(bin()
        .args(["distribute"])
        .arg(examples().join("tape_mlp.py"))
        .arg("-o")
        .arg(&out));
    assert_eq!(code, 0, "{err}");
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(text.contains("hvd.DistributedGradientTape(tape)"));
    assert!(err.contains("rewrote 1 file(s)"), "{err}");
}

#[test]
fn diff_writes_nothing_and_check_exits_one() {
    let d = tmpdir("diff");
    std::fs::copy(examples().join("keras_fit_basic.py"), d.join("k.py")).unwrap();
    let (code, out, _) = run(bin().args(["distribute", "--diff"]).arg(d.join("k.py")));
    assert_eq!(code, 0);
    assert!(out.starts_with("--- a/k.py\n+++ b/k.py\n"), "{out}");
    assert!(out.contains("+import horovod.tensorflow.keras as hvd"));
    // --check reports on stdout, with the path as given (the file is outside the current
    // directory, so absolute), then a summary.
    let (code, out, _) = run(bin().args(["distribute", "--check"]).arg(d.join("k.py")));
    assert_eq!(code, 1);
    assert!(
        out.contains(&format!("would rewrite {}", d.join("k.py").display())),
        "{out}"
    );
    assert!(out.ends_with("1 file would be rewritten.\n"), "{out}");
    assert_eq!(
        std::fs::read_dir(&d).unwrap().count(),
        1,
        "--diff and --check must not write"
    );
}

#[test]
fn in_place_is_idempotent() {
    let d = tmpdir("inplace");
    let f = d.join("train.py");
    std::fs::copy(examples().join("tape_gan.py"), &f).unwrap();
    let (code, _, err) = run(bin().args(["distribute", "--in-place"]).arg(&f));
    assert_eq!(code, 0, "{err}");
    let once = std::fs::read_to_string(&f).unwrap();
    assert!(once.contains("hvd.init()"));
    // Second run: already distributed, unchanged, exit 0; --check agrees.
    let (code, _, err) = run(bin().args(["distribute", "--in-place"]).arg(&f));
    assert_eq!(code, 0);
    assert!(err.contains("DST202"), "{err}");
    assert_eq!(std::fs::read_to_string(&f).unwrap(), once);
    assert_eq!(run(bin().args(["distribute", "--check"]).arg(&f)).0, 0);
    let leftovers: Vec<_> = std::fs::read_dir(&d)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(
        leftovers.len(),
        1,
        "no temporary files may remain: {leftovers:?}"
    );
}

#[test]
fn violation_exits_one_with_located_diagnostic_and_writes_nothing() {
    let d = tmpdir("viol");
    let out = d.join("out");
    let (code, _, err) = run(bin()
        .args(["distribute"])
        .arg(examples().join("violations/dst004_print_side_effect.py"))
        .arg("-o")
        .arg(&out));
    assert_eq!(code, 1);
    assert!(
        err.contains("dst004_print_side_effect.py:14:37: DST004 "),
        "{err}"
    );
    assert!(err.contains("help: compute the value"), "{err}");
    assert!(
        err.contains("print(\"next batch starts with\", next(batches)[0][0])"),
        "snippet: {err}"
    );
    assert!(!out.exists(), "nothing may be written");
}

#[test]
fn syntax_error_exits_two() {
    let d = tmpdir("syntax");
    let f = d.join("broken.py");
    std::fs::write(&f, "import tensorflow as tf\ndef f(:\n    pass\n").unwrap();
    let (code, _, err) = run(bin().args(["distribute", "--diff"]).arg(&f));
    assert_eq!(code, 2);
    assert!(err.contains("broken.py:2:7: RL001 syntax error"), "{err}");
}

#[test]
fn missing_path_and_bad_usage_exit_two() {
    assert_eq!(run(bin().args(["distribute", "/nonexistent/x.py"])).0, 2);
    assert_eq!(
        run(bin().args(["distribute", "--diff", "--check", "x.py"])).0,
        2
    );
    let (code, _, err) = run(bin()
        .args(["distribute", "--target-tf", "two"])
        .arg(examples().join("tape_mlp.py")));
    assert_eq!(code, 2, "{err}");
}

#[test]
fn project_directory_is_copied_whole() {
    let d = tmpdir("proj");
    let src = d.join("src");
    copy_dir(&examples().join("project_tape"), &src);
    std::fs::write(src.join("README.txt"), "data file\n").unwrap();
    std::fs::write(src.join(".gitignore"), "scratch/\n").unwrap();
    std::fs::create_dir_all(src.join("scratch")).unwrap();
    std::fs::write(src.join("scratch/junk.py"), "this is not python (\n").unwrap();
    std::fs::create_dir_all(src.join("env/lib")).unwrap();
    std::fs::write(src.join("env/pyvenv.cfg"), "home = /usr/bin\n").unwrap();
    std::fs::write(src.join("env/lib/broken.py"), "def (\n").unwrap();
    let out = d.join("out");
    let (code, _, err) = run(bin().args(["distribute"]).arg(&src).arg("-o").arg(&out));
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        std::fs::read_to_string(out.join("README.txt")).unwrap(),
        "data file\n"
    );
    // .gitignore is honoured outside git: `scratch/` is not analysed (its junk.py does not
    // parse, yet the run succeeded), and it is linked into the output rather than copied, so
    // that the output finds it where the input did.
    assert!(
        std::fs::symlink_metadata(out.join("scratch"))
            .unwrap()
            .file_type()
            .is_symlink(),
        "a gitignored directory is linked, not copied"
    );
    assert!(err.contains("linked scratch"), "{err}");
    // A virtual environment (not gitignored, named anything) is neither analysed (its broken
    // module would stop the run) nor copied.
    assert!(
        !out.join("env").exists(),
        "the virtual environment was copied"
    );
    assert!(err.contains("left out env: a virtual environment"), "{err}");
    assert!(
        std::fs::read_to_string(out.join("train.py"))
            .unwrap()
            .contains("hvd.init()")
    );
    assert_eq!(
        std::fs::read_to_string(out.join("models/losses.py")).unwrap(),
        std::fs::read_to_string(src.join("models/losses.py")).unwrap(),
        "unchanged files are copied as they are"
    );
    // An output directory inside the project is not read back as input.
    let inner = src.join("dist");
    let (code, _, err) = run(bin().args(["distribute"]).arg(&src).arg("-o").arg(&inner));
    assert_eq!(code, 0, "{err}");
    let (code, _, err) = run(bin().args(["distribute"]).arg(&src).arg("-o").arg(&inner));
    assert_eq!(code, 0, "rerun with the output inside the project: {err}");
}

#[test]
fn json_report_has_the_facts() {
    let (code, out, _) = run(bin()
        .args(["distribute", "--diff", "--format", "json"])
        .arg(examples().join("tape_tf_function.py")));
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["status"], "rewritten");
    assert_eq!(v["pattern"], "gradient-tape");
    assert_eq!(v["main"], "tape_tf_function.py");
    let rules: Vec<&str> = v["edits"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["rule"].as_str().unwrap())
        .collect();
    for r in [
        "horovod_init",
        "scale_learning_rate",
        "distributed_gradient_tape",
        "broadcast_initial_state",
        "rank0_only",
    ] {
        assert!(rules.contains(&r), "{r} missing from {rules:?}");
    }
    assert!(
        v["files"][0]["diff"]
            .as_str()
            .unwrap()
            .contains("first_batch=False")
    );
    assert!(!v["facts"]["tapes"].as_array().unwrap().is_empty());
}

#[test]
fn explain_names_the_analysis() {
    let (code, out, _) = run(bin()
        .args(["distribute", "--explain", "-o"])
        .arg(tmpdir("explain").join("x.py"))
        .arg(examples().join("keras_functional_main.py")));
    assert_eq!(code, 0);
    assert!(
        out.contains("main script: keras_functional_main.py"),
        "{out}"
    );
    assert!(
        out.contains("training pattern: TF2 Keras Model.fit"),
        "{out}"
    );
    assert!(out.contains("[keras_fit_callbacks]"), "{out}");
}

#[test]
fn ambiguous_project_needs_main() {
    let dir = examples().join("violations/dst101_two_scripts");
    let (code, _, err) = run(bin().args(["distribute", "--diff"]).arg(&dir));
    assert_eq!(code, 1);
    assert!(
        err.contains("DST101") && err.contains("--main train_a.py"),
        "{err}"
    );
    let (code, out, err) = run(bin()
        .args(["distribute", "--diff", "--main", "train_b.py"])
        .arg(&dir));
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("+++ b/train_b.py") && !out.contains("train_a.py"),
        "{out}"
    );
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let p = e.path();
        if p.is_dir() {
            copy_dir(&p, &to.join(e.file_name()));
        } else {
            std::fs::copy(&p, to.join(e.file_name())).unwrap();
        }
    }
}

/// Inserted code follows the file's line endings and indentation (CRLF, tabs).
#[test]
fn crlf_and_tab_files_keep_their_style() {
    let d = tmpdir("style");
    let src = std::fs::read_to_string(examples().join("tape_mlp.py")).unwrap();
    std::fs::write(d.join("crlf.py"), src.replace('\n', "\r\n")).unwrap();
    std::fs::write(d.join("tabs.py"), src.replace("    ", "\t")).unwrap();
    for (name, check) in [
        (
            "crlf.py",
            (|t: &str| !t.replace("\r\n", "").contains('\n')) as fn(&str) -> bool,
        ),
        ("tabs.py", |t: &str| {
            t.contains("\n\tif not hvd_broadcast_done:\n\t\thvd.broadcast_variables(")
                && !t.contains("\n    ")
        }),
    ] {
        let out = d.join(format!("out_{name}"));
        let (code, _, err) = run(bin()
            .args(["distribute"])
            .arg(d.join(name))
            .arg("-o")
            .arg(&out));
        assert_eq!(code, 0, "{name}: {err}");
        let text = std::fs::read_to_string(&out).unwrap();
        assert!(check(&text), "{name}:\n{text}");
        // Round trip: the output is recognised as already distributed.
        assert_eq!(run(bin().args(["distribute", "--check"]).arg(&out)).0, 0);
    }
}

#[test]
fn sarif_output_locates_violations() {
    let (code, out, _) = run(bin()
        .args(["distribute", "--diff", "--format", "sarif"])
        .arg(examples().join("violations/dst004_print_side_effect.py")));
    assert_eq!(code, 1);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["version"], "2.1.0");
    let r = &v["runs"][0]["results"][0];
    assert_eq!(r["ruleId"], "DST004");
    assert_eq!(r["level"], "error");
    assert_eq!(
        r["locations"][0]["physicalLocation"]["region"]["startLine"],
        14
    );
}

/// `first_batch` is added where a keyword argument can reach it: before `**kwargs`, after `*`
/// or `/`; the rewrite of each signature is re-parsed by the guard.
#[test]
fn first_batch_parameter_fits_every_signature() {
    let d = tmpdir("sig");
    let f = d.join("sig.py");
    let body = "    with tf.GradientTape() as tape:\n        loss = tf.reduce_mean(model(x))\n    opt.apply_gradients(zip(tape.gradient(loss, model.trainable_variables), model.trainable_variables))\n";
    let mut src = String::from(
        "import tensorflow as tf\nmodel = tf.keras.Sequential([tf.keras.layers.Dense(1)])\nopt = tf.keras.optimizers.SGD(0.1)\n",
    );
    for sig in [
        "a(x, *, s=1.0, **extra)",
        "b(*args, **kwargs)",
        "c(x, /)",
        "d(x, *rest)",
        "e(x)",
    ] {
        src.push_str(&format!(
            "@tf.function\ndef {sig}:\n{}",
            body.replace("model(x)", "model(x if 'x' in dir() else 1.0)")
        ));
    }
    src.push_str(
        "for i in range(2):\n    a(1.0)\n    b(1.0)\n    c(1.0)\n    d(1.0)\n    e(1.0)\n",
    );
    std::fs::write(&f, &src).unwrap();
    let (code, out, err) = run(bin().args(["distribute", "--diff"]).arg(&f));
    assert_eq!(code, 0, "{err}");
    for expected in [
        "def a(x, *, s=1.0, first_batch=False, **extra):",
        "def b(*args, first_batch=False, **kwargs):",
        "def c(x, /, first_batch=False):",
        "def d(x, *rest, first_batch=False):",
        "def e(x, first_batch=False):",
    ] {
        assert!(out.contains(expected), "{expected} missing from\n{out}");
    }
}

/// The single-machine `--nproc-per-node` of a program that falls back to the CPU: torchrun's
/// `auto` is one process per GPU where the NVIDIA driver lists one, but one per CPU *core* where
/// none is (dozens on a workstation), so there ranklift says 2.
fn cpu_fallback_nproc() -> &'static str {
    let gpu = std::fs::read_dir("/proc/driver/nvidia/gpus").is_ok_and(|mut d| d.next().is_some())
        || Path::new("/dev/nvidia0").exists();
    if gpu { "auto" } else { "2" }
}

/// `--diff` writes nothing, so the launch command names the input (the script once the diff is
/// applied); `--nproc-per-node N` sets every form; a count torchrun would refuse is an error.
#[test]
fn torch_diff_prints_the_launch_line_and_nproc_per_node_is_the_users() {
    let d = tmpdir("torch-diff-launch");
    let input = d.join("train.py");
    std::fs::copy(examples().join("torch/plain_loop.py"), &input).unwrap();
    let (code, out, err) = run(bin().args(["distribute", "--diff"]).arg(&input));
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("+model = DDP("), "{out}");
    assert!(
        err.contains(&format!(
            "once the diff is applied, launch: torchrun --standalone --nproc-per-node {} {}\n",
            cpu_fallback_nproc(),
            input.display()
        )),
        "{err}"
    );
    assert!(!d.join("train_ddp.py").exists(), "--diff wrote a file");
    let (code, _, err) = run(bin()
        .args(["distribute", "--nproc-per-node", "4"])
        .arg(&input));
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("torchrun --standalone --nproc-per-node 4 "),
        "{err}"
    );
    assert!(
        err.contains("torchrun --nnodes 2 --nproc-per-node 4 "),
        "{err}"
    );
    assert!(!err.contains("--nproc-per-node auto"), "{err}");
    for bad in ["0", "-1", "two", "4.5"] {
        let (code, _, err) = run(bin()
            .args(["distribute", "--diff", &format!("--nproc-per-node={bad}")])
            .arg(&input));
        assert_eq!(code, 2, "{bad}: {err}");
        assert!(err.contains("is not a number of processes"), "{bad}: {err}");
    }
}

/// A PyTorch script: the default output is `<stem>_ddp.py` next to the input, the launch command
/// names torchrun and the written file, and a second run on the output has nothing to do.
#[test]
fn torch_script_gets_a_ddp_output_and_a_torchrun_launch_line() {
    let d = tmpdir("torch-default");
    let input = d.join("train.py");
    std::fs::copy(examples().join("torch/plain_loop.py"), &input).unwrap();
    let (code, _, err) = run(bin().args(["distribute"]).arg(&input));
    assert_eq!(code, 0, "{err}");
    let out = d.join("train_ddp.py");
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(text.contains("DistributedDataParallel"), "{text}");
    assert!(!d.join("train_hvd.py").exists());
    // The launch line names the written file as it can be typed here (the test's directory is
    // not below the current one: its full path): the examples fall back to the CPU without CUDA
    // (`auto`), and plain_loop.py writes only below the temp directory, so it may start anywhere.
    assert!(
        err.contains(&format!(
            "launch: torchrun --standalone --nproc-per-node {} {}\n",
            cpu_fallback_nproc(),
            out.display()
        )),
        "{err}"
    );
    // The multi-machine forms keep `auto`: they run on the cluster's machines, not this one.
    assert!(
        err.contains("torchrun --nnodes 2 --nproc-per-node auto "),
        "{err}"
    );
    assert!(
        err.contains("--rdzv-backend c10d --rdzv-endpoint HOST:29500"),
        "{err}"
    );
    assert!(!err.contains(" N "), "no placeholder: {err}");
    // Writing again over an earlier output is allowed; the output itself is already distributed.
    let (code, _, err) = run(bin().args(["distribute"]).arg(&input));
    assert_eq!(code, 0, "{err}");
    let (code, stdout, err) = run(bin().args(["distribute", "--check"]).arg(&out));
    assert_eq!(code, 0, "{err}");
    assert!(stdout.contains("DST202"), "{stdout}");
}

#[test]
fn torch_json_report_names_the_framework_and_pattern() {
    let (code, out, err) = run(bin()
        .args(["distribute", "--diff", "--format", "json"])
        .arg(examples().join("torch/main_function.py")));
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["framework"], "torch");
    assert_eq!(v["pattern"], "torch-loop");
    assert_eq!(v["status"], "rewritten");
    assert_eq!(v["launch"]["argv"][0], "torchrun");
    assert!(
        v["launch"]["command"]
            .as_str()
            .unwrap()
            .contains("main_function_ddp.py")
    );
    let rules: Vec<&str> = v["edits"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["rule"].as_str().unwrap())
        .collect();
    for r in [
        "ddp_wrap",
        "distributed_sampler",
        "set_epoch",
        "rank0_only",
        "process_group",
    ] {
        assert!(rules.contains(&r), "{r} missing from {rules:?}");
    }
}

/// A refusal exits 1 with a located diagnostic, and nothing is written.
#[test]
fn torch_refusal_exits_one_and_writes_nothing() {
    let d = tmpdir("torch-refusal");
    let out = d.join("out.py");
    let (code, _, err) = run(bin()
        .args(["distribute"])
        .arg(examples().join("torch/refusals/dst400_iterable_dataset.py"))
        .arg("-o")
        .arg(&out));
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("dst400_iterable_dataset.py:17:"), "{err}");
    assert!(err.contains("DST400"), "{err}");
    assert!(!out.exists());
}

/// `--scale-lr linear` multiplies learning rates by WORLD_SIZE; the default leaves them alone.
#[test]
fn torch_scale_lr_is_opt_in() {
    let ex = examples().join("torch/plain_loop.py");
    let (_, plain, _) = run(bin().args(["distribute", "--diff"]).arg(&ex));
    assert!(!plain.contains("WORLD_SIZE"), "{plain}");
    let (code, scaled, err) = run(bin()
        .args(["distribute", "--diff", "--scale-lr", "linear"])
        .arg(&ex));
    assert_eq!(code, 0, "{err}");
    assert!(
        scaled.contains("+optimizer = torch.optim.SGD(model.parameters(), lr=0.05 * WORLD_SIZE)"),
        "{scaled}"
    );
    assert!(
        scaled.contains("+WORLD_SIZE = int(os.environ.get(\"WORLD_SIZE\", \"1\"))"),
        "{scaled}"
    );
}

#[test]
fn distribute_refuses_a_notebook_with_the_export_command() {
    let nb = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples/shapes/notebook/analysis.ipynb");
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_ranklift"))
        .args(["distribute", nb.to_str().unwrap()])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("analysis.ipynb:1:1: RL005 a notebook cannot be distributed"),
        "{err}"
    );
    assert!(err.contains("jupyter nbconvert --to script"), "{err}");
    assert!(!nb.with_file_name("analysis_ddp.py").exists());
    assert!(!nb.with_file_name("analysis_hvd.py").exists());
}

#[test]
fn check_with_output_tells_whether_a_distributed_copy_is_in_sync() {
    let d = tempfile::tempdir().unwrap();
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples/distribute/torch/plain_loop.py");
    std::fs::copy(&src, d.path().join("train.py")).unwrap();
    let run = |args: &[&str]| {
        let o = std::process::Command::new(env!("CARGO_BIN_EXE_ranklift"))
            .args(args)
            .current_dir(d.path())
            .output()
            .unwrap();
        (
            o.status.code(),
            format!(
                "{}{}",
                String::from_utf8_lossy(&o.stdout),
                String::from_utf8_lossy(&o.stderr)
            ),
        )
    };
    let check = ["distribute", "train.py", "--check", "-o", "train_ddp.py"];
    // No copy yet: out of date, and nothing is written.
    let (code, err) = run(&check);
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("out of date: train_ddp.py"), "{err}");
    assert!(!d.path().join("train_ddp.py").exists());
    assert_eq!(
        run(&["distribute", "train.py", "-o", "train_ddp.py"]).0,
        Some(0)
    );
    assert_eq!(run(&check), (Some(0), "All checks passed.\n".to_owned()));
    // The script changes: the copy is stale again.
    let mut text = std::fs::read_to_string(d.path().join("train.py")).unwrap();
    text.push_str("print('done')\n");
    std::fs::write(d.path().join("train.py"), text).unwrap();
    assert_eq!(run(&check).0, Some(1));
}

/// kuangliu/pytorch-cifar's shape: model modules with a `test()` helper nothing calls keep their
/// `print`; a module-level `print` in an imported module runs on every rank, so that module
/// changes too — and the script is then written as a whole project (`<dir>-ddp/`), exit 0.
#[test]
fn a_script_whose_imports_change_is_written_as_a_project() {
    let d = tmpdir("torch-project-of-script");
    let src = examples().join("torch/project_unused_helper");
    let proj = d.join("cifar");
    std::fs::create_dir_all(proj.join("models")).unwrap();
    for f in ["main.py", "models/__init__.py", "models/tiny.py"] {
        std::fs::copy(src.join(f), proj.join(f)).unwrap();
    }
    // Control first: only main.py changes, so one file is written next to it.
    let (code, _, err) = run(bin().args(["distribute", "main.py"]).current_dir(&proj));
    assert_eq!(code, 0, "{err}");
    assert!(proj.join("main_ddp.py").is_file(), "{err}");
    std::fs::remove_file(proj.join("main_ddp.py")).unwrap();
    let tiny = std::fs::read_to_string(proj.join("models/tiny.py")).unwrap();
    std::fs::write(
        proj.join("models/tiny.py"),
        format!("{tiny}print(\"models loaded\")\n"),
    )
    .unwrap();
    let (code, _, err) = run(bin().args(["distribute", "main.py"]).current_dir(&proj));
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("the whole project is written"), "{err}");
    assert!(
        err.contains(&format!(
            "launch: torchrun --standalone --nproc-per-node {} ../cifar-ddp/main.py",
            cpu_fallback_nproc()
        )),
        "{err}"
    );
    let out = d.join("cifar-ddp");
    let tiny = std::fs::read_to_string(out.join("models/tiny.py")).unwrap();
    assert!(
        tiny.contains("if RANK == 0:\n    print(\"models loaded\")"),
        "{tiny}"
    );
    // The helper nothing calls is as it was.
    assert!(
        tiny.contains("    y = net(torch.randn(2, 3, 8, 8))\n    print(y.size())"),
        "{tiny}"
    );
    assert!(
        std::fs::read_to_string(out.join("main.py"))
            .unwrap()
            .contains("DDP(")
    );
}

#[test]
fn a_script_importing_its_installed_project_distributes_the_project() {
    let d = tmpdir("torch-installed-package");
    let proj = d.join("tinyreg-repo");
    common::copy_dir(&examples().join("torch/project_installed_package"), &proj);
    let script_dir = proj.join("projects/sine");
    // Control: without the packaging file the package is not a project's, and the script alone
    // reaches no optimizer step (the trainer is out of sight).
    std::fs::rename(proj.join("pyproject.toml"), proj.join("pyproject.off")).unwrap();
    let (code, _, err) = run(bin()
        .args(["distribute", "train.py", "--diff"])
        .current_dir(&script_dir));
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("DST201"), "{err}");
    std::fs::rename(proj.join("pyproject.off"), proj.join("pyproject.toml")).unwrap();
    let (code, _, err) = run(bin()
        .args(["distribute", "train.py"])
        .current_dir(&script_dir));
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("train.py imports `tinyreg` from the project at ../..: distributing the project, with projects/sine/train.py as its main script"),
        "{err}"
    );
    // The rewritten package must be the one imported: its root on PYTHONPATH, from the script's
    // directory of the copy.
    assert!(
        err.contains(&format!(
            "tinyreg-repo-ddp/projects/sine && PYTHONPATH=../.. torchrun --standalone --nproc-per-node {} train.py",
            cpu_fallback_nproc()
        )),
        "{err}"
    );
    let trainer = std::fs::read_to_string(d.join("tinyreg-repo-ddp/tinyreg/trainer.py")).unwrap();
    assert!(trainer.contains("model = DDP("), "{trainer}");
    assert!(
        trainer.contains("self.max_iters // WORLD_SIZE"),
        "{trainer}"
    );
}

#[test]
fn a_rewrite_written_elsewhere_runs_where_the_programs_files_are() {
    let d = tmpdir("torch-written-elsewhere");
    std::fs::create_dir_all(d.join("src")).unwrap();
    std::fs::write(
        d.join("src/rel.py"),
        "import torch\nfrom torch import nn\nfrom torch.utils.data import DataLoader, TensorDataset\n\n\
         x = torch.load(\"data/x.pt\")\n\
         loader = DataLoader(TensorDataset(x, x.sum(1, keepdim=True)), batch_size=8, shuffle=True)\n\
         model = nn.Linear(4, 1)\nopt = torch.optim.SGD(model.parameters(), lr=0.1)\n\
         for epoch in range(2):\n    for a, b in loader:\n        opt.zero_grad()\n\
         \x20       nn.functional.mse_loss(model(a), b).backward()\n        opt.step()\n",
    )
    .unwrap();
    let n = cpu_fallback_nproc();
    // Control: written next to the original, the program starts in its own directory.
    let (code, _, err) = run(bin()
        .args(["distribute", "src/rel.py", "-o", "src/rel_ddp.py"])
        .current_dir(&d));
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains(&format!(
            "launch: cd src && torchrun --standalone --nproc-per-node {n} rel_ddp.py"
        )),
        "{err}"
    );
    // Written to another directory: it still starts where `data/x.pt` is.
    let (code, _, err) = run(bin()
        .args(["distribute", "src/rel.py", "-o", "out/rel_ddp.py"])
        .current_dir(&d));
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains(&format!(
            "launch: cd src && torchrun --standalone --nproc-per-node {n} "
        )),
        "{err}"
    );
    assert!(err.contains("out/rel_ddp.py"), "{err}");
    assert!(!err.contains("cd out"), "{err}");
}

#[test]
fn a_top_level_script_is_the_main_before_one_in_a_subdirectory() {
    let d = tmpdir("torch-top-before-subdir");
    let proj = d.join("proj");
    std::fs::create_dir_all(proj.join("examples")).unwrap();
    let train = std::fs::read_to_string(examples().join("torch/plain_loop.py")).unwrap();
    std::fs::write(proj.join("train.py"), &train).unwrap();
    std::fs::write(proj.join("examples/small.py"), &train).unwrap();
    let (code, _, err) = run(bin().args(["distribute", "proj", "--diff"]).current_dir(&d));
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("torchrun --standalone"), "{err}");
    assert!(err.contains(" proj/train.py"), "{err}");
    // Control: alone, the script in the subdirectory (nothing imports it) is the program.
    std::fs::remove_file(proj.join("train.py")).unwrap();
    let (code, _, err) = run(bin().args(["distribute", "proj", "--diff"]).current_dir(&d));
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("small.py"), "{err}");
}

#[test]
fn a_torch_project_without_training_says_pytorch_and_names_the_directory_once() {
    let d = tmpdir("torch-no-training");
    let proj = d.join("notrain");
    std::fs::create_dir_all(proj.join("sub")).unwrap();
    std::fs::write(
        proj.join("a.py"),
        "import torch
",
    )
    .unwrap();
    std::fs::write(
        proj.join("sub/b.py"),
        "import torch
x = torch.ones(2)
",
    )
    .unwrap();
    let (code, out, err) = run(bin()
        .args(["distribute", "notrain", "--diff"])
        .current_dir(&d));
    assert_eq!(code, 1, "{out}{err}");
    let all = format!("{out}{err}");
    assert!(
        all.contains("notrain:1:1: DST201 no PyTorch training loop found"),
        "{all}"
    );
    assert!(!all.contains("TensorFlow"), "{all}");
}

/// A real Python that cannot import torch: site-packages turned off (`-S`), so whatever is
/// installed for the machine's python3 is out of reach.
fn python_without_torch(d: &Path) -> PathBuf {
    let py = d.join("python-no-site");
    std::fs::write(&py, "#!/bin/sh\nexec python3 -S \"$@\"\n").unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&py, std::fs::Permissions::from_mode(0o755)).unwrap();
    py
}

#[test]
fn verify_without_torch_cannot_run_and_says_why() {
    let d = tmpdir("verify-no-torch");
    let src = examples().join("torch").join("plain_loop.py");
    std::fs::copy(&src, d.join("plain_loop.py")).unwrap();
    let py = python_without_torch(&d);
    let (code, out, err) = run(bin()
        .current_dir(&d)
        .args(["distribute", "plain_loop.py", "--verify", "--python"])
        .arg(&py));
    assert_eq!(code, 2, "{out}{err}");
    assert!(
        err.contains("cannot verify: torch is not installed for"),
        "{err}"
    );
    // The rewrite itself was written before the verification was tried.
    assert!(d.join("plain_loop_ddp.py").exists());
    // The same through `ranklift verify`.
    let (code, _, err) = run(bin()
        .current_dir(&d)
        .args([
            "verify",
            "plain_loop_ddp.py",
            "--original",
            "plain_loop.py",
            "--python",
        ])
        .arg(&py));
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("torch is not installed"), "{err}");
}

#[test]
fn verify_refuses_what_it_cannot_run() {
    let d = tmpdir("verify-refusals");
    // A Horovod target with a Python that has no Horovod (this machine's python3 has no
    // TensorFlow: the rewrite targets Horovod): written, then said to be unverifiable here.
    let (code, _, err) = run(bin()
        .args(["distribute"])
        .arg(examples().join("tape_mlp.py"))
        .arg("-o")
        .arg(d.join("tape_hvd.py"))
        .args(["--verify", "--python", "python3"])
        .env_remove("RANKLIFT_PYTHON"));
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("cannot verify: Horovod (with TensorFlow) is not installed for python3"),
        "{err}"
    );
    assert!(d.join("tape_hvd.py").exists());
    // JSON output: the verdict has its own command.
    let (code, _, err) = run(bin()
        .args(["distribute", "--format", "json", "--verify"])
        .arg(examples().join("torch").join("plain_loop.py"))
        .arg("-o")
        .arg(d.join("p.py")));
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("ranklift verify"), "{err}");
    assert!(
        !d.join("p.py").exists(),
        "nothing is written on a usage error"
    );
    // A directory needs --main; a missing path is named.
    let (code, _, err) = run(bin().args(["verify"]).arg(&d).arg("--original").arg(&d));
    assert_eq!(code, 2);
    assert!(err.contains("needs --main"), "{err}");
    let (code, _, err) = run(bin()
        .args(["verify", "nope_ddp.py", "--original"])
        .arg(d.join("nope.py")));
    assert_eq!(code, 2);
    assert!(err.contains("nope.py"), "{err}");
}

/// Both targets choose the main script the same way (one chooser): a TensorFlow script in a
/// subdirectory that nothing imports is the program when no top-level script trains, and a
/// top-level one comes first.
#[test]
fn a_tensorflow_script_in_a_subdirectory_is_the_main_when_alone() {
    let d = tmpdir("tf-subdir-main");
    let proj = d.join("proj");
    std::fs::create_dir_all(proj.join("experiments")).unwrap();
    let train = std::fs::read_to_string(examples().join("keras_fit_basic.py")).unwrap();
    std::fs::write(proj.join("experiments/run.py"), &train).unwrap();
    let args = ["distribute", "proj", "--diff", "--target-tf", "2.13"];
    let (code, _, err) = run(bin().args(args).current_dir(&d));
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("experiments/run.py"), "{err}");
    // With a top-level script that trains too, that one is the program.
    std::fs::write(proj.join("train.py"), &train).unwrap();
    let (code, _, err) = run(bin().args(args).current_dir(&d));
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("proj/train.py"), "{err}");
}
