//! `ranklift choreo` end to end: every example runs (threads and TCP) and prints exactly the
//! expected per-role lines; our own examples also agree with their role-erased reference run;
//! must-fail programs give the listed code at the listed line; DistAuth's projection is golden;
//! a failed or killed peer makes the others fail (PeerClosed / timeout) instead of hanging.
//!
//! Needs `python3` (3.10 or newer) on PATH, as the generated code does.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn fixtures() -> PathBuf {
    root().join("crates/ranklift_choreo/tests/fixtures")
}

fn ranklift() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_ranklift"));
    c.env("PYCHORAL_TIMEOUT", "30").env_remove("PYCHORAL_TRACE");
    c
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// What `choreo check` printed: diagnostics and the summary on stdout, progress on stderr.
fn both(o: &std::process::Output) -> String {
    format!("{}{}", text(&o.stdout), text(&o.stderr))
}

/// A path as ranklift prints it: relative to the current directory when under it, else
/// absolute (`..` resolved).
fn shown(p: &Path) -> String {
    let abs = std::path::absolute(p).unwrap();
    let mut norm = PathBuf::new();
    for c in abs.components() {
        match c {
            std::path::Component::ParentDir => {
                norm.pop();
            }
            std::path::Component::CurDir => {}
            c => norm.push(c),
        }
    }
    let cwd = std::env::current_dir().unwrap();
    norm.strip_prefix(&cwd)
        .map(Path::to_path_buf)
        .unwrap_or(norm)
        .display()
        .to_string()
}

/// `n` distinct free loopback ports, for tests that start role processes by hand the way a
/// deployment does (all bound at once, so they differ; released just before the roles bind them).
fn free_ports(n: usize) -> Vec<u16> {
    let held: Vec<std::net::TcpListener> = (0..n)
        .map(|_| std::net::TcpListener::bind("127.0.0.1:0").unwrap())
        .collect();
    held.iter()
        .map(|l| l.local_addr().unwrap().port())
        .collect()
}

fn tempdir(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!(
        "ranklift-choreo-test-{tag}-{}-{:?}",
        std::process::id(),
        std::thread::current().id()
    ));
    let _ = std::fs::remove_dir_all(&d);
    d
}

/// `[Role] line` output, split per role (roles with no lines are absent).
fn per_role(stdout: &str) -> BTreeMap<String, Vec<String>> {
    let mut m: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for l in stdout.lines() {
        let (role, rest) = l
            .strip_prefix('[')
            .and_then(|r| r.split_once("] "))
            .unwrap_or_else(|| panic!("line without a role prefix: {l:?}"));
        m.entry(role.to_owned()).or_default().push(rest.to_owned());
    }
    m
}

fn expected_roles(v: &serde_json::Value) -> BTreeMap<String, Vec<String>> {
    let mut m = BTreeMap::new();
    for (role, lines) in v["roles"].as_object().expect("roles") {
        let lines: Vec<String> = lines
            .as_array()
            .expect("lines")
            .iter()
            .map(|l| l.as_str().expect("str").to_owned())
            .collect();
        if !lines.is_empty() {
            m.insert(role.clone(), lines);
        }
    }
    m
}

/// `ranklift choreo project FILE -o DIR FLAGS...`, which must succeed.
fn project(file: &Path, dir: &Path, flags: &[&str]) {
    let st = ranklift()
        .args(["choreo", "project"])
        .args(flags)
        .arg(file)
        .arg("-o")
        .arg(dir)
        .output()
        .unwrap();
    assert!(st.status.success(), "{}", text(&st.stderr));
}

fn run(file: &Path, entry: &str, tcp: bool) -> Output {
    let mut c = ranklift();
    c.args(["choreo", "run"]).arg(file).args(["--entry", entry]);
    if tcp {
        c.arg("--tcp");
    }
    c.output().expect("run ranklift")
}

