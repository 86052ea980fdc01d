//! Nothing lost, nothing half-written, no way in: the write path under injected
//! faults and kills, a hostile file system, `-o` into existing directories, broken pipes.
//!
//! Faults are injected through `RANKLIFT_TEST_FAULT=fail:N|kill:N` (`crates/ranklift/src/write.rs`):
//! the N-th file-system step of the write fails, or the process aborts there as if killed.

use crate::common;

use common::copy_dir;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_ranklift")
}

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Every file under `dir` (relative path → bytes; symlinks as `-> target`), hidden ones too.
fn snapshot(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    fn walk(root: &Path, dir: &Path, out: &mut BTreeMap<String, Vec<u8>>) {
        let mut es: Vec<_> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap())
            .collect();
        es.sort_by_key(|e| e.file_name());
        for e in es {
            let p = e.path();
            let rel = p.strip_prefix(root).unwrap().to_string_lossy().into_owned();
            let ft = e.file_type().unwrap();
            if ft.is_symlink() {
                let t = std::fs::read_link(&p).unwrap();
                out.insert(rel, format!("-> {}", t.display()).into_bytes());
            } else if ft.is_dir() {
                out.insert(format!("{rel}/"), Vec::new());
                walk(root, &p, out);
            } else {
                out.insert(rel, std::fs::read(&p).unwrap());
            }
        }
    }
    let mut m = BTreeMap::new();
    walk(dir, dir, &mut m);
    m
}

/// This test user's state directory (the journal key lives there), apart from the real home.
fn state_dir() -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join("safety-state")
}

fn run(args: &[&str], cwd: &Path, fault: Option<&str>) -> Output {
    run_as(args, cwd, fault, &state_dir())
}

/// Run as a user whose ranklift state (journal key) is in `state`.
fn run_as(args: &[&str], cwd: &Path, fault: Option<&str>, state: &Path) -> Output {
    let mut c = Command::new(bin());
    c.args(args)
        .current_dir(cwd)
        .env("XDG_STATE_HOME", state)
        .env_remove("RANKLIFT_TEST_FAULT");
    if let Some(f) = fault {
        c.env("RANKLIFT_TEST_FAULT", f);
    }
    c.output().unwrap()
}

/// A copy of `examples/distribute/project_tape` (its rewrite changes two files in two
/// directories) in a fresh temporary directory.
fn tape_project() -> (tempfile::TempDir, PathBuf) {
    let d = tempfile::tempdir().unwrap();
    let p = d.path().join("proj");
    copy_dir(&repo().join("examples/distribute/project_tape"), &p);
    (d, p)
}

/// The project as `--in-place` leaves it when nothing goes wrong.
fn rewritten_tape() -> BTreeMap<String, Vec<u8>> {
    let (_d, p) = tape_project();
    let o = run(&["distribute", "--in-place", "."], &p, None);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    snapshot(&p)
}

#[test]
fn a_failure_at_every_write_step_leaves_the_project_untouched() {
    let (_d0, p0) = tape_project();
    let before = snapshot(&p0);
    let after = rewritten_tape();
    assert_ne!(
        before, after,
        "the rewrite must change something for the test to mean anything"
    );
    for n in 0..100 {
        let (_d, p) = tape_project();
        let o = run(
            &["distribute", "--in-place", "."],
            &p,
            Some(&format!("fail:{n}")),
        );
        let now = snapshot(&p);
        if o.status.success() {
            // The fault lies past the last step: the rewrite completed.
            assert_eq!(now, after, "step {n}: success must mean fully rewritten");
            assert!(n >= 6, "expected several write steps, saw {n}");
            return;
        }
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "step {n}: {err}");
        assert!(err.contains("injected fault"), "step {n}: {err}");
        assert_eq!(
            now, before,
            "step {n}: a failed write must leave every byte as it was"
        );
        // And the next run still sees an undistributed project (no lock-out).
        let o = run(&["distribute", "--check", "."], &p, None);
        assert_eq!(
            o.status.code(),
            Some(1),
            "step {n}: --check must still want to rewrite"
        );
    }
    panic!("the write never completed");
}

