//! Golden tests over `examples/distribute/`: for every example, the full result of `distribute` —
//! status, main script, pattern, diagnostics, the rewrites with their rule names, and the unified
//! diff — is a reviewed insta snapshot (`tests/snapshots/`). Whether the rewritten programs really
//! train identically on several processes is checked by `scripts/e2e-distribute.sh` on real Horovod.

use std::path::{Path, PathBuf};

use ranklift_distribute::{Options, Outcome, Status, TfOptions, distribute};
use ranklift_python::Project;
use ruff_text_size::Ranged;

fn examples_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/distribute")
}

fn load(path: &Path) -> Project {
    if path.is_dir() {
        Project::load_dir(path, None, &|_, _| {})
    } else {
        Project::load_file(path, &|_| true)
    }
}

fn inputs(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            let name = p.file_name().unwrap().to_string_lossy();
            !name.starts_with(['.', '_'])
                && !matches!(&*name, "violations" | "torch" | "refusals" | "already_ddp")
                && (p.is_dir() || name.ends_with(".py"))
        })
        .collect();
    v.sort();
    v
}

/// The options of a TensorFlow 2.16+ target (TensorFlow's own collectives).
fn modern() -> Options {
    Options {
        tf: TfOptions {
            target_tf: (2, 21),
            ..TfOptions::default()
        },
        ..Options::default()
    }
}

/// The rendered outcome, with the machine-specific location of the examples replaced, so that
/// snapshots are the same on every machine (project-level diagnostics name the directory given).
fn render(o: &Outcome) -> String {
    let dir = examples_dir().display().to_string();
    render_raw(o).replace(&dir, "<examples>")
}

fn render_raw(o: &Outcome) -> String {
    let mut s = format!(
        "status: {:?}\nmain: {}\npattern: {}\n",
        o.status,
        o.main.as_deref().unwrap_or("-"),
        o.pattern.map(|p| p.describe()).unwrap_or("-")
    );
    s.push_str("--- diagnostics\n");
    for d in &o.diagnostics {
        s.push_str(&d.headline());
        s.push('\n');
        if let Some(h) = &d.hint {
            s.push_str(&format!("    hint: {h}\n"));
        }
    }
    s.push_str("--- rewrites\n");
    for a in &o.applied {
        s.push_str(&format!(
            "{}:{}: [{}] {}\n",
            a.path, a.line, a.rule, a.message
        ));
    }
    for c in &o.changes {
        let d = similar::TextDiff::from_lines(&c.original, &c.new_text);
        let full = d
            .unified_diff()
            .context_radius(3)
            .header(&format!("a/{}", c.path), &format!("b/{}", c.path))
            .to_string();
        // The CLI's diff is built from the edits, window by window: applied to the original it
        // gives the rewrite, and it changes as many lines as a diff of the whole files (where
        // inserted blank lines meet blank lines, the two may pair different ones).
        let cli = c.unified_diff();
        assert_eq!(apply_unified(&c.original, &cli), c.new_text, "{}", c.path);
        assert_eq!(changed_lines(&cli), changed_lines(&full), "{}", c.path);
        s.push_str(&full);
    }
    s
}

/// `original` with a unified diff of it applied (hunks in order, context checked).
fn apply_unified(original: &str, diff: &str) -> String {
    let old: Vec<&str> = original.split_inclusive('\n').collect();
    let mut out = String::new();
    let mut at = 0usize;
    for line in diff.split_inclusive('\n').skip(2) {
        if let Some(h) = line.strip_prefix("@@ -") {
            let start: usize = h.split([',', ' ']).next().unwrap().parse().unwrap();
            // `-0,0` (an empty original) and `-N,0` (lines inserted after line N) name the line
            // before the hunk.
            let len0 = h.split(' ').next().unwrap().ends_with(",0");
            let first = if len0 { start } else { start - 1 };
            while at < first {
                out.push_str(old[at]);
                at += 1;
            }
        } else if let Some(t) = line.strip_prefix('+') {
            out.push_str(t);
        } else if let Some(t) = line.strip_prefix('-') {
            assert_eq!(old[at], t, "a removed line differs from the original");
            at += 1;
        } else if let Some(t) = line.strip_prefix(' ') {
            assert_eq!(old[at], t, "a context line differs from the original");
            out.push_str(t);
            at += 1;
        }
    }
    for l in &old[at..] {
        out.push_str(l);
    }
    out
}