fn check_runs(dir: &Path, expected: &serde_json::Value) -> usize {
    let mut n = 0;
    for (name, case) in expected.as_object().expect("object") {
        if name.starts_with('_') {
            continue;
        }
        let file = dir.join(format!("{name}.py"));
        let entry = case["entry"].as_str().expect("entry");
        let want = expected_roles(case);
        for tcp in [false, true] {
            let out = run(&file, entry, tcp);
            assert!(
                out.status.success(),
                "{name} (tcp={tcp}) failed:\n{}",
                text(&out.stderr)
            );
            assert_eq!(per_role(&text(&out.stdout)), want, "{name} (tcp={tcp})");
            n += 1;
        }
    }
    n
}

fn load(p: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(p).expect("read json")).expect("json")
}

#[test]
fn shared_examples_print_the_expected_lines_with_threads_and_tcp() {
    let dir = fixtures().join("shared");
    let expected = load(&dir.join("expected.json"));
    assert_eq!(check_runs(&dir, &expected["pass"]), 12);
}

#[test]
fn own_examples_print_the_expected_lines_and_agree_with_the_reference_run() {
    let dir = root().join("examples/choreo");
    assert!(agrees_with_reference_run(&dir) >= 11);
}

#[test]
fn construct_fixtures_print_the_expected_lines_and_agree_with_the_reference_run() {
    assert!(agrees_with_reference_run(&fixtures().join("pass")) >= 6);
}

/// Run every case of `dir/expected.json` (threads and TCP) and compare it with the role-erased
/// reference run; the number of cases.
fn agrees_with_reference_run(dir: &Path) -> usize {
    let dir = dir.to_path_buf();
    let expected = load(&dir.join("expected.json"));
    let cases = check_runs(&dir, &expected) / 2;
    // The role-erased program, run centrally, prints the same lines; each role's lines appear
    // in the same order as in the central run (a role runs its part in program order).
    for (name, case) in expected.as_object().expect("object") {
        if name.starts_with('_') {
            continue;
        }
        let out_dir = tempdir(&format!("erased-{name}"));
        project(
            &dir.join(format!("{name}.py")),
            &out_dir,
            &["--emit-erased"],
        );
        let reference = Command::new("python3")
            .arg(format!("{name}_erased.py"))
            .current_dir(&out_dir)
            .output()
            .expect("python3");
        assert!(
            reference.status.success(),
            "{name}: {}",
            text(&reference.stderr)
        );
        let central: Vec<String> = text(&reference.stdout).lines().map(str::to_owned).collect();
        // The choreography itself, imported with the `pychoral` package, runs the same way.
        let direct = Command::new("python3")
            .args([
                "-c",
                &format!(
                    "import {name} as m; m.{}.main()",
                    case["entry"].as_str().unwrap()
                ),
            ])
            .env(
                "PYTHONPATH",
                std::env::join_paths([root().join("python"), dir.clone()]).unwrap(),
            )
            .output()
            .expect("python3");
        assert!(direct.status.success(), "{name}: {}", text(&direct.stderr));
        assert_eq!(
            text(&direct.stdout),
            text(&reference.stdout),
            "{name}: direct run"
        );
        let roles = expected_roles(case);
        let mut all: Vec<String> = roles.values().flatten().cloned().collect();
        let mut sorted_central = central.clone();
        all.sort();
        sorted_central.sort();
        assert_eq!(
            all, sorted_central,
            "{name}: same lines as the reference run"
        );
        for (role, lines) in &roles {
            let mut it = central.iter();
            for l in lines {
                assert!(
                    it.any(|c| c == l),
                    "{name}: {role}'s line {l:?} out of the reference run's order"
                );
            }
        }
        let _ = std::fs::remove_dir_all(&out_dir);
    }
    cases
}

