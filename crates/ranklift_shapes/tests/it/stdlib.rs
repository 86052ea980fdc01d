//! Never panics, never hangs: `ranklift shapes` over every `.py` file of the machine's Python
//! standard library. Each file must finish within a generous budget (a hang detector, not a
//! performance test: the interpreter's fuel bound ends any analysis long before it), and end
//! with findings, nothing, or a located input error — never an internal error.

use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};

use ranklift_shapes::check::{INCOMPLETE, Options, check_file};
use rayon::prelude::*;

/// The hang detector: no single file may take longer than this (debug build).
const BUDGET: Duration = Duration::from_secs(60);

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

#[test]
fn every_stdlib_file_finishes_without_an_internal_error() {
    let Some(dir) = stdlib_dir() else {
        panic!("python3 is required for this test (it locates the standard library)");
    };
    let mut files = ranklift_shapes::check::collect_files(std::slice::from_ref(&dir));
    files.retain(|f| !f.components().any(|c| c.as_os_str() == "site-packages"));
    assert!(files.len() > 500, "found only {} files", files.len());
    let results: Vec<Outcome> = files
        .par_iter()
        .map(|f| {
            let t = Instant::now();
            let r = check_file(f, &Options::default());
            let outcome = match &r.fatal {
                Some(d) if d.code == "RL001" || d.code == "RL002" => Ok((0, false)),
                Some(d) => Err(format!("{}: {} {}", d.path, d.code, d.message)),
                None => Ok((
                    r.findings.iter().filter(|d| d.code != INCOMPLETE).count(),
                    r.incomplete,
                )),
            };
            (f.clone(), t.elapsed(), outcome)
        })
        .collect();
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