fn changed_lines(diff: &str) -> usize {
    diff.lines()
        .skip(2)
        .filter(|l| l.starts_with(['+', '-']))
        .count()
}

fn snapshot_name(p: &Path) -> String {
    p.file_stem().unwrap().to_string_lossy().into_owned()
}

#[test]
fn runnable_examples_match_their_golden_rewrites() {
    let dir = examples_dir();
    let all = inputs(&dir);
    assert!(
        all.len() >= 20,
        "the TensorFlow examples must number at least 20 programs, found {}",
        all.len()
    );
    for p in all {
        let o = distribute(&load(&p), None, &Options::default());
        assert_eq!(
            o.status,
            Status::Rewritten,
            "{}: {}",
            p.display(),
            render(&o)
        );
        insta::assert_snapshot!(snapshot_name(&p), render(&o));
    }
}

fn torch_dir() -> PathBuf {
    examples_dir().join("torch")
}

/// The PyTorch examples (`examples/distribute/torch/`): every runnable one is rewritten, and its
/// rewrite is a reviewed snapshot. Whether the rewritten programs really train identically on
/// several processes is checked by `scripts/e2e-torch.sh` on real torch.distributed.
#[test]
fn torch_examples_match_their_golden_rewrites() {
    let all = inputs(&torch_dir());
    assert!(
        all.len() >= 16,
        "the PyTorch examples must number at least 16 programs, found {}",
        all.len()
    );
    for p in all {
        let o = distribute(&load(&p), None, &Options::default());
        assert_eq!(
            o.status,
            Status::Rewritten,
            "{}: {}",
            p.display(),
            render(&o)
        );
        assert_eq!(o.framework, ranklift_distribute::Framework::Torch);
        insta::assert_snapshot!(format!("torch_{}", snapshot_name(&p)), render(&o));
    }
}

/// Refusals (`torch/refusals/`) and programs already on torch.distributed or a launcher
/// (`torch/already_ddp/`): nothing is rewritten, and the diagnostic named by the file name
/// (`dst300_...` → DST300) is reported. A refusal is an error; an already-distributed program is
/// a note plus its mistakes (errors only for what fails or hangs at run time).
#[test]
fn torch_refusals_and_ddp_mistakes_give_their_diagnostic() {
    let mut n = 0;
    for (sub, want) in [
        ("refusals", &[Status::CannotDistribute][..]),
        (
            "already_ddp",
            &[Status::AlreadyDistributed, Status::CannotDistribute][..],
        ),
    ] {
        for p in inputs(&torch_dir().join(sub)) {
            let o = distribute(&load(&p), None, &Options::default());
            assert!(
                want.contains(&o.status),
                "{}: {:?}\n{}",
                p.display(),
                o.status,
                render(&o)
            );
            assert!(
                o.changes.is_empty(),
                "nothing may be written for {}",
                p.display()
            );
            let name = snapshot_name(&p);
            let code = name.split('_').next().unwrap().to_uppercase();
            let found = o.diagnostics.iter().find(|d| d.code == code);
            assert!(
                found.is_some(),
                "{}: expected {code}, got\n{}",
                p.display(),
                render(&o)
            );
            if sub == "refusals" {
                assert_eq!(found.unwrap().severity, ranklift_python::Severity::Error);
            }
            insta::assert_snapshot!(format!("torch_{sub}_{name}"), render(&o));
            n += 1;
        }
    }
    assert!(
        n >= 10,
        "at least 6 refusals and 4 already-DDP programs, found {n}"
    );
}

#[test]
fn violations_give_exactly_their_diagnostic() {
    let dir = examples_dir().join("violations");
    let all = inputs(&dir);
    assert!(
        all.len() >= 8,
        "at least 8 restriction violations, found {}",
        all.len()
    );
    for p in all {
        let o = distribute(&load(&p), None, &Options::default());
        assert_eq!(o.status, Status::CannotDistribute, "{}", p.display());
        assert!(
            o.changes.is_empty(),
            "nothing may be written for {}",
            p.display()
        );
        // The file name starts with the expected code (dst004_... -> DST004).
        let name = snapshot_name(&p);
        let code = name.split('_').next().unwrap().to_uppercase();
        assert!(
            o.diagnostics.iter().any(|d| d.code == code),
            "{}: expected {code}, got\n{}",
            p.display(),
            render(&o)
        );
        insta::assert_snapshot!(format!("violation_{name}"), render(&o));
    }
}