#[test]
fn a_kill_at_every_write_step_is_rolled_back_by_the_next_run() {
    let (_d0, p0) = tape_project();
    let before = snapshot(&p0);
    let after = rewritten_tape();
    for n in 0..100 {
        let (_d, p) = tape_project();
        let o = run(
            &["distribute", "--in-place", "."],
            &p,
            Some(&format!("kill:{n}")),
        );
        if o.status.success() {
            assert_eq!(snapshot(&p), after);
            assert!(n >= 6, "expected several write steps");
            return;
        }
        assert!(
            o.status.code().is_none(),
            "step {n}: the process must have aborted"
        );
        let journal = p.join(".ranklift-journal").exists();
        let killed = snapshot(&p);
        // A read-only run never rolls back: with a journal it says so and stops (exit 2).
        for ro in ["--diff", "--check"] {
            let o = run(&["distribute", ro, "."], &p, None);
            let err = String::from_utf8_lossy(&o.stderr);
            if journal {
                assert_eq!(o.status.code(), Some(2), "step {n} {ro}: {err}");
                assert!(err.contains("interrupted"), "step {n} {ro}: {err}");
            }
            assert_eq!(snapshot(&p), killed, "step {n}: {ro} changed the project");
        }
        // A writing run rolls an interrupted write back first, from any working directory.
        let out = p.parent().unwrap().join("out");
        let o = run(
            &["distribute", "proj", "-o", out.to_str().unwrap()],
            p.parent().unwrap(),
            None,
        );
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(o.status.success(), "step {n}: {err}");
        let now = snapshot(&p);
        assert!(
            now == before || now == after,
            "step {n}: after recovery the project must be as before or fully rewritten\n{err}"
        );
    }
    panic!("the write never completed");
}

/// A project whose in-place rewrite was killed after the first rename: its journal is real.
fn interrupted_project() -> (tempfile::TempDir, PathBuf) {
    for n in 4..40 {
        let (d, p) = tape_project();
        let o = run(
            &["distribute", "--in-place", "."],
            &p,
            Some(&format!("kill:{n}")),
        );
        if o.status.code().is_none()
            && p.join(".ranklift-journal").exists()
            && snapshot(&p).keys().any(|k| k.ends_with(".ranklift-bak"))
        {
            return (d, p);
        }
    }
    panic!("no kill point left a journal with a backup");
}

#[test]
fn a_journal_that_came_with_the_project_is_never_applied() {
    let (d, p) = tape_project();
    let victim = d.path().join("victim.txt");
    std::fs::write(&victim, "precious\n").unwrap();
    std::fs::write(p.join(".payload.ranklift-bak"), "owned\n").unwrap();
    let escape = format!("{}", victim.display());
    // Journals as an attacker writes them: the old format with absolute and `..` paths, and the
    // new one with a made-up MAC.
    let forged = [
        format!(r#"{{"version":1,"entries":[{{"target":"{escape}","staged":"x","backup":"{}","existed":true}}]}}"#, p.join(".payload.ranklift-bak").display()),
        r#"{"format":"ranklift-journal","version":2,"root":"/","entries":[{"target":"../victim.txt","staged":"../.victim.txt.a.ranklift","backup":".payload.ranklift-bak","existed":true}],"mac":"00"}"#.to_string(),
    ];
    for j in &forged {
        std::fs::write(p.join(".ranklift-journal"), j).unwrap();
        for args in [
            vec!["distribute", "--check", "."],
            vec!["distribute", "--diff", "."],
            vec!["distribute", ".", "-o", "../out", "--force"],
        ] {
            let o = run(&args, &p, None);
            let err = String::from_utf8_lossy(&o.stderr);
            assert!(err.contains("ignored, not applied"), "{args:?}: {err}");
            assert_eq!(std::fs::read(&victim).unwrap(), b"precious\n", "{args:?}");
            assert!(p.join(".payload.ranklift-bak").exists(), "{args:?}");
        }
    }
}

#[test]
fn a_journal_is_applied_only_by_its_own_user_in_its_own_place() {
    let (_d0, p0) = tape_project();
    let before = snapshot(&p0);
    // Another user (another key) finds this user's journal: ignored.
    let (_d, p) = interrupted_project();
    let killed = snapshot(&p);
    let other = tempfile::tempdir().unwrap();
    let o = run_as(&["distribute", ".", "-o", "../out"], &p, None, other.path());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("ignored, not applied"), "{err}");
    assert_eq!(snapshot(&p), killed, "another user's run restored nothing");
    // The same journal copied into another directory (a clone): ignored.
    let (d2, _) = tape_project();
    let clone = d2.path().join("clone");
    copy_dir(&p, &clone);
    let o = run(&["distribute", ".", "-o", "../out2"], &clone, None);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("written in"), "{err}");
    // Control: the user who wrote it, in its place, from another directory: restored.
    let o = run(
        &["distribute", "proj", "-o", "out3"],
        p.parent().unwrap(),
        None,
    );
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success() && err.contains("rolled back"), "{err}");
    assert_eq!(snapshot(&p), before);
}

