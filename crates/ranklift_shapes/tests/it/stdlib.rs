//! Never panics, never hangs: `ranklift shapes` over every `.py` file of the machine's Python
//! standard library. Each file must finish within a generous budget (a hang detector, not a
//! performance test: the interpreter's fuel bound ends any analysis long before it), and end
//! with findings, nothing, or a located input error — never an internal error.
//!
//! Every file is an entry of one directory run (`check_dir`, what `ranklift shapes DIR` does:
//! the imported modules' bodies run once and each entry starts from them); every
//! `FRESH_EVERY`-th file is also checked alone (`check_file`, what `ranklift shapes FILE` does:
//! its imports analysed from scratch) — the whole library that way took ten minutes of the
//! default test run for little more than the sample finds.

use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};

use ranklift_shapes::check::{FileResult, INCOMPLETE, Options, check_dir, check_file};
use rayon::prelude::*;

/// The hang detector: no single file may take longer than this (debug build).
const BUDGET: Duration = Duration::from_secs(60);

/// One file in this many (in path order) is also checked alone.
const FRESH_EVERY: usize = 25;

fn stdlib_dir() -> Option<PathBuf> {
    let out = Command::new("python3")
        .args([
            "-c",
            "import sysconfig; print(sysconfig.get_paths()['stdlib'])",
        ])
        .output()
        .ok()?;
    let p = PathBuf::from(String::from_utf8(out.stdout).ok()?.trim());
    p.is_dir().then_some(p)
}

/// A file, how long it took, and (findings, stopped by fuel) or an internal error.
type Outcome = (PathBuf, Duration, Result<(usize, bool), String>);

fn outcome(r: &FileResult, took: Duration) -> Outcome {
    let result = match &r.fatal {
        Some(d) if d.code == "RL001" || d.code == "RL002" => Ok((0, false)),
        Some(d) => Err(format!("{}: {} {}", d.path, d.code, d.message)),
        None => Ok((
            r.findings.iter().filter(|d| d.code != INCOMPLETE).count(),
            r.incomplete,
        )),
    };
    (PathBuf::from(&r.path), took, result)
}

#[test]
fn every_stdlib_file_finishes_without_an_internal_error() {
    let Some(dir) = stdlib_dir() else {
        panic!("python3 is required for this test (it locates the standard library)");
    };
    let opts = Options {
        excludes: ranklift_python::files::Excludes::new(
            ranklift_python::files::DEFAULT_EXCLUDES.iter().copied(),
            ["site-packages"],
        )
        .unwrap(),
        ..Options::default()
    };
    let mut files = ranklift_shapes::check::collect_files(std::slice::from_ref(&dir));
    files.retain(|f| !f.components().any(|c| c.as_os_str() == "site-packages"));
    assert!(files.len() > 500, "found only {} files", files.len());
    // Every file as an entry of one run; each entry's own analysis time is its hang check.
    let shared = check_dir(&dir, &opts);
    assert!(
        shared.len() >= files.len(),
        "the directory run covered {} of {} files",
        shared.len(),
        files.len()
    );
    let mut results: Vec<Outcome> = shared.iter().map(|r| outcome(r, r.analysis_time)).collect();
    // A sample alone, its imports analysed from scratch.
    files.sort();
    let sample: Vec<PathBuf> = files.iter().step_by(FRESH_EVERY).cloned().collect();
    results.par_extend(sample.par_iter().map(|f| {
        let t = Instant::now();
        let r = check_file(f, &Options::default());
        outcome(&r, t.elapsed())
    }));
    let errors: Vec<&String> = results.iter().filter_map(|r| r.2.as_ref().err()).collect();
    let slow: Vec<String> = results
        .iter()
        .filter(|r| r.1 > BUDGET)
        .map(|r| format!("{} took {:?}", r.0.display(), r.1))
        .collect();
    let findings: usize = results
        .iter()
        .filter_map(|r| r.2.as_ref().ok())
        .map(|r| r.0)
        .sum();
    let incomplete = results
        .iter()
        .filter(|r| matches!(r.2, Ok((_, true))))
        .count();
    let slowest = results.iter().max_by_key(|r| r.1).unwrap();
    eprintln!(
        "{} files, {findings} findings, {incomplete} stopped by the fuel bound, slowest {} ({:?})",
        results.len(),
        slowest.0.display(),
        slowest.1
    );
    assert!(errors.is_empty(), "internal errors:\n{errors:#?}");
    assert!(slow.is_empty(), "over the {BUDGET:?} budget:\n{slow:#?}");
}
