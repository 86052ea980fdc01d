//! Mutation fuzzing of the whole binary: every example of every command, mutated at
//! the byte and line level (deletions, duplications, swaps, truncation, stray bytes including
//! NUL and invalid UTF-8, a hostile coding cookie), run through `distribute`, `shapes` and
//! `choreo check`. Each run must end within a time limit with exit 0, 1 or 2, never a panic, and
//! every error it prints must be located (`path:line:col`).
//!
//! Deterministic (a fixed-seed generator) and bounded: `RANKLIFT_FUZZ_CASES` mutants per example
//! and command (default 12), and a total budget of `RANKLIFT_FUZZ_SECS` seconds (default 90).

use crate::common;

use common::copy_dir;
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
    common::run_limited_env(args, cwd, &[], limit)
}

/// `RANKLIFT_FUZZ_CASES` (mutants per example) and `RANKLIFT_FUZZ_SECS` (the total budget), or
/// the defaults given.
fn fuzz_bounds(cases: usize, secs: u64) -> (usize, Duration) {
    let var = |name: &str| std::env::var(name).ok().and_then(|v| v.parse().ok());
    (
        var("RANKLIFT_FUZZ_CASES").map_or(cases, |v: u64| v as usize),
        Duration::from_secs(var("RANKLIFT_FUZZ_SECS").unwrap_or(secs)),
    )
}