#[test]
fn a_journal_is_not_applied_through_a_symlink_or_when_git_tracks_it() {
    // A directory the journal names is replaced by a link to elsewhere: not followed.
    let (d, p) = interrupted_project();
    let outside = d.path().join("elsewhere");
    std::fs::rename(p.join("models"), &outside).unwrap();
    std::os::unix::fs::symlink(&outside, p.join("models")).unwrap();
    let there = snapshot(&outside);
    let o = run(&["distribute", ".", "-o", "../out"], &p, None);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("outside the project through a symbolic link"),
        "{err}"
    );
    assert_eq!(snapshot(&outside), there);
    // A journal git tracks: ignored (git itself is not run by ranklift).
    let (_d, p) = interrupted_project();
    let git = |args: &[&str]| {
        let ok = Command::new("git")
            .args(args)
            .current_dir(&p)
            .output()
            .unwrap();
        assert!(
            ok.status.success(),
            "{}",
            String::from_utf8_lossy(&ok.stderr)
        );
    };
    git(&["init", "-q"]);
    git(&["add", ".ranklift-journal"]);
    let killed = snapshot(&p);
    let o = run(&["distribute", ".", "-o", "../out"], &p, None);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("git tracks it"), "{err}");
    assert_eq!(snapshot(&p), killed);
    // Control: untracked again, it is applied.
    git(&["rm", "-q", "--cached", ".ranklift-journal"]);
    let o = run(&["distribute", ".", "-o", "../out", "--force"], &p, None);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("rolled back"), "{err}");
}

#[test]
fn a_planted_symlink_at_a_temp_name_is_never_followed() {
    let (d, p) = tape_project();
    let victim = d.path().join("victim.txt");
    std::fs::write(&victim, "precious\n").unwrap();
    // The names ranklift used to use, and a spread of guesses at the new ones.
    let pid_guess = [".train.py.ranklift-1", ".ranklift-journal"];
    for g in pid_guess {
        let _ = std::os::unix::fs::symlink(&victim, p.join(g));
    }
    let o = run(&["distribute", "--in-place", "."], &p, None);
    let err = String::from_utf8_lossy(&o.stderr);
    // A symlinked journal is refused outright; remove it and try again.
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("symbolic link"), "{err}");
    std::fs::remove_file(p.join(".ranklift-journal")).unwrap();
    let o = run(&["distribute", "--in-place", "."], &p, None);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(std::fs::read(&victim).unwrap(), b"precious\n");
    let meta = std::fs::symlink_metadata(p.join("train.py")).unwrap();
    assert!(
        meta.file_type().is_file(),
        "train.py must stay a regular file"
    );
}

