//! Never panics: `ranklift distribute --diff` over every `.py` file of the machine's Python
//! standard library. Each file must end in one of the documented outcomes — rewritten (and then
//! the diff applies to a file that parses), "cannot distribute" (exit 1: not a TensorFlow training
//! program) or an input error (exit 2: e.g. the deliberately broken files in lib2to3's tests) —
//! never a crash (exit 101) and never a hang (each run is bounded by a timeout).

use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

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

fn py_files(dir: &std::path::Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    for e in rd.flatten() {
        let p = e.path();
        if p.is_dir() && !p.ends_with("site-packages") {
            py_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "py") {
            out.push(p);
        }
    }
}

#[test]
fn every_stdlib_file_gives_a_documented_outcome() {
    let Some(dir) = stdlib_dir() else {
        panic!("python3 is required for this test (it locates the standard library)");
    };
    let mut files = Vec::new();
    py_files(&dir, &mut files);
    files.sort();
    assert!(
        files.len() > 500,
        "found only {} files under {}",
        files.len(),
        dir.display()
    );
    let (tx, rx) = std::sync::mpsc::channel();
    let chunks: Vec<Vec<PathBuf>> = {
        let n = std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(2)
            .max(2);
        let mut c = vec![Vec::new(); n];
        for (i, f) in files.iter().enumerate() {
            c[i % n].push(f.clone());
        }
        c
    };
    let handles: Vec<_> = chunks
        .into_iter()
        .map(|chunk| {
            let tx = tx.clone();
            std::thread::spawn(move || {
                for f in chunk {
                    let start = Instant::now();
                    let mut child = Command::new(env!("CARGO_BIN_EXE_ranklift"))
                        .args(["distribute", "--diff"])
                        .arg(&f)
                        .stdout(Stdio::null())
                        .stderr(Stdio::piped())
                        .spawn()
                        .unwrap();
                    let status = loop {
                        if let Some(s) = child.try_wait().unwrap() {
                            break Some(s);
                        }
                        if start.elapsed() > Duration::from_secs(30) {
                            let _ = child.kill();
                            break None;
                        }
                        std::thread::sleep(Duration::from_millis(2));
                    };
                    let mut err = String::new();
                    if let Some(mut e) = child.stderr.take() {
                        use std::io::Read;
                        let _ = e.read_to_string(&mut err);
                    }
                    tx.send((f, status.map(|s| s.code()), err)).unwrap();
                }
            })
        })
        .collect();
    drop(tx);
    let mut counts = [0usize; 3];
    let mut bad = Vec::new();
    for (f, code, err) in rx {
        match code {
            Some(Some(c @ 0..=2)) => {
                counts[c as usize] += 1;
                if c == 2 && !(err.contains(": RL001 ") || err.contains(": RL002 ")) {
                    bad.push(format!(
                        "{}: exit 2 without a located RL001/RL002 error: {err}",
                        f.display()
                    ));
                }
            }
            Some(other) => bad.push(format!("{}: exit {other:?}: {err}", f.display())),
            None => bad.push(format!("{}: did not finish within 30 s", f.display())),
        }
    }
    for h in handles {
        h.join().unwrap();
    }
    eprintln!(
        "stdlib: {} files: {} rewritten, {} not applicable, {} input errors",
        files.len(),
        counts[0],
        counts[1],
        counts[2]
    );
    assert!(
        bad.is_empty(),
        "{} failures:\n{}",
        bad.len(),
        bad.join("\n")
    );
}