fn check_fails(dir: &Path, expected: &serde_json::Value) -> usize {
    let mut n = 0;
    for (name, case) in expected.as_object().expect("object") {
        if name.starts_with('_') {
            continue;
        }
        let file = dir.join(format!("{name}.py"));
        let out = ranklift()
            .args(["choreo", "check"])
            .arg(&file)
            .output()
            .expect("check");
        let err = both(&out);
        assert_eq!(out.status.code(), Some(1), "{name}: {err}");
        let code = case["error"].as_str().expect("error");
        let line = case["line"].as_u64().expect("line");
        let prefix = format!("{}:{line}:", shown(&file));
        let headline = err
            .lines()
            .find(|l| l.starts_with(&prefix) && l.contains(&format!(": error[{code}]: ")))
            .unwrap_or_else(|| panic!("{name}: no {code} at line {line}:\n{err}"));
        if let Some(role) = case.get("role").and_then(|r| r.as_str()) {
            assert!(
                headline.contains(&format!("role `{role}`")),
                "{name}: {headline}"
            );
        }
        assert!(
            err.contains("help: "),
            "{name}: every error has a hint:\n{err}"
        );
        n += 1;
    }
    n
}

#[test]
fn must_fail_programs_report_the_listed_code_line_and_role() {
    let shared = fixtures().join("shared");
    assert_eq!(
        check_fails(&shared, &load(&shared.join("expected.json"))["fail"]),
        4
    );
    let own = fixtures().join("fail");
    assert!(check_fails(&own, &load(&own.join("expected.json"))) >= 23);
}