#[test]
fn in_place_keeps_permissions_and_writes_only_inside_the_project() {
    use std::os::unix::fs::PermissionsExt;
    let (d, p) = tape_project();
    std::fs::set_permissions(p.join("train.py"), std::fs::Permissions::from_mode(0o750)).unwrap();
    // models/base.py lives elsewhere and is linked into the project: not written through.
    let elsewhere = d.path().join("shared_base.py");
    std::fs::rename(p.join("models/base.py"), &elsewhere).unwrap();
    std::os::unix::fs::symlink(&elsewhere, p.join("models/base.py")).unwrap();
    let original = std::fs::read(&elsewhere).unwrap();
    let before = snapshot(&p);
    let o = run(&["distribute", "--in-place", "."], &p, None);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("outside") && err.contains("symbolic link"),
        "{err}"
    );
    assert_eq!(std::fs::read(&elsewhere).unwrap(), original);
    assert_eq!(snapshot(&p), before, "all or nothing");
    // A link to a file inside the project is written through, and permissions are kept.
    std::fs::remove_file(p.join("models/base.py")).unwrap();
    std::fs::rename(&elsewhere, p.join("models/real_base.py")).unwrap();
    std::os::unix::fs::symlink("real_base.py", p.join("models/base.py")).unwrap();
    let o = run(&["distribute", "--in-place", "."], &p, None);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let mode = std::fs::metadata(p.join("train.py"))
        .unwrap()
        .permissions()
        .mode();
    assert_eq!(mode & 0o777, 0o750);
    assert!(
        std::fs::symlink_metadata(p.join("models/base.py"))
            .unwrap()
            .file_type()
            .is_symlink()
    );
    let text = std::fs::read_to_string(p.join("models/real_base.py")).unwrap();
    assert!(
        text.contains("hvd"),
        "the linked module was rewritten through the link"
    );
}

#[test]
fn output_directory_is_swapped_in_whole_and_foreign_directories_are_refused() {
    let (d, p) = tape_project();
    let out = d.path().join("out");
    // A foreign, non-empty directory is refused and left alone.
    std::fs::create_dir(&out).unwrap();
    std::fs::write(out.join("notes.txt"), "mine\n").unwrap();
    let o = run(&["distribute", ".", "-o", out.to_str().unwrap()], &p, None);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--force"));
    assert_eq!(std::fs::read(out.join("notes.txt")).unwrap(), b"mine\n");
    std::fs::remove_dir_all(&out).unwrap();
    // A first output, then a stale module planted in it, then a second output: no stale file.
    let o = run(&["distribute", ".", "-o", out.to_str().unwrap()], &p, None);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    std::fs::write(out.join("stale.py"), "x = 1\n").unwrap();
    let o = run(&["distribute", ".", "-o", out.to_str().unwrap()], &p, None);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(!out.join("stale.py").exists());
    assert!(out.join("train.py").is_file() && out.join(".ranklift-output").is_file());
    // A failure while building leaves the previous output exactly as it was.
    let before = snapshot(&out);
    for n in 0..6 {
        let o = run(
            &["distribute", ".", "-o", out.to_str().unwrap()],
            &p,
            Some(&format!("fail:{n}")),
        );
        if o.status.success() {
            break;
        }
        assert_eq!(snapshot(&out), before, "fault at step {n}");
    }
    // No staging directory is left next to it.
    let left: Vec<String> = std::fs::read_dir(d.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains("ranklift"))
        .collect();
    assert!(left.is_empty(), "{left:?}");
}

#[test]
fn output_runs_where_the_input_ran() {
    let (d, p) = tape_project();
    std::fs::write(p.join(".env"), "SECRET=1\n").unwrap();
    std::fs::write(p.join(".gitignore"), "data/\n").unwrap();
    std::fs::create_dir(p.join("data")).unwrap();
    std::fs::write(p.join("data/x.csv"), "1,2\n").unwrap();
    // A module that lives outside the project, linked in with a relative path.
    std::fs::write(d.path().join("helpers.py"), "def f():\n    return 1\n").unwrap();
    std::os::unix::fs::symlink("../helpers.py", p.join("helpers.py")).unwrap();
    let out = d.path().join("out");
    let o = run(&["distribute", ".", "-o", out.to_str().unwrap()], &p, None);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    assert_eq!(std::fs::read(out.join(".env")).unwrap(), b"SECRET=1\n");
    assert!(out.join(".gitignore").is_file());
    assert_eq!(std::fs::read(out.join("data/x.csv")).unwrap(), b"1,2\n");
    assert!(err.contains("linked data"), "{err}");
    // The link still resolves from the output directory.
    assert_eq!(
        std::fs::read_to_string(out.join("helpers.py")).unwrap(),
        "def f():\n    return 1\n"
    );
}

