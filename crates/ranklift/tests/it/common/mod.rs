//! Helpers shared by the binary's integration tests.
#![allow(dead_code)]

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Copy a directory tree (regular files and directories).
pub fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let t = to.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            copy_dir(&e.path(), &t);
        } else {
            std::fs::copy(e.path(), &t).unwrap();
        }
    }
}

/// Run the ranklift binary with `env` set, killing it past `limit` (a panic names the command:
/// it blocked or hung); (exit code, stdout + stderr).
pub fn run_limited_env(
    args: &[&str],
    cwd: &Path,
    env: &[(&str, &Path)],
    limit: Duration,
) -> (Option<i32>, String) {
    run_limited_bin(
        Path::new(env!("CARGO_BIN_EXE_ranklift")),
        args,
        cwd,
        env,
        limit,
    )
}

/// [`run_limited_env`] with another binary (an older build, to show a test finds what it fixed).
pub fn run_limited_bin(
    bin: &Path,
    args: &[&str],
    cwd: &Path,
    env: &[(&str, &Path)],
    limit: Duration,
) -> (Option<i32>, String) {
    let mut child = Command::new(bin)
        .args(args)
        .current_dir(cwd)
        .envs(env.iter().copied())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let t0 = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if t0.elapsed() > limit {
            let _ = child.kill();
            panic!("{args:?} in {} ran past {limit:?}", cwd.display());
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    let o = child.wait_with_output().unwrap();
    (
        o.status.code(),
        format!(
            "{}{}",
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        ),
    )
}

/// `examples/distribute/` of the repository.
pub fn distribute_examples() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/distribute")
}

/// A fresh, empty scratch directory for one test (`prefix` names the test file).
pub fn scratch(prefix: &str, name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("ranklift-{prefix}-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Run a command to its end: (exit code, stdout, stderr).
pub fn output(cmd: &mut Command) -> (i32, String, String) {
    let o = cmd.output().unwrap();
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// The output with the summary line's coverage cut (`All checks passed (92% of tensor
/// expressions understood).` -> `All checks passed.`): what the tests below compare; the
/// coverage has its own tests.
#[allow(dead_code)]
pub fn plain_summary(out: &str) -> String {
    out.split_inclusive('\n')
        .map(|l| {
            let cut = [
                "% of tensor expressions understood).",
                " (no tensor expression seen).",
                " (no expression analysed).",
            ]
            .iter()
            .any(|t| l.trim_end().ends_with(t));
            match l.rfind(" (") {
                Some(i)
                    if cut && (l.starts_with("All checks passed") || l.starts_with("Found ")) =>
                {
                    format!("{}.{}", &l[..i], if l.ends_with('\n') { "\n" } else { "" })
                }
                _ => l.to_owned(),
            }
        })
        .collect()
}