#[test]
fn errors_are_sorted_and_all_reported() {
    // Two independent errors in one file: both are printed, in line order.
    let dir = tempdir("two-errors");
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join("two.py");
    std::fs::write(
        &f,
        "from pychoral import Role, At, Ch2\nA = Role(\"A\")\nB = Role(\"B\")\n\
         class T(Ch2[A, B]):\n    @staticmethod\n    def run(a: At[int, A], b: At[int, B]) -> None:\n\
         \x20       print(a, b)\n        x: At[int, B] = a\n",
    )
    .unwrap();
    let out = ranklift()
        .args(["choreo", "check"])
        .arg(&f)
        .output()
        .unwrap();
    let err = both(&out);
    let heads: Vec<&str> = err
        .lines()
        .filter(|l| l.contains(": error["))
        .filter(|l| l.starts_with(&shown(&f)))
        .collect();
    assert_eq!(heads.len(), 2, "{err}");
    assert!(
        heads[0].contains(":7:") && heads[0].contains("E-MIX"),
        "{err}"
    );
    assert!(
        heads[1].contains(":8:") && heads[1].contains("E-LOC"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn dist_auth_projection_is_golden() {
    // The expected text is the note's §3.9 projection (Client: receives the salt, sends the hash,
    // `match` on the IP's label with enum-qualified cases; Service keeps only the match; IP keeps
    // the native `if`), completed for Service and IP and for the entry class.
    let out_dir = tempdir("golden");
    project(&fixtures().join("shared/ex04_dist_auth.py"), &out_dir, &[]);
    let got = std::fs::read_to_string(out_dir.join("ex04_dist_auth_chor.py")).unwrap();
    // The choreography's absolute path (for tracebacks) depends on the checkout: the golden
    // holds a placeholder, checked here to name the real file.
    let source = fixtures().join("shared/ex04_dist_auth.py");
    let line = format!("__pychoral_source__ = {:?}\n", source.display().to_string());
    assert!(got.contains(&line), "{got}");
    let raw = got.clone();
    let got = got.replace(
        &line,
        "__pychoral_source__ = \"<the choreography's path>\"\n",
    );
    let golden = root().join("crates/ranklift_choreo/tests/golden/ex04_dist_auth_chor.py");
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::write(&golden, &got).unwrap();
    }
    assert_eq!(got, std::fs::read_to_string(&golden).unwrap());
    let rt = std::fs::read_to_string(out_dir.join("pychoral_rt.py")).unwrap();
    assert_eq!(
        rt,
        std::fs::read_to_string(root().join("python/pychoral_rt.py")).unwrap()
    );
    // Deterministic: a second projection is byte-identical.
    let again = tempdir("golden2");
    ranklift()
        .args(["choreo", "project"])
        .arg(fixtures().join("shared/ex04_dist_auth.py"))
        .arg("-o")
        .arg(&again)
        .output()
        .unwrap();
    assert_eq!(
        raw,
        std::fs::read_to_string(again.join("ex04_dist_auth_chor.py")).unwrap()
    );
    let _ = std::fs::remove_dir_all(&out_dir);
    let _ = std::fs::remove_dir_all(&again);
}

#[test]
fn nothing_is_written_for_a_failing_choreography() {
    let out_dir = tempdir("nothing");
    let st = ranklift()
        .args(["choreo", "project"])
        .arg(fixtures().join("shared/f01_koc_missing_select.py"))
        .arg("-o")
        .arg(&out_dir)
        .output()
        .unwrap();
    assert_eq!(st.status.code(), Some(1));
    assert!(
        !out_dir.exists(),
        "no output directory for a failing choreography"
    );
}

#[test]
fn run_usage_errors_exit_2() {
    let out = ranklift()
        .args(["choreo", "run"])
        .arg(fixtures().join("shared/ex02_ping_pong.py"))
        .args(["--entry", "Nope"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("PingPong"),
        "names the entries there are"
    );
    let out = ranklift()
        .args(["choreo", "check", "/nonexistent/x.py"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    // A file that is not UTF-8: located at the bad byte (line 2, after `s = "é`: column 7).
    let dir = tempdir("latin");
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.py");
    std::fs::write(&bad, b"x = 1\ns = \"\xc3\xa9\xff\"\n").unwrap();
    let out = ranklift()
        .args(["choreo", "check"])
        .arg(&bad)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        both(&out).contains("bad.py:2:7: error[RL002]: byte 0xFF"),
        "{}",
        both(&out)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_failing_role_makes_its_peer_fail_with_peer_closed_threads_and_tcp() {
    for tcp in [false, true] {
        let out = run(&fixtures().join("fault/crash.py"), "Crash", tcp);
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "tcp={tcp}: {err}");
        assert!(
            err.contains("[A] RuntimeError: A crashed on purpose"),
            "tcp={tcp}: {err}"
        );
        // The traceback points at the choreography's own lines, not the projection's; the
        // projection that ran is kept and named.
        assert!(
            err.contains("crash.py\", line 15, in run"),
            "tcp={tcp}: {err}"
        );
        assert!(
            err.contains("raise RuntimeError(\"A crashed on purpose\" @ A)"),
            "{err}"
        );
        assert!(!err.contains("crash_chor.py"), "tcp={tcp}: {err}");
        let kept = err
            .lines()
            .find_map(|l| {
                l.strip_prefix("ranklift: a role failed; the projection it ran is kept in ")
            })
            .expect("the kept projection is named");
        assert!(Path::new(kept).join("crash_chor.py").is_file(), "{kept}");
        let _ = std::fs::remove_dir_all(kept);
        // Told how A ended, in the same words with threads and over TCP.
        assert!(
            err.contains("[B] PeerClosed: A has failed (RuntimeError: A crashed on purpose)"),
            "tcp={tcp}: {err}"
        );
        assert_eq!(
            per_role(&text(&out.stdout))["B"],
            ["B got 0", "B got 1", "B got 2"],
            "tcp={tcp}"
        );
    }
}

#[test]
fn module_globals_belong_to_each_role_in_threads_as_over_tcp() {
    // A appends to a module-level list; B counts it. One process per role (TCP) gives 0, and
    // threads must too (the shared module gave 1).
    for tcp in [false, true] {
        let out = run(
            &fixtures().join("fault/globals_per_role.py"),
            "Globals",
            tcp,
        );
        assert!(out.status.success(), "tcp={tcp}: {}", text(&out.stderr));
        let roles = per_role(&text(&out.stdout));
        assert_eq!(roles["A"], ["1"], "tcp={tcp}");
        assert_eq!(roles["B"], ["B sees 0"], "tcp={tcp}");
    }
}

#[test]
fn a_recursive_loop_of_5000_rounds_runs_and_a_low_limit_is_named() {
    // 5000 rounds of `loop(n - 1, total + n)`: B's total is 5000 * 5001 / 2.
    for tcp in [false, true] {
        let out = run(
            &fixtures().join("fault/recursive_loop.py"),
            "Countdown",
            tcp,
        );
        assert!(out.status.success(), "tcp={tcp}: {}", text(&out.stderr));
        assert_eq!(per_role(&text(&out.stdout))["B"], ["B total 12502500"]);
    }
    // Negative control: Python's default limit stops it, and the message says what to change.
    let out = ranklift()
        .env("PYCHORAL_RECURSION_LIMIT", "1000")
        .args(["choreo", "run"])
        .arg(fixtures().join("fault/recursive_loop.py"))
        .output()
        .unwrap();
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("RecursionError"), "{err}");
    assert!(err.contains("raise the limit"), "{err}");
}

#[test]
fn a_killed_role_is_named_with_its_signal_and_blame_follows_the_chain() {
    let out = run(&fixtures().join("fault/killed_role.py"), "Chain", true);
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("[C] pychoral: the process of C was killed by SIGKILL"),
        "{err}"
    );
    assert!(
        err.contains("[B] PeerClosed: C closed the connection"),
        "{err}"
    );
    assert!(
        err.contains("[A] PeerClosed: B has failed (PeerClosed: C closed the connection)"),
        "{err}"
    );
    assert!(!err.contains("is gone"), "{err}");
    assert_eq!(
        per_role(&text(&out.stdout))["A"],
        ["A round 0", "A round 1"]
    );
}

#[test]
fn a_channel_refuses_values_of_another_type_than_it_carries() {
    for tcp in [false, true] {
        let out = run(&fixtures().join("fault/typed_channel.py"), "Typed", tcp);
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "tcp={tcp}: {err}");
        assert_eq!(per_role(&text(&out.stdout))["B"], ["B got 12"], "tcp={tcp}");
        assert!(
            err.contains(
                "ProtocolError: B received 'twelve' (str) from A on channel 'ab', which carries int"
            ),
            "tcp={tcp}: {err}"
        );
    }
}

#[test]
fn a_silent_peer_times_out() {
    let mut c = ranklift();
    c.env("PYCHORAL_TIMEOUT", "1")
        .args(["choreo", "run"])
        .arg(fixtures().join("fault/silent.py"));
    let out = c.output().unwrap();
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("[B] ChoreographyTimeout"), "{err}");
}

#[test]
fn killing_a_role_process_mid_protocol_fails_the_other_with_peer_closed() {
    use std::io::{BufRead, BufReader};
    let dir = tempdir("kill");
    project(&fixtures().join("fault/stream.py"), &dir, &[]);
    let ports = free_ports(2);
    let peers = format!("A=127.0.0.1:{},B=127.0.0.1:{}", ports[0], ports[1]);
    let spawn = |role: &str| {
        Command::new("python3")
            .args([
                "pychoral_rt.py",
                "tcp-role",
                "stream_chor",
                "Stream",
                role,
                "--peers",
                &peers,
            ])
            .current_dir(&dir)
            .env("PYCHORAL_TIMEOUT", "120")
            .env("PYCHORAL_SECRET", "both roles know this")
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap()
    };
    let mut a = spawn("A");
    let mut b = spawn("B");
    let mut lines = BufReader::new(b.stdout.take().unwrap()).lines();
    for _ in 0..3 {
        let l = lines.next().expect("B prints").unwrap();
        assert!(l.starts_with("B got"), "{l}");
    }
    a.kill().unwrap(); // SIGKILL: no goodbye from A
    a.wait().unwrap();
    let started = std::time::Instant::now();
    let status = b.wait().unwrap();
    let mut err = String::new();
    std::io::Read::read_to_string(&mut b.stderr.take().unwrap(), &mut err).unwrap();
    assert_eq!(status.code(), Some(1), "{err}");
    assert!(err.contains("PeerClosed"), "{err}");
    // B did not sit out its 120 s receive timeout.
    assert!(started.elapsed() < std::time::Duration::from_secs(60));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn runtime_unit_tests_pass() {
    let out = Command::new("python3")
        .args(["-m", "unittest", "discover", "-s", "python/tests", "-v"])
        .current_dir(root())
        .output()
        .expect("python3");
    assert!(
        out.status.success(),
        "{}{}",
        text(&out.stdout),
        text(&out.stderr)
    );
    assert!(text(&out.stderr).contains("OK"));
}

#[test]
fn readme_choreography_runs() {
    // The example in README.md's `ranklift choreo` section stays true.
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let start = readme
        .find("```python\nfrom enum import Enum\nfrom pychoral")
        .expect("README has the choreo example");
    let body = &readme[start + "```python\n".len()..];
    let code = &body[..body.find("```").unwrap()];
    let dir = tempdir("readme");
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join("bookseller.py");
    std::fs::write(&f, code).unwrap();
    let out = run(&f, "Bookseller", false);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let roles = per_role(&text(&out.stdout));
    assert_eq!(roles["Buyer"], ["bought"]);
    assert_eq!(roles["Seller"], ["Seller sold TAPL"]);
    let _ = std::fs::remove_dir_all(&dir);
}

/// mypy from `RANKLIFT_MYPY` (scripts/test.sh sets it from scripts/mypy-env.sh) or the cached
/// venv; `None` if neither exists.
fn mypy() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("RANKLIFT_MYPY") {
        let p = PathBuf::from(p);
        assert!(p.exists(), "RANKLIFT_MYPY={} does not exist", p.display());
        return Some(p);
    }
    let home = std::env::var_os("HOME")?;
    let p = Path::new(&home).join(".cache/ranklift/mypy-venv/bin/mypy");
    p.exists().then_some(p)
}

/// Project every file with `--emit-erased` into one directory and run mypy once over the erased
/// programs.
fn erased_mypy(files: &[PathBuf], tag: &str) -> Output {
    let dir = tempdir(tag);
    let mut erased = Vec::new();
    for file in files {
        project(file, &dir, &["--emit-erased"]);
        erased.push(format!(
            "{}_erased.py",
            file.file_stem().unwrap().to_string_lossy()
        ));
    }
    let out = Command::new(mypy().unwrap())
        .args(["--no-incremental", "--cache-dir", "/dev/null"])
        .args(&erased)
        .current_dir(&dir)
        .output()
        .unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    out
}

#[test]
fn erased_programs_type_check_with_mypy() {
    if mypy().is_none() {
        eprintln!("skipped: no mypy (run scripts/mypy-env.sh, or scripts/test.sh which does)");
        return;
    }
    let mut files: Vec<PathBuf> = Vec::new();
    for dir in [
        root().join("examples/choreo"),
        fixtures().join("shared"),
        fixtures().join("pass"),
    ] {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            if name.ends_with(".py") && !name.starts_with('f') {
                files.push(p);
            }
        }
    }
    files.sort();
    assert!(files.len() >= 17);
    let out = erased_mypy(&files, "mypy");
    let report = text(&out.stdout);
    assert!(out.status.success(), "{report}");
    assert!(
        report.contains(&format!("no issues found in {} source files", files.len())),
        "{report}"
    );
    // mypy really checks: a wrong type is found, at the choreography's own line number.
    let out = erased_mypy(&[fixtures().join("mypy/mistyped.py")], "mypy-bad");
    let report = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{report}");
    assert!(
        report.contains("mistyped_erased.py:13: error: Incompatible types in assignment"),
        "{report}"
    );
}