#[test]
fn output_inside_or_equal_to_the_input_is_handled() {
    let (_d, p) = tape_project();
    let o = run(&["distribute", ".", "-o", "."], &p, None);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("is the input directory"), "{err}");
    // An output inside the project is not analysed by the next run.
    let o = run(&["distribute", ".", "-o", "hvd"], &p, None);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let o = run(&["distribute", ".", "--check"], &p, None);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(!err.contains("already"), "{err}");
}

#[test]
fn non_regular_inputs_are_refused_in_every_command() {
    let d = tempfile::tempdir().unwrap();
    let fifo = d.path().join("f.py");
    let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
    // SAFETY: a valid path.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
    std::os::unix::fs::symlink("/dev/zero", d.path().join("z.py")).unwrap();
    let nb = std::ffi::CString::new(d.path().join("f.ipynb").to_str().unwrap()).unwrap();
    // SAFETY: a valid path.
    assert_eq!(unsafe { libc::mkfifo(nb.as_ptr(), 0o600) }, 0);
    std::os::unix::fs::symlink("/dev/zero", d.path().join("z.ipynb")).unwrap();
    for args in [
        vec!["shapes", "f.ipynb"],
        vec!["shapes", "z.ipynb"],
        vec!["shapes", "f.py"],
        vec!["distribute", "f.py", "--diff"],
        vec!["choreo", "check", "f.py"],
        vec!["choreo", "project", "f.py", "-o", "o"],
        vec!["shapes", "z.py"],
        vec!["distribute", "z.py", "--diff"],
    ] {
        let mut child = Command::new(bin())
            .args(&args)
            .current_dir(d.path())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let t0 = std::time::Instant::now();
        let status = loop {
            if let Some(s) = child.try_wait().unwrap() {
                break s;
            }
            if t0.elapsed() > std::time::Duration::from_secs(20) {
                let _ = child.kill();
                panic!("{args:?} blocked on a non-regular file");
            }
            std::thread::sleep(std::time::Duration::from_millis(20));
        };
        let o = child.wait_with_output().unwrap();
        let all = format!(
            "{}{}",
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        );
        assert_eq!(status.code(), Some(2), "{args:?}: {all}");
        assert!(all.contains("not a regular file"), "{args:?}: {all}");
    }
}

#[test]
fn a_closed_pipe_ends_quietly() {
    let d = tempfile::tempdir().unwrap();
    let mut src = String::from("import numpy as np\n");
    for i in 0..3000 {
        src.push_str(&format!("a{i} = np.ones((2, 3)) @ np.ones((2, 3))\n"));
    }
    std::fs::write(d.path().join("many.py"), &src).unwrap();
    for (args, close_stderr) in [
        (vec!["shapes", "many.py"], false),
        (vec!["shapes", "--format", "json", "many.py"], false),
        (vec!["shapes", "--format", "sarif", "many.py"], false),
        (vec!["shapes", "--hints", "many.py"], true),
    ] {
        let mut child = Command::new(bin())
            .args(&args)
            .current_dir(d.path())
            .stdout(Stdio::piped())
            .stderr(if close_stderr {
                Stdio::piped()
            } else {
                Stdio::null()
            })
            .spawn()
            .unwrap();
        // Read one line, then close the pipe(s), as `| head -1` does.
        {
            use std::io::BufRead;
            let mut line = String::new();
            let mut r = std::io::BufReader::new(child.stdout.take().unwrap());
            r.read_line(&mut line).unwrap();
            assert!(!line.is_empty());
        }
        drop(child.stderr.take());
        let status = child.wait().unwrap();
        use std::os::unix::process::ExitStatusExt;
        // Either it finished writing before the pipe closed (exit 1: findings) or SIGPIPE ended
        // it; never a panic (exit 101).
        assert!(
            status.code() == Some(1) || status.signal() == Some(libc::SIGPIPE),
            "{args:?}: {status:?}"
        );
    }
}