#[test]
fn mutants_never_panic_hang_or_give_unlocated_errors() {
    let (cases, budget) = fuzz_bounds(12, 90);
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
                // An edit that made the rewritten file unparsable (the guard caught it): a bug
                // of a rule by definition, whatever the input.
                if out.contains("DST900") {
                    fail("internal error: a rule's edit did not parse");
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

/// Mutated journals: a real journal of a killed in-place rewrite, mutated, in a
/// project next to a file that must never change. Every run ends (0-2, no panic) and the file
/// outside the project is untouched, whatever the journal says.
#[test]
fn mutated_journals_never_panic_or_reach_outside_the_project() {
    let state = tempfile::tempdir().unwrap();
    let example =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/distribute/project_tape");
    let make = |kill: usize| -> (tempfile::TempDir, Option<Vec<u8>>) {
        let d = tempfile::tempdir().unwrap();
        copy_dir(&example, &d.path().join("proj"));
        std::fs::write(d.path().join("victim.txt"), "precious\n").unwrap();
        let o = Command::new(bin())
            .args(["distribute", "--in-place", "."])
            .current_dir(d.path().join("proj"))
            .env("XDG_STATE_HOME", state.path())
            .env("RANKLIFT_TEST_FAULT", format!("kill:{kill}"))
            .output()
            .unwrap();
        assert!(o.status.code().is_none(), "killed");
        let j = std::fs::read(d.path().join("proj/.ranklift-journal")).ok();
        (d, j)
    };
    let (_d, journal) = make(6);
    let journal = journal.expect("a journal");
    let mut rng = Rng(0x5EED_1234_ABCD_0024);
    for case in 0..40 {
        let (d, _) = make(6);
        let proj = d.path().join("proj");
        let mut m = mutate(&journal, &mut rng);
        if case % 4 == 0 {
            // Paths pointing out of the project, in place of the real ones.
            m = String::from_utf8_lossy(&m)
                .replace("\"train.py\"", "\"../victim.txt\"")
                .into_bytes();
        }
        std::fs::write(proj.join(".ranklift-journal"), &m).unwrap();
        for args in [
            ["distribute", "--check", "."],
            ["distribute", "-o", "../out"],
        ] {
            let mut c = Command::new(bin());
            c.args(args)
                .current_dir(&proj)
                .env("XDG_STATE_HOME", state.path())
                .env_remove("RANKLIFT_TEST_FAULT");
            let o = c.output().unwrap();
            let out = String::from_utf8_lossy(&o.stderr);
            assert!(
                matches!(o.status.code(), Some(0..=2)),
                "case {case} {args:?}: {out}"
            );
            assert!(!out.contains("panicked"), "case {case}: {out}");
            assert_eq!(
                std::fs::read(d.path().join("victim.txt")).unwrap(),
                b"precious\n",
                "case {case} {args:?}: {out}"
            );
        }
    }
}

/// Mutated configuration files: every run ends with 0-2, never a panic, and a configuration
/// error names the file with a line and a column.
#[test]
fn mutated_configurations_never_panic() {
    let d = tempfile::tempdir().unwrap();
    std::fs::write(
        d.path().join("m.py"),
        "import numpy as np\nx = np.zeros((2, 3)) @ np.ones((4, 2))\n",
    )
    .unwrap();
    let base = "[shapes]\nnumpy-version = 1\npossible = true\nfuel = 1000\nignore = [\"W5\"]\n\
                per-file-ignores = { \"{a,b}/**/*.py\" = [\"E0\"], \"m.py\" = [\"W504\"] }\n\
                [distribute]\nmain = \"m.py\"\ntarget-tf = \"2.13\"\n";
    let mut rng = Rng(0x5EED_1234_ABCD_0025);
    for case in 0..60 {
        let m = mutate(base.as_bytes(), &mut rng);
        std::fs::write(d.path().join("ranklift.toml"), &m).unwrap();
        let (code, out) = run_limited(&["shapes", "m.py"], d.path(), Duration::from_secs(30));
        assert!(matches!(code, Some(0..=2)), "case {case}: {out}");
        assert!(!out.contains("panicked"), "case {case}: {out}");
        if code == Some(2) {
            assert!(out.contains("ranklift.toml:"), "case {case}: {out}");
        }
    }
}

/// Mutated language-server sessions: a real session's bytes (framing, JSON, positions)
/// mutated; the server answers or ends, never panics or aborts.
#[test]
fn mutated_server_sessions_never_panic() {
    let frame = |v: serde_json::Value| {
        let body = v.to_string();
        format!("Content-Length: {}\r\n\r\n{body}", body.len())
    };
    let uri = "file:///tmp/ranklift-fuzz/m.py";
    let session = [
        frame(serde_json::json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}})),
        frame(serde_json::json!({"jsonrpc": "2.0", "method": "initialized", "params": {}})),
        frame(serde_json::json!({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {"uri": uri, "languageId": "python", "version": 1, "text": "import numpy as np\nx = np.zeros((2, 3)) @ np.ones((4, 2))\n"}}})),
        frame(serde_json::json!({"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {"textDocument": {"uri": uri, "version": 2}, "contentChanges": [{"range": {"start": {"line": 1, "character": 30}, "end": {"line": 1, "character": 36}}, "text": "(3, 2)"}]}})),
        frame(serde_json::json!({"jsonrpc": "2.0", "id": 2, "method": "textDocument/codeAction", "params": {"textDocument": {"uri": uri}, "range": {"start": {"line": 0, "character": 0}, "end": {"line": 9, "character": 0}}, "context": {"diagnostics": []}}})),
        frame(serde_json::json!({"jsonrpc": "2.0", "id": 3, "method": "shutdown"})),
        frame(serde_json::json!({"jsonrpc": "2.0", "method": "exit"})),
    ]
    .join("");
    let mut rng = Rng(0x5EED_1234_ABCD_0026);
    for case in 0..40 {
        let m = mutate(session.as_bytes(), &mut rng);
        let mut child = Command::new(bin())
            .arg("server")
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        {
            use std::io::Write;
            let mut stdin = child.stdin.take().unwrap();
            let _ = stdin.write_all(&m);
        }
        let t0 = Instant::now();
        while child.try_wait().unwrap().is_none() {
            if t0.elapsed() > Duration::from_secs(30) {
                let _ = child.kill();
                panic!("case {case}: the server did not end after its input did");
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        let o = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(
            matches!(o.status.code(), Some(0 | 1)),
            "case {case}: {:?} {err}",
            o.status
        );
        assert!(!err.contains("panicked"), "case {case}: {err}");
    }
}

/// A line holding one whole simple statement: brackets balanced, no string spanning lines, no
/// continuation, not a block header or a clause of one.
fn simple_statement(line: &str) -> bool {
    let t = line.trim_start();
    if t.is_empty()
        || t.starts_with('#')
        || t.starts_with('@')
        || t.ends_with(':')
        || t.ends_with('\\')
        || t.contains("\"\"\"")
        || t.contains("'''")
    {
        return false;
    }
    let first = t
        .split(|c: char| !c.is_alphanumeric() && c != '_')
        .next()
        .unwrap_or("");
    if matches!(
        first,
        "if" | "elif"
            | "else"
            | "for"
            | "while"
            | "with"
            | "try"
            | "except"
            | "finally"
            | "def"
            | "class"
            | "async"
            | "match"
            | "case"
    ) {
        return false;
    }
    let mut depth = 0i32;
    let mut quote: Option<char> = None;
    for c in t.chars() {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => {}
            None => match c {
                '\'' | '"' => quote = Some(c),
                '(' | '[' | '{' => depth += 1,
                ')' | ']' | '}' => depth -= 1,
                '#' => break,
                _ => {}
            },
        }
    }
    depth == 0 && quote.is_none()
}

fn indent_of(line: &str) -> usize {
    line.len() - line.trim_start_matches(' ').len()
}

/// A change of layout that keeps the program valid Python and its meaning close: a statement
/// wrapped in a block (`if True:`, a one-pass loop, a `try`), a block's only statement moved onto
/// its header's line, two statements joined by `;`, a comment after a header, an assignment
/// continued with a backslash, a print (alone or in a loop) after a statement. Rules must place
/// their edits in all of these layouts.
fn restructure(src: &str, rng: &mut Rng) -> String {
    let mut lines: Vec<String> = src.lines().map(str::to_owned).collect();
    let n = lines.len();
    if n < 2 {
        return src.to_owned();
    }
    for _ in 0..24 {
        let i = rng.below(n - 1);
        let ind = indent_of(&lines[i]);
        let pad = " ".repeat(ind);
        match rng.below(8) {
            0 if simple_statement(&lines[i]) => {
                let body = lines[i].trim_start().to_owned();
                let wrapped = match rng.below(3) {
                    0 => format!("{pad}if True:\n{pad}    {body}"),
                    1 => format!("{pad}for _pass in range(1):\n{pad}    {body}"),
                    _ => format!(
                        "{pad}try:\n{pad}    {body}\n{pad}except ZeroDivisionError:\n{pad}    raise"
                    ),
                };
                lines[i] = wrapped;
            }
            1 if lines[i].trim_end().ends_with(':')
                && !lines[i].trim_start().starts_with(['@', '#'])
                && simple_statement(&lines[i + 1])
                && indent_of(&lines[i + 1]) > ind
                && lines
                    .get(i + 2)
                    .is_none_or(|l| l.trim().is_empty() || indent_of(l) <= ind) =>
            {
                let body = lines[i + 1].trim_start().to_owned();
                lines[i] = format!("{} {body}", lines[i].trim_end());
                lines.remove(i + 1);
            }
            2 if simple_statement(&lines[i])
                && simple_statement(&lines[i + 1])
                && indent_of(&lines[i + 1]) == ind
                && !lines[i].contains('#') =>
            {
                let next = lines.remove(i + 1);
                lines[i] = format!("{}; {}", lines[i].trim_end(), next.trim_start());
            }
            3 if lines[i].trim_end().ends_with(':') && !lines[i].contains('#') => {
                lines[i] = format!("{}  # a comment after the header", lines[i].trim_end());
            }
            4 if simple_statement(&lines[i]) && !lines[i].contains('#') => {
                if let Some(eq) = lines[i].find(" = ") {
                    let (lhs, rhs) = lines[i].split_at(eq);
                    lines[i] = format!("{lhs} = \\\n{pad}    {}", &rhs[3..]);
                }
            }
            5 if simple_statement(&lines[i]) => {
                lines.insert(i, format!("{pad}# an inserted comment line"));
            }
            // Output where rules guard it for rank 0: a print after a statement, a loop that
            // prints (on one line or two), as logging code does anywhere in a program.
            6 if simple_statement(&lines[i]) => {
                lines.insert(i + 1, format!("{pad}print(\"after line {i}\")"));
            }
            7 if simple_statement(&lines[i]) => {
                let printing = match rng.below(2) {
                    0 => format!("{pad}for _i in range(2): print(_i)"),
                    _ => format!("{pad}for _i in range(2):\n{pad}    print(_i, flush=True)"),
                };
                lines.insert(i + 1, printing);
            }
            _ => continue,
        }
        break;
    }
    let mut out = lines.join("\n");
    out.push('\n');
    out
}

/// Edit-level fuzzing: every `distribute` example, its layout changed in ways that keep it valid
/// Python (`restructure`, one to three changes at a time), rewritten for every target. A rewrite
/// that does not parse (DST900, caught by the re-parse guard) is a rule's bug whatever the
/// input; so is a panic. Deterministic; `RANKLIFT_FUZZ_CASES` mutants per example (default 3)
/// within `RANKLIFT_FUZZ_SECS` (default 30). `RANKLIFT_FUZZ_BIN` runs another binary instead of
/// this build (its negative control: a build from before a DST900 fix must fail it).
#[test]
fn rules_edit_restructured_programs_into_valid_python() {
    let this =
        std::env::var_os("RANKLIFT_FUZZ_BIN").map_or_else(|| PathBuf::from(bin()), PathBuf::from);
    let (cases, budget) = fuzz_bounds(3, 30);
    let d = tempfile::tempdir().unwrap();
    let mut rng = Rng(0x5EED_0000_ED17_0002);
    let start = Instant::now();
    let (mut runs, mut rewritten, mut invalid) = (0, 0, 0);
    let groups: [(&str, &[&str]); 3] = [
        ("distribute", &["distribute", "--diff"]),
        (
            "distribute",
            &["distribute", "--diff", "--target-tf", "2.16"],
        ),
        ("distribute/torch", &["distribute", "--diff"]),
    ];
    // Every (command, example) pair, in a fixed shuffled order: a short budget still reaches
    // both targets.
    let mut pairs: Vec<(&[&str], PathBuf)> = groups
        .iter()
        .flat_map(|(dir, cmd)| examples(dir).into_iter().map(move |ex| (*cmd, ex)))
        .collect();
    for i in (1..pairs.len()).rev() {
        pairs.swap(i, rng.below(i + 1));
    }
    'outer: for _ in 0..cases {
        for (cmd, ex) in &pairs {
            let src = std::fs::read_to_string(ex).unwrap();
            if start.elapsed() > budget {
                break 'outer;
            }
            let mut m = src.clone();
            for _ in 0..=rng.below(3) {
                m = restructure(&m, &mut rng);
            }
            if ranklift_python::parse::parses(&m).is_err() {
                invalid += 1;
                continue;
            }
            std::fs::write(d.path().join("m.py"), &m).unwrap();
            let mut args = cmd.to_vec();
            args.push("m.py");
            let (code, out) =
                common::run_limited_bin(&this, &args, d.path(), &[], Duration::from_secs(30));
            runs += 1;
            rewritten += usize::from(code == Some(0));
            if !matches!(code, Some(0..=2)) || out.contains("panicked") || out.contains("DST900") {
                // Kept outside the test's directory, which the panic removes.
                let kept = std::env::temp_dir().join("ranklift-fuzz-kept");
                std::fs::create_dir_all(&kept).unwrap();
                let keep = kept.join(format!("restructured-{runs}.py"));
                std::fs::write(&keep, &m).unwrap();
                panic!(
                    "{args:?} on a restructured {} (kept at {}): exit {code:?}\n{out}",
                    ex.display(),
                    keep.display()
                );
            }
        }
    }
    // Most restructured programs must still be rewritten, or the fuzz exercises no rule.
    assert!(
        runs >= 40 && rewritten * 2 >= runs,
        "{rewritten} of {runs} rewritten"
    );
    eprintln!(
        "{runs} restructured programs ({rewritten} rewritten, {invalid} layouts Python rejects skipped) in {:.1} s",
        start.elapsed().as_secs_f64()
    );
}