#[test]
fn check_takes_several_files_and_speaks_json_and_sarif() {
    let good = root().join("examples/choreo/karatsuba.py");
    let bad = fixtures().join("shared/f02_wrong_channel.py");
    let out = ranklift()
        .args(["choreo", "check"])
        .arg(&good)
        .arg(&bad)
        .output()
        .unwrap();
    let err = both(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("karatsuba.py: ok (Karatsuba[A, B, C])"),
        "{err}"
    );
    assert!(
        err.contains("f02_wrong_channel.py:10:32: error[E-CHAN]"),
        "{err}"
    );
    let out = ranklift()
        .args(["choreo", "check", "--format", "json"])
        .arg(&bad)
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["diagnostics"][0]["code"], "E-CHAN");
    assert_eq!(v["diagnostics"][0]["line"], 10);
    let out = ranklift()
        .args(["choreo", "check", "--format", "sarif"])
        .arg(&bad)
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["runs"][0]["results"][0]["ruleId"], "E-CHAN");
    let out = ranklift()
        .args(["choreo", "check", "--format", "json"])
        .arg(&good)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["diagnostics"].as_array().unwrap().len(), 0);
}

#[test]
fn check_walks_directories_and_keeps_going_past_unreadable_files() {
    // examples/choreo: every .py file imports pychoral and is a valid choreography.
    let dir = root().join("examples/choreo");
    let n = std::fs::read_dir(&dir)
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .unwrap()
                .path()
                .extension()
                .is_some_and(|x| x == "py")
        })
        .count();
    let out = ranklift()
        .args(["choreo", "check"])
        .arg(&dir)
        .output()
        .unwrap();
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert_eq!(
        err.lines().filter(|l| l.contains(": ok (")).count(),
        n,
        "{err}"
    );
    // A missing file is reported (exit 2) and the others are still checked.
    let out = ranklift()
        .args(["choreo", "check", "/nonexistent/x.py"])
        .arg(fixtures().join("shared/f02_wrong_channel.py"))
        .output()
        .unwrap();
    let err = both(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("error: /nonexistent/x.py: no such file or directory"),
        "{err}"
    );
    assert!(err.contains("error[E-CHAN]"), "{err}");
}