#[test]
fn a_partly_distributed_project_is_reported_with_its_files() {
    let (d, p) = tape_project();
    let original_train = std::fs::read(p.join("train.py")).unwrap();
    let o = run(&["distribute", "--in-place", "."], &p, None);
    assert!(o.status.success());
    // As an interrupted old-style write left it: the helper module rewritten, the main not.
    std::fs::write(p.join("train.py"), &original_train).unwrap();
    let o = run(&["distribute", "--check", "."], &p, None);
    // --check: findings on stdout, the verdict on stderr.
    let err = format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(
        err.contains("DST204") && err.contains("models/base.py"),
        "{err}"
    );
    assert!(!err.contains("nothing to do"), "{err}");
    drop(d);
    // Control: the complete output is "already distributed", exit 0.
    let (_d, p) = tape_project();
    assert!(
        run(&["distribute", "--in-place", "."], &p, None)
            .status
            .success()
    );
    let o = run(&["distribute", "--check", "."], &p, None);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success() && out.contains("DST202"), "{out}");
}

#[test]
fn keras_3_on_another_backend_is_not_a_tensorflow_program() {
    let d = tempfile::tempdir().unwrap();
    let src = "import os\nos.environ[\"KERAS_BACKEND\"] = \"torch\"\nimport keras\n\
               model = keras.Sequential([keras.layers.Dense(1)])\n\
               model.compile(optimizer=\"adam\", loss=\"mse\")\n\
               model.fit([[1.0]], [[1.0]], epochs=1)\n";
    std::fs::write(d.path().join("train.py"), src).unwrap();
    let o = run(&["distribute", "--diff", "train.py"], d.path(), None);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(
        err.contains("train.py:2:1") && err.contains("DST200") && err.contains("`torch` backend"),
        "{err}"
    );
    // Control: the TensorFlow backend is distributed.
    std::fs::write(
        d.path().join("train.py"),
        src.replace("\"torch\"", "\"tensorflow\""),
    )
    .unwrap();
    let o = run(&["distribute", "--diff", "train.py"], d.path(), None);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

#[test]
fn choreo_check_with_stderr_closed_early_does_not_panic() {
    let fail_dir = repo().join("crates/ranklift_choreo/tests/fixtures/fail");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&fail_dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "py"))
        .collect();
    files.sort();
    let mut child = Command::new(bin())
        .args(["choreo", "check"])
        .args(&files)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stderr.take());
    let status = child.wait().unwrap();
    use std::os::unix::process::ExitStatusExt;
    assert!(
        status.code() == Some(1) || status.signal() == Some(libc::SIGPIPE),
        "{status:?}"
    );
}

#[test]
fn outputs_are_never_written_through_a_symlink_nor_over_a_foreign_file() {
    let d = tempfile::tempdir().unwrap();
    let chor = repo().join("examples/choreo/countdown_while.py");
    let out = d.path().join("out");
    std::fs::create_dir(&out).unwrap();
    let victim = d.path().join("victim.py");
    std::fs::write(&victim, "precious = 1\n").unwrap();
    // A link planted where the runtime goes, and a file of the user's where the module goes.
    std::os::unix::fs::symlink(&victim, out.join("pychoral_rt.py")).unwrap();
    let project = |force: bool| {
        let mut args = vec!["choreo", "project", chor.to_str().unwrap(), "-o", "out"];
        if force {
            args.push("--force");
        }
        run(&args, d.path(), None)
    };
    let o = project(false);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("symbolic link") && err.contains("--force"),
        "{err}"
    );
    assert_eq!(std::fs::read(&victim).unwrap(), b"precious = 1\n");
    // --force replaces the link itself; the file it pointed to is untouched.
    let o = project(true);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(std::fs::read(&victim).unwrap(), b"precious = 1\n");
    assert!(
        std::fs::symlink_metadata(out.join("pychoral_rt.py"))
            .unwrap()
            .is_file()
    );
    // Writing again over its own files needs no --force.
    let o = project(false);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    // A file ranklift did not write is not replaced silently.
    let module = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.to_string_lossy().ends_with("_chor.py"))
        .unwrap();
    std::fs::write(&module, "my own work\n").unwrap();
    let o = project(false);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("not written by ranklift"), "{err}");
    assert_eq!(std::fs::read(&module).unwrap(), b"my own work\n");

    // distribute -o FILE.py: a link at FILE is refused, and with --force replaced, not followed.
    let p = d.path().join("p");
    std::fs::create_dir(&p).unwrap();
    std::fs::copy(
        repo().join("examples/distribute/tape_mlp.py"),
        p.join("train.py"),
    )
    .unwrap();
    let target = d.path().join("earlier_hvd.py");
    std::fs::write(&target, "import horovod  # someone else's file\n").unwrap();
    std::os::unix::fs::symlink(&target, p.join("train_hvd.py")).unwrap();
    let o = run(&["distribute", "train.py", "-o", "train_hvd.py"], &p, None);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("symbolic link"), "{err}");
    let o = run(
        &["distribute", "train.py", "-o", "train_hvd.py", "--force"],
        &p,
        None,
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(
        std::fs::read(&target).unwrap(),
        b"import horovod  # someone else's file\n"
    );
    let meta = std::fs::symlink_metadata(p.join("train_hvd.py")).unwrap();
    assert!(meta.is_file(), "the link was replaced by the output");
}

