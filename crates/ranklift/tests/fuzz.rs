//! Mutation fuzzing of the whole binary (issue 14): every example of every command, mutated at
//! the byte and line level (deletions, duplications, swaps, truncation, stray bytes including
//! NUL and invalid UTF-8, a hostile coding cookie), run through `distribute`, `shapes` and
//! `choreo check`. Each run must end within a time limit with exit 0, 1 or 2, never a panic, and
//! every error it prints must be located (`path:line:col`).
//!
//! Deterministic (a fixed-seed generator) and bounded: `RANKLIFT_FUZZ_CASES` mutants per example
//! and command (default 12), and a total budget of `RANKLIFT_FUZZ_SECS` seconds (default 90).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_ranklift")
}

/// xorshift64*: deterministic and dependency-free.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

fn mutate(src: &[u8], rng: &mut Rng) -> Vec<u8> {
    let mut lines: Vec<Vec<u8>> = src.split(|&b| b == b'\n').map(<[u8]>::to_vec).collect();
    let n = lines.len();
    match rng.below(9) {
        0 => {
            lines.remove(rng.below(n));
        }
        1 => {
            let i = rng.below(n);
            let l = lines[i].clone();
            lines.insert(i, l);
        }
        2 => {
            let (a, b) = (rng.below(n), rng.below(n));
            lines.swap(a, b);
        }
        3 => {
            let cut = rng.below(src.len());
            return src[..cut].to_vec();
        }
        4 => {
            let i = rng.below(n);
            let at = rng.below(lines[i].len() + 1);
            let stray = [b'\0', 0xFF, b'(', b'"', b'\t', b':', 0xC3][rng.below(7)];
            lines[i].insert(at, stray);
        }
        5 => {
            // Re-indent a line by a random amount.
            let i = rng.below(n);
            let pad = vec![b' '; rng.below(9)];
            let trimmed: Vec<u8> = lines[i]
                .iter()
                .copied()
                .skip_while(|&c| c == b' ')
                .collect();
            lines[i] = [pad, trimmed].concat();
        }
        6 => {
            let cookie = [
                "# coding: euc-jp",
                "# coding: bogus",
                "# coding: latin-1",
                "\u{feff}# coding: cp1252",
            ][rng.below(4)];
            lines.insert(0, cookie.as_bytes().to_vec());
        }
        7 => {
            // Keep only a random window of lines.
            let a = rng.below(n);
            let b = a + rng.below(n - a + 1);
            lines = lines[a..b].to_vec();
        }
        _ => {
            // Replace an identifier-ish byte run with another line's start.
            let (i, j) = (rng.below(n), rng.below(n));
            let take = lines[j]
                .iter()
                .take(rng.below(12))
                .copied()
                .collect::<Vec<_>>();
            let at = rng.below(lines[i].len() + 1);
            lines[i].splice(at..at, take);
        }
    }
    lines.join(&b'\n')
}

fn examples(dir: &str) -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples")
        .join(dir);
    let mut v: Vec<PathBuf> = std::fs::read_dir(&root)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "py"))
        .collect();
    v.sort();
    v
}

/// Run with a time limit; (exit code, stdout + stderr).
fn run_limited(args: &[&str], cwd: &Path, limit: Duration) -> (Option<i32>, String) {
    let mut child = Command::new(bin())
        .args(args)
        .current_dir(cwd)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let t0 = Instant::now();
    loop {
        if child.try_wait().unwrap().is_some() {
            break;
        }
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

#[test]
fn mutants_never_panic_hang_or_give_unlocated_errors() {
    let cases: usize = std::env::var("RANKLIFT_FUZZ_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(12);
    let budget = Duration::from_secs(
        std::env::var("RANKLIFT_FUZZ_SECS")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(90),
    );
    let d = tempfile::tempdir().unwrap();
    let mut rng = Rng(0x5EED_1234_ABCD_0001);
    let start = Instant::now();
    let mut runs = 0;
    let groups: [(&str, &[&str]); 3] = [
        ("distribute", &["distribute", "--diff"]),
        ("shapes", &["shapes"]),
        ("choreo", &["choreo", "check"]),
    ];
    'outer: for (dir, cmd) in groups {
        for ex in examples(dir) {
            let src = std::fs::read(&ex).unwrap();
            for _ in 0..cases {
                if start.elapsed() > budget {
                    break 'outer;
                }
                let m = mutate(&src, &mut rng);
                std::fs::write(d.path().join("m.py"), &m).unwrap();
                let mut args = cmd.to_vec();
                args.push("m.py");
                let (code, out) = run_limited(&args, d.path(), Duration::from_secs(30));
                runs += 1;
                let keep = d.path().join(format!("failing-{runs}.py"));
                let fail = |why: &str| {
                    std::fs::write(&keep, &m).unwrap();
                    panic!(
                        "{why}: {args:?} on a mutant of {} (kept at {})\n{out}",
                        ex.display(),
                        keep.display()
                    );
                };
                if !matches!(code, Some(0..=2)) {
                    fail(&format!("exit {code:?}"));
                }
                if out.contains("panicked") || out.contains("RUST_BACKTRACE") {
                    fail("panic");
                }
                if code == Some(2) {
                    // A fatal error names the file with a line and a column.
                    let located = out.lines().any(|l| {
                        let l = l.trim_start_matches([' ', '-', '>']);
                        l.starts_with("m.py:")
                            && l.split(':')
                                .nth(2)
                                .is_some_and(|c| c.trim().parse::<u32>().is_ok())
                    });
                    if !located {
                        fail("unlocated fatal error");
                    }
                }
            }
        }
    }
    assert!(runs >= 30, "only {runs} mutants ran within the budget");
    eprintln!("{runs} mutants in {:.1} s", start.elapsed().as_secs_f64());
}