/// Running ranklift on its own output changes nothing: the output is recognised as already
/// distributed. Also: every comment of the input survives in the output.
#[test]
fn rewriting_is_idempotent_and_keeps_comments() {
    let tmp = std::env::temp_dir().join(format!("ranklift-idem-{}", std::process::id()));
    for p in inputs(&examples_dir())
        .into_iter()
        .chain(inputs(&torch_dir()))
    {
        let project = load(&p);
        let o = distribute(&project, None, &Options::default());
        let out = tmp.join(snapshot_name(&p));
        let _ = std::fs::remove_dir_all(&out);
        for f in &project.files {
            let target = out.join(f);
            std::fs::create_dir_all(target.parent().unwrap()).unwrap();
            match o.changes.iter().find(|c| &c.path == f) {
                Some(c) => {
                    for comment in comments(&c.original) {
                        assert!(
                            c.new_text.contains(&comment),
                            "{}: lost comment {comment:?}",
                            c.path
                        );
                    }
                    std::fs::write(&target, &c.bytes).unwrap()
                }
                None => std::fs::copy(project.root.join(f), &target)
                    .map(|_| ())
                    .unwrap(),
            }
        }
        let again_path = if p.is_dir() {
            out.clone()
        } else {
            out.join(p.file_name().unwrap())
        };
        let again = distribute(&load(&again_path), None, &Options::default());
        assert_eq!(again.status, Status::AlreadyDistributed, "{}", p.display());
        assert!(again.changes.is_empty());
        assert_eq!(again.diagnostics[0].code, "DST202");
        // A DDP program ranklift wrote passes its own DDP-mistake checks (DST310-DST315): the
        // note is all there is. (`torch/already_ddp/` shows that the checks do fire.)
        if again.framework == ranklift_distribute::Framework::Torch {
            assert_eq!(
                again.diagnostics.len(),
                1,
                "{}: {}",
                p.display(),
                render(&again)
            );
        }
    }
    let _ = std::fs::remove_dir_all(&tmp);
}

/// The comments of a Python source, from its tokens.
fn comments(src: &str) -> Vec<String> {
    let parsed = ruff_python_parser::parse_module(src).unwrap();
    parsed
        .tokens()
        .iter()
        .filter(|t| t.kind() == ruff_python_ast::token::TokenKind::Comment)
        .map(|t| src[t.range()].to_owned())
        .collect()
}