/// Spawn ranklift and wait at most 20 s; its exit code and output.
fn run_bounded(args: &[&str], cwd: &Path) -> (Option<i32>, String) {
    let state = state_dir();
    common::run_limited_env(
        args,
        cwd,
        &[("XDG_STATE_HOME", state.as_path())],
        std::time::Duration::from_secs(20),
    )
}

#[test]
fn directory_walks_pass_special_files_without_blocking() {
    let d = tempfile::tempdir().unwrap();
    for name in ["a.py", "b.ipynb"] {
        let c = std::ffi::CString::new(d.path().join(name).to_str().unwrap()).unwrap();
        // SAFETY: a valid path.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
    }
    std::os::unix::fs::symlink("/dev/zero", d.path().join("c.ipynb")).unwrap();
    std::fs::copy(
        repo().join("examples/choreo/countdown_while.py"),
        d.path().join("chor.py"),
    )
    .unwrap();
    let (code, out) = run_bounded(&["choreo", "check", "."], d.path());
    assert_eq!(code, Some(0), "{out}");
    assert!(out.contains("chor.py: ok"), "{out}");
    let (code, out) = run_bounded(&["shapes", "."], d.path());
    assert!(code.is_some(), "{out}");
    assert!(!out.contains("panicked"), "{out}");
}

#[test]
fn a_nul_byte_in_a_notebook_cell_is_a_syntax_error_at_the_cell() {
    let d = tempfile::tempdir().unwrap();
    let nb = |cell: &str| {
        serde_json::json!({
            "nbformat": 4, "nbformat_minor": 5,
            "metadata": {"kernelspec": {"language": "python", "name": "python3"}},
            "cells": [
                {"cell_type": "code", "source": "import numpy as np\n", "metadata": {}, "outputs": [], "execution_count": null},
                {"cell_type": "code", "source": cell, "metadata": {}, "outputs": [], "execution_count": null},
            ]
        })
        .to_string()
    };
    std::fs::write(d.path().join("n.ipynb"), nb("x = 1\u{0}\n")).unwrap();
    let (code, out) = run_bounded(&["shapes", "n.ipynb"], d.path());
    assert!(
        out.contains("n.ipynb:cell 2:1:") && out.contains("RL001"),
        "{out}"
    );
    assert_ne!(code, Some(0), "{out}");
    // Control: without the NUL the notebook is clean.
    std::fs::write(d.path().join("n.ipynb"), nb("x = 1\n")).unwrap();
    let (code, out) = run_bounded(&["shapes", "n.ipynb"], d.path());
    assert_eq!(code, Some(0), "{out}");
}