/// The backticked `... .select(...)` snippets of an E-KOC hint, in order.
fn hint_selects(err: &str) -> Vec<String> {
    let help = err
        .lines()
        .find(|l| l.contains("help: "))
        .expect("a hint")
        .to_owned();
    help.split('`')
        .skip(1)
        .step_by(2)
        .filter(|s| s.contains(".select("))
        .map(str::to_owned)
        .collect()
}

#[test]
fn following_the_knowledge_of_choice_hint_fixes_the_program() {
    // f01: B is not told whether the ping-pong goes on. Insert the two selections the hint
    // proposes at the start of each branch (lines 12 and 16 of the file, by reading it) and
    // declare the enum it names: the program then checks, runs and B prints its line.
    let f01 = fixtures().join("shared/f01_koc_missing_select.py");
    let out = ranklift()
        .args(["choreo", "check"])
        .arg(&f01)
        .output()
        .unwrap();
    let err = both(&out);
    let selects = hint_selects(&err);
    assert_eq!(selects.len(), 2, "{err}");
    assert!(
        err.contains("declare `class Choice(Enum): YES = \"YES\"; NO = \"NO\"`"),
        "{err}"
    );
    let src = std::fs::read_to_string(&f01).unwrap();
    let mut lines: Vec<String> = src.lines().map(str::to_owned).collect();
    lines.insert(15, format!("            {}", selects[1])); // after `else:` (line 15)
    lines.insert(11, format!("            {}", selects[0])); // after `if n < 3:` (line 11)
    lines.insert(
        5,
        "class Choice(Enum):\n    YES = \"YES\"\n    NO = \"NO\"\n".to_owned(),
    );
    lines.insert(0, "from enum import Enum".to_owned());
    lines.push(
        "\n    @staticmethod\n    @entry\n    def main() -> None:\n        ch: Channel[object, A, B] = Channel.open(\"ab\")\n        PingPongNoSelect[A, B](ch).play(0 @ A)".to_owned(),
    );
    let fixed = lines.join("\n").replace(
        "import Role, At, Channel, Ch2",
        "import Role, At, Channel, Ch2, entry",
    );
    let dir = tempdir("koc-fix");
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join("fixed.py");
    std::fs::write(&f, &fixed).unwrap();
    let out = run(&f, "PingPongNoSelect", false);
    assert!(out.status.success(), "{fixed}\n{}", text(&out.stderr));
    assert_eq!(per_role(&text(&out.stdout))["B"], ["B done"]);

    // g01: no channel between Buyer and Shipper; the hint forwards the choice through Seller.
    let g01 = fixtures().join("fail/g01_forward_missing.py");
    let out = ranklift()
        .args(["choreo", "check"])
        .arg(&g01)
        .output()
        .unwrap();
    let err = both(&out);
    let selects = hint_selects(&err);
    assert_eq!(
        selects,
        [
            "bs.select(D.YES @ Buyer)",
            "ss.select(D.YES @ Seller)",
            "bs.select(D.NO @ Buyer)",
            "ss.select(D.NO @ Seller)"
        ],
        "{err}"
    );
    let src = std::fs::read_to_string(&g01).unwrap();
    let fixed = src
        .replace(
            "            bs.select(D.YES @ Buyer)\n",
            &format!("            {}\n            {}\n", selects[0], selects[1]),
        )
        .replace(
            "            bs.select(D.NO @ Buyer)\n",
            &format!("            {}\n            {}\n", selects[2], selects[3]),
        );
    let f = dir.join("forwarded.py");
    std::fs::write(&f, &fixed).unwrap();
    let out = ranklift()
        .args(["choreo", "check"])
        .arg(&f)
        .output()
        .unwrap();
    assert!(out.status.success(), "{fixed}\n{}", text(&out.stderr));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn streamed_output_has_each_roles_lines_in_order() {
    let file = root().join("examples/choreo/sealed_auction.py");
    let want =
        expected_roles(&load(&root().join("examples/choreo/expected.json"))["sealed_auction"]);
    for tcp in [false, true] {
        let mut c = ranklift();
        c.args(["choreo", "run", "--stream"]).arg(&file);
        if tcp {
            c.arg("--tcp");
        }
        let out = c.output().unwrap();
        assert!(out.status.success(), "{}", text(&out.stderr));
        assert_eq!(per_role(&text(&out.stdout)), want, "tcp={tcp}");
    }
}

#[test]
fn split_modules_deploy_each_role_without_the_others_code() {
    // `--split` writes one module per role; each role's process imports only its own module.
    let dir = tempdir("split");
    project(
        &fixtures().join("shared/ex04_dist_auth.py"),
        &dir,
        &["--split"],
    );
    let client = std::fs::read_to_string(dir.join("ex04_dist_auth_Client.py")).unwrap();
    let ip = std::fs::read_to_string(dir.join("ex04_dist_auth_IP.py")).unwrap();
    assert!(client.contains("class DistAuth_Client:") && !client.contains("class DistAuth_IP:"));
    assert!(ip.contains("class DistAuth_IP:") && !ip.contains("class AuthResult_A:"));
    let roles = ["Client", "Service", "IP"];
    let ports = free_ports(roles.len());
    let peers: Vec<String> = roles
        .iter()
        .zip(&ports)
        .map(|(r, p)| format!("{r}=127.0.0.1:{p}"))
        .collect();
    let peers = peers.join(",");
    let children: Vec<_> = roles
        .iter()
        .map(|r| {
            Command::new("python3")
                .args([
                    "pychoral_rt.py",
                    "tcp",
                    &format!("ex04_dist_auth_{r}"),
                    "DistAuthMain",
                    r,
                ])
                .args(["--peers", &peers])
                .current_dir(&dir)
                .env("PYCHORAL_TIMEOUT", "30")
                // As a deployment across machines would: every connection is authenticated.
                .env("PYCHORAL_SECRET", "split-deployment-secret")
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    let outs: Vec<Output> = children
        .into_iter()
        .map(|c| c.wait_with_output().unwrap())
        .collect();
    for (r, o) in roles.iter().zip(&outs) {
        assert!(o.status.success(), "{r}: {}", text(&o.stderr));
    }
    assert_eq!(
        text(&outs[0].stdout),
        "Client token: tok-alice\nClient token: None\n"
    );
    assert_eq!(
        text(&outs[1].stdout),
        "Service token: tok-alice\nService token: None\n"
    );
    assert_eq!(text(&outs[2].stdout), "");
    let _ = std::fs::remove_dir_all(&dir);
}