/// Layout robustness: every example with `; pass` appended to each one-line simple statement
/// (so rules meet statements that share their line) is still rewritten — never refused, never an
/// internal error — and, like every output, re-parsed by the guard.
#[test]
fn examples_with_semicolon_statements_are_rewritten() {
    use ruff_python_ast::Stmt;
    use ruff_python_ast::statement_visitor::{StatementVisitor, walk_stmt};
    struct Lines(Vec<std::ops::Range<usize>>);
    impl<'a> StatementVisitor<'a> for Lines {
        fn visit_stmt(&mut self, s: &'a Stmt) {
            let docstring = matches!(s, Stmt::Expr(e) if e.value.is_string_literal_expr());
            if matches!(s, Stmt::Expr(_) | Stmt::Assign(_) | Stmt::AugAssign(_)) && !docstring {
                self.0.push(s.range().into());
            }
            walk_stmt(self, s);
        }
    }
    let tmp = std::env::temp_dir().join(format!("ranklift-semi-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    let mut n = 0;
    for p in inputs(&examples_dir())
        .into_iter()
        .chain(inputs(&torch_dir()))
        .filter(|p| p.is_file())
    {
        let src = std::fs::read_to_string(&p).unwrap();
        let parsed = ruff_python_parser::parse_module(&src).unwrap();
        let mut v = Lines(Vec::new());
        v.visit_body(parsed.suite());
        let mut out = src.clone();
        // Back to front, one-line statements not followed by a comment.
        v.0.sort_by_key(|r| std::cmp::Reverse(r.start));
        for r in v.0 {
            let line_end = src[r.end..].find('\n').map_or(src.len(), |i| r.end + i);
            if src[r.start..r.end].contains('\n') || !src[r.end..line_end].trim().is_empty() {
                continue;
            }
            out.insert_str(r.end, "; pass");
        }
        let f = tmp.join(p.file_name().unwrap());
        std::fs::write(&f, &out).unwrap();
        let o = distribute(&load(&f), None, &Options::default());
        assert_eq!(
            o.status,
            Status::Rewritten,
            "{}: {}",
            f.display(),
            render(&o)
        );
        n += 1;
    }
    assert!(n >= 30);
    let _ = std::fs::remove_dir_all(&tmp);
}

/// TensorFlow ≥ 2.16 distributes onto TensorFlow's own collectives with the *same*
/// rules — only the engine under `hvd` changes. For every TF2 example, the rewrite for
/// `--target-tf 2.21` equals the Horovod rewrite once the engine-specific parts are taken out of
/// both: the import lines (`import horovod.tensorflow[.keras] as hvd`, `import horovod.tensorflow
/// as hvd_tf` / `import ranklift_tf as hvd`), Horovod's GPU pinning block (`ranklift_tf.init()`
/// pins the GPU itself), `hvd_tf.` (one module there), and the warm-up callback's `initial_lr=`
/// (Keras 3 has no `backend.get_value`; `ranklift_tf` reads the rate when training starts), and
/// the `custom_objects=` Horovod's `load_model` calls get (its optimizer's class is its own).
/// Whitespace is ignored: the shorter callback call may fit on one line. (`import tensorflow as
/// tf` lines too: the pinning block needs one where the program reaches Keras only.) And the adapter module
/// is written next to the main script, exactly `python/ranklift_tf.py`.
#[test]
fn collectives_engine_changes_only_the_engine() {
    let dir = examples_dir();
    let modern = modern();
    let mut compared = 0;
    for p in inputs(&dir) {
        let project = load(&p);
        let hvd = distribute(&project, None, &Options::default());
        if hvd.pattern.is_some_and(|p| p.describe().starts_with("TF1")) {
            let o = distribute(&project, None, &modern);
            assert_eq!(o.status, Status::CannotDistribute, "{}", p.display());
            assert!(
                o.diagnostics.iter().any(|d| d.code == "DST213"),
                "{}: {}",
                p.display(),
                render(&o)
            );
            continue;
        }
        let o = distribute(&project, None, &modern);
        // A step that runs inside a @tf.function through its calls: Horovod's rewrite gives
        // it a variable first-step flag, under whose `tf.cond` TensorFlow's collectives cannot
        // run; the collectives engine refuses it with the reason.
        if p.file_name()
            .is_some_and(|n| n == "tape_loop_in_tf_function.py")
        {
            assert_eq!(o.status, Status::CannotDistribute, "{}", p.display());
            assert!(
                o.diagnostics.iter().any(|d| d.code == "DST207"),
                "{}",
                render(&o)
            );
            continue;
        }
        assert_eq!(
            o.status,
            Status::Rewritten,
            "{}: {}",
            p.display(),
            render(&o)
        );
        let main = o.main.clone().unwrap();
        let created: Vec<_> = o.changes.iter().filter(|c| c.created).collect();
        assert_eq!(created.len(), 1, "{}", p.display());
        let want = match main.rfind('/') {
            Some(i) => format!("{}/ranklift_tf.py", &main[..i]),
            None => "ranklift_tf.py".to_owned(),
        };
        assert_eq!(created[0].path, want);
        assert_eq!(created[0].new_text, ranklift_distribute::tf::RUNTIME);
        let norm = |t: &str| -> String {
            let kept: Vec<&str> = t
                .lines()
                .filter(|l| {
                    let l = l.trim();
                    // (Horovod's GPU pinning imports TensorFlow where the program did not.)
                    !(l.starts_with("import horovod.")
                        || l == "import tensorflow as tf"
                        || l == "import ranklift_tf as hvd"
                        || l.contains("list_physical_devices(\"GPU\")")
                        || l.contains("list_physical_devices('GPU')")
                        || l.starts_with("for gpu in gpus")
                        || l.starts_with("for hvd_gpu in hvd_gpus")
                        || l.contains("set_memory_growth(")
                        || l == "if gpus:"
                        || l == "if hvd_gpus:"
                        || l.contains("set_visible_devices(") && (l.contains("[hvd.local_rank()]")))
                })
                .collect();
            let mut s: String = kept
                .join("\n")
                .replace("hvd_tf.", "hvd.")
                .chars()
                .filter(|c| !c.is_whitespace())
                .collect();
            while let Some(i) = s.find("initial_lr=") {
                let j = s[i..].find("warmup_epochs=").map_or(s.len(), |j| i + j);
                s.replace_range(i..j, "");
            }
            // Horovod's loads name the plain optimizer classes (`keras_load_model`).
            while let Some(i) = s.find(",custom_objects={") {
                let j = s[i..].find('}').map_or(s.len(), |j| i + j + 1);
                s.replace_range(i..j, "");
            }
            s.replace(",)", ")").replace(",]", "]")
        };
        // Running ranklift on its own output changes nothing (DST202), the module next to it
        // included.
        if p.is_file() {
            let d = std::env::temp_dir().join(format!(
                "ranklift-collectives-{}-{}",
                std::process::id(),
                snapshot_name(&p)
            ));
            let _ = std::fs::remove_dir_all(&d);
            std::fs::create_dir_all(&d).unwrap();
            for c in &o.changes {
                std::fs::write(d.join(&c.path), &c.bytes).unwrap();
            }
            let again = distribute(&load(&d.join(&main)), None, &modern);
            assert_eq!(
                again.status,
                Status::AlreadyDistributed,
                "{}: {}",
                p.display(),
                render(&again)
            );
            let _ = std::fs::remove_dir_all(&d);
        }
        for c in o.changes.iter().filter(|c| !c.created) {
            let h = hvd
                .changes
                .iter()
                .find(|h| h.path == c.path)
                .unwrap_or_else(|| {
                    panic!(
                        "{}: {} changed only for the collectives",
                        p.display(),
                        c.path
                    )
                });
            assert_eq!(
                norm(&c.new_text),
                norm(&h.new_text),
                "{}: {}",
                p.display(),
                c.path
            );
            compared += 1;
        }
    }
    assert!(compared >= 40, "compared {compared} files");
}

/// Two rewrites for TensorFlow 2.21 in full (the adapter module left out: it is
/// `python/ranklift_tf.py`, checked above).
#[test]
fn collectives_engine_golden_rewrites() {
    let modern = modern();
    for name in ["tape_mlp.py", "keras_fit_basic.py"] {
        let mut o = distribute(&load(&examples_dir().join(name)), None, &modern);
        o.changes.retain(|c| !c.created);
        insta::assert_snapshot!(
            format!("collectives_{}", name.trim_end_matches(".py")),
            render(&o)
        );
    }
}

/// Every diagnostic of every example — TensorFlow (for Horovod and for TensorFlow's
/// collectives), PyTorch, the refusals and the restriction violations — has the severity its
/// code's registry row states: one code, one severity, so `ranklift rule CODE` tells the truth.
#[test]
fn every_diagnostic_has_its_codes_severity() {
    let modern = modern();
    let assumed = Options {
        tf: TfOptions {
            target_tf_assumed: true,
            ..TfOptions::default()
        },
        ..Options::default()
    };
    let mut seen = std::collections::BTreeSet::new();
    for dir in [
        examples_dir(),
        examples_dir().join("violations"),
        torch_dir(),
        torch_dir().join("refusals"),
        torch_dir().join("already_ddp"),
    ] {
        for p in inputs(&dir) {
            let project = load(&p);
            for opts in [&Options::default(), &modern, &assumed] {
                for d in distribute(&project, None, opts).diagnostics {
                    let Some(reg) = ranklift_distribute::codes::lookup(d.code) else {
                        continue; // a front-end code (RL...), not the registry's
                    };
                    assert_eq!(
                        d.severity,
                        reg.severity,
                        "{}: {} {}",
                        p.display(),
                        d.code,
                        d.message
                    );
                    seen.insert(d.code);
                }
            }
        }
    }
    // The codes of both severities a code once had, each now its own.
    for code in ["DST102", "DST106", "DST210", "DST215"] {
        assert!(seen.contains(code), "no example raises {code}: {seen:?}");
    }
}