#[test]
fn a_gitignored_directory_that_holds_a_rewritten_module_is_copied_not_linked() {
    // A script whose imported helper in a gitignored `lib/` saves a checkpoint: the rewrite
    // guards it, and the output must carry that rewrite (a link to `lib/` ran the original).
    let d = tempfile::tempdir().unwrap();
    let p = d.path().join("proj");
    copy_dir(
        &repo().join("examples/distribute/torch/project_argparse"),
        &p,
    );
    std::fs::create_dir(p.join("lib")).unwrap();
    std::fs::rename(p.join("utils.py"), p.join("lib/utils.py")).unwrap();
    std::fs::write(p.join("lib/__init__.py"), "").unwrap();
    std::fs::write(p.join("lib/big.bin"), vec![0u8; 17 << 20]).unwrap();
    let train = std::fs::read_to_string(p.join("train.py")).unwrap();
    std::fs::write(
        p.join("train.py"),
        train.replace("from utils import", "from lib.utils import"),
    )
    .unwrap();
    std::fs::write(p.join(".gitignore"), "lib/\n").unwrap();
    let out = d.path().join("out");
    let o = run(
        &["distribute", "train.py", "-o", out.to_str().unwrap()],
        &p,
        None,
    );
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    assert!(err.contains("rewrote 3 file(s)"), "{err}");
    let lib = std::fs::symlink_metadata(out.join("lib")).unwrap();
    assert!(
        lib.is_dir(),
        "out/lib must be a directory of the output, not a link"
    );
    let written = std::fs::read(out.join("lib/utils.py")).unwrap();
    assert_ne!(written, std::fs::read(p.join("lib/utils.py")).unwrap());
    assert!(String::from_utf8_lossy(&written).contains("RANK"));
    // Its other entries are decided one by one: the large ignored file is still linked.
    assert!(
        std::fs::symlink_metadata(out.join("lib/big.bin"))
            .unwrap()
            .file_type()
            .is_symlink()
    );
}

#[test]
fn an_output_file_is_replaced_only_when_ranklift_wrote_it_as_it_is() {
    let d = tempfile::tempdir().unwrap();
    let state = d.path().join("state");
    std::fs::copy(
        repo().join("examples/distribute/tape_mlp.py"),
        d.path().join("train.py"),
    )
    .unwrap();
    let go = |extra: &[&str]| {
        let mut args = vec![
            "distribute",
            "train.py",
            "-o",
            "out.py",
            "--target-tf",
            "2.16",
        ];
        args.extend_from_slice(extra);
        run_as(&args, d.path(), None, &state)
    };
    // A hand-written file that mentions horovod is still the user's.
    std::fs::write(d.path().join("out.py"), "# notes on horovod\n").unwrap();
    let o = go(&[]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("not an earlier ranklift output"));
    assert_eq!(
        std::fs::read_to_string(d.path().join("out.py")).unwrap(),
        "# notes on horovod\n"
    );
    std::fs::remove_file(d.path().join("out.py")).unwrap();
    // So is the user's own `ranklift_tf.py` next to it.
    std::fs::write(d.path().join("ranklift_tf.py"), "MINE = 1\n").unwrap();
    let o = go(&[]);
    assert_eq!(
        o.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert_eq!(
        std::fs::read_to_string(d.path().join("ranklift_tf.py")).unwrap(),
        "MINE = 1\n"
    );
    assert!(!d.path().join("out.py").exists(), "nothing is written");
    // --force replaces it; after that both files are ranklift's own: a rerun replaces them.
    assert!(go(&["--force"]).status.success());
    std::fs::write(
        d.path().join("train.py"),
        std::fs::read_to_string(d.path().join("train.py")).unwrap() + "\n# changed\n",
    )
    .unwrap();
    let o = go(&[]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    // An output the user edited since is theirs again.
    let edited = std::fs::read_to_string(d.path().join("out.py")).unwrap() + "# my edit\n";
    std::fs::write(d.path().join("out.py"), &edited).unwrap();
    std::fs::write(
        d.path().join("train.py"),
        std::fs::read_to_string(d.path().join("train.py")).unwrap() + "# again\n",
    )
    .unwrap();
    let o = go(&[]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        std::fs::read_to_string(d.path().join("out.py")).unwrap(),
        edited
    );
}
