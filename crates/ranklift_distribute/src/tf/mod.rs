//! The TensorFlow target: a single-process TensorFlow 2 (or TF1 graph-mode) training program
//! becomes a Horovod data-parallel program launched by `horovodrun`.
//!
//! Data flow: the shared [`Index`] → [`pattern::reach`] (what the main script runs, which pattern)
//! → [`checks`] (restrictions, as diagnostics) → [`rules`] (edits, one file per rule) →
//! [`context::Cx::finish`] (the Horovod header, the re-parse guard). Everything TensorFlow-specific
//! lives under this module; [`names`] holds what ranklift knows of the TensorFlow and Keras APIs.

pub mod checks;
pub mod context;
pub mod names;
pub mod pattern;
pub mod rules;

use ranklift_python::{Diagnostic, Severity};
use ruff_python_ast::{Expr, Stmt};
use ruff_text_size::Ranged;

use crate::index::{Index, Kind};
use crate::{
    AnyPattern, Facts, Launch, Options, Outcome, Site, Status, codes, uses_relative_paths,
};
use context::{Cx, Engine};
use names as tf;
pub use pattern::Pattern;

/// The engine (`context::Engine`): Horovod for TensorFlow ≤ 2.15, TensorFlow's own collectives
/// (`ranklift_tf`) from 2.16 on, where TensorFlow ships Keras 3 and Horovod neither builds nor runs
/// (horovod#4290). A program that uses Keras-3-only APIs (`keras.ops`, `keras.random`) chooses
/// the collectives when no target was given or found installed (a note says so), and is an error
/// under an explicit target of 2.15 or older.
fn engine(idx: &Index, opts: &Options) -> Result<(Engine, Option<Diagnostic>), Box<Diagnostic>> {
    if opts.tf.target_tf >= (2, 16) {
        return Ok((Engine::Collectives, None));
    }
    for c in &idx.calls {
        // The index's cached canonical name (`keras.x` is `tensorflow.keras.x` there).
        let Some(q) = idx.canonical(c.scope.module, &c.call.func) else {
            continue;
        };
        if q.starts_with("tensorflow.keras.ops.") || q.starts_with("tensorflow.keras.random.") {
            let q = q.strip_prefix("tensorflow.").unwrap_or(&q);
            let pm = &idx.project.modules[c.scope.module];
            let at = |code, sev, msg: String, hint: &str| {
                Diagnostic::new(
                    &pm.rel_path,
                    &pm.parsed.text,
                    &pm.parsed.index,
                    c.call.func.range(),
                    code,
                    sev,
                    msg,
                )
                .with_hint(hint)
            };
            if opts.tf.target_tf_assumed {
                return Ok((
                    Engine::Collectives,
                    Some(at(
                        codes::KERAS_3_ASSUMED,
                        Severity::Note,
                        format!(
                            "`{q}` is a Keras 3 API: distributed onto TensorFlow's own collectives (TensorFlow 2.16 or newer)"
                        ),
                        "no TensorFlow was found installed to tell the version; pass --target-tf to choose (2.15 or older means Horovod and Keras 2)",
                    )),
                ));
            }
            return Err(Box::new(at(
                codes::KERAS_3,
                Severity::Error,
                format!(
                    "`{q}` is a Keras 3 API, but --target-tf {}.{} means Keras 2 and Horovod",
                    opts.tf.target_tf.0, opts.tf.target_tf.1
                ),
                "pass --target-tf 2.16 (or the TensorFlow you run) to distribute onto TensorFlow's own collectives; Horovod's last release runs TensorFlow <= 2.15 with Keras 2 only (horovod#4290)",
            )));
        }
    }
    Ok((Engine::Horovod, None))
}

/// The collectives engine runs TF2 programs (GradientTape loops, Keras `fit`); TF1 graph-mode
/// training (sessions, `tf.estimator`, removed in TensorFlow 2.16) stays Horovod's.
fn tf1_on_collectives(idx: &Index, main: usize, pattern: Pattern, opts: &Options) -> Diagnostic {
    let pm = &idx.project.modules[main];
    Diagnostic::file_level(
        &pm.rel_path,
        codes::TF1_ON_COLLECTIVES,
        Severity::Error,
        format!(
            "TF1 graph-mode training ({}) cannot be distributed onto TensorFlow {}.{}'s collectives",
            pattern.describe(),
            opts.tf.target_tf.0,
            opts.tf.target_tf.1
        ),
    )
    .with_hint("TensorFlow's collectives target runs TF2 programs (GradientTape, Keras fit), and tf.estimator is gone from TensorFlow 2.16; for Horovod, pin tensorflow<=2.15 and pass --target-tf 2.15")
}

/// The `ranklift_tf` module next to the main script: created, refreshed when it is an earlier
/// ranklift's, refused when the project has a module of that name of its own.
fn collectives_module(
    idx: &Index,
    main: usize,
) -> Result<Option<crate::FileChange>, Box<Diagnostic>> {
    let main_path = &idx.project.modules[main].rel_path;
    let path = match main_path.rfind('/') {
        Some(i) => format!("{}/{}.py", &main_path[..i], context::COLLECTIVES_MODULE),
        None => format!("{}.py", context::COLLECTIVES_MODULE),
    };
    if let Some(pm) = idx.project.modules.iter().find(|m| m.rel_path == path) {
        if &*pm.parsed.text == RUNTIME {
            return Ok(None);
        }
        let first = RUNTIME.lines().next().unwrap_or_default();
        if !pm.parsed.text.starts_with(first) {
            return Err(Box::new(Diagnostic::file_level(&path, codes::MODULE_NAME_TAKEN, Severity::Error,
                format!("the project has a module `{}` of its own; the rewrite would import ranklift's in its place", context::COLLECTIVES_MODULE))
                .with_hint("rename that module, or write the output elsewhere with -o")));
        }
        let mut c = crate::FileChange::created(path, RUNTIME);
        c.created = false;
        c.original = pm.parsed.text.to_string();
        c.edits = vec![ranklift_python::Edit::replace(
            ruff_text_size::TextRange::up_to(ruff_text_size::TextSize::of(&*pm.parsed.text)),
            RUNTIME.to_owned(),
        )];
        return Ok(Some(c));
    }
    Ok(Some(crate::FileChange::created(path, RUNTIME)))
}

/// `ranklift_tf.py`: Horovod's API over TensorFlow's collectives, written next to the programs
/// of the collectives engine (stdlib + TensorFlow; `python/ranklift_tf.py`).
pub const RUNTIME: &str = include_str!("../../../../python/ranklift_tf.py");

/// A project that already uses Horovod is left untouched (a note), if it initialises Horovod
/// somewhere. One where some modules import Horovod but nothing calls `hvd.init()` is *partly*
/// distributed (an interrupted rewrite, or one done by hand and not finished): an error that
/// names the files, not a silent "nothing to do".
fn already_distributed(idx: &Index) -> Option<Outcome> {
    let project = idx.project;
    let with_hvd: Vec<(usize, ruff_text_size::TextRange)> = idx
        .modules
        .iter()
        .enumerate()
        .filter_map(|(m, info)| info.imports_horovod.map(|r| (m, r)))
        .collect();
    let &(m, r) = with_hvd.first()?;
    let inits = idx.calls.iter().any(|c| {
        idx.qualify(c.scope.module, &c.call.func).is_some_and(|q| {
            (q.starts_with("horovod") && q.ends_with(".init")) || q == "ranklift_tf.init"
        })
    });
    let pm = &project.modules[m];
    let engine = if pm.parsed.text[r].contains("ranklift_tf") {
        "TensorFlow's collectives (ranklift_tf)"
    } else {
        "Horovod"
    };
    if inits {
        let d = Diagnostic::new(&pm.rel_path, &pm.parsed.text, &pm.parsed.index, r,
            codes::ALREADY_DISTRIBUTED, Severity::Note,
            format!("this program already uses {engine}; it is left untouched"))
            .with_hint("ranklift distributes single-process programs; running it on its own output changes nothing");
        return Some(Outcome::new(Status::AlreadyDistributed, vec![d]));
    }
    let files: Vec<&str> = with_hvd
        .iter()
        .map(|&(m, _)| project.modules[m].rel_path.as_str())
        .collect();
    let d = Diagnostic::new(&pm.rel_path, &pm.parsed.text, &pm.parsed.index, r,
        codes::PARTLY_DISTRIBUTED, Severity::Error,
        format!("partly distributed: {} import{} {engine}, but nothing calls `hvd.init()`",
            files.join(", "), if files.len() == 1 { "s" } else { "" }))
        .with_hint("restore these files from version control (or finish the rewrite by hand) and run ranklift again");
    Some(Outcome::new(Status::CannotDistribute, vec![d]))
}

pub(crate) fn distribute_tf(idx: &Index, main: Option<&str>, opts: &Options) -> Outcome {
    let project = idx.project;
    if let Some(o) = already_distributed(idx) {
        return o;
    }
    let (engine, engine_note) = match engine(idx, opts) {
        Ok(e) => e,
        Err(d) => return Outcome::new(Status::CannotDistribute, vec![*d]),
    };
    let (main_idx, reached) = match pick_main(idx, main) {
        Ok(m) => m,
        Err(d) => return Outcome::new(Status::CannotDistribute, d),
    };
    let main_path = project.modules[main_idx].rel_path.clone();
    if let Some((r, backend)) = pattern::non_tf_keras_backend(idx, main_idx) {
        let pm = &project.modules[main_idx];
        let d = Diagnostic::new(&pm.rel_path, &pm.parsed.text, &pm.parsed.index, r,
            codes::NOT_TENSORFLOW, Severity::Error,
            format!("not a TensorFlow program: Keras runs on the `{backend}` backend here"))
            .with_hint(if backend == "torch" {
                "Horovod's Keras integration needs the TensorFlow backend; a Keras 3 program on torch can use torch's own DistributedDataParallel, or set KERAS_BACKEND=tensorflow with TensorFlow <= 2.15 and tf-keras"
            } else {
                "Horovod's Keras integration needs the TensorFlow backend: set KERAS_BACKEND=tensorflow with TensorFlow <= 2.15 and tf-keras, or distribute with the backend's own tools"
            });
        let mut o = Outcome::new(Status::CannotDistribute, vec![d]);
        o.main = Some(main_path);
        return o;
    }
    if !pattern::imports_tensorflow(idx, main_idx) && project.entry.is_some() {
        let d = Diagnostic::file_level(&main_path, codes::NOT_TENSORFLOW, Severity::Error,
            "not a TensorFlow training program: it does not import tensorflow")
            .with_hint("ranklift distribute rewrites TensorFlow 2 programs that train with GradientTape or Model.fit");
        let mut o = Outcome::new(Status::CannotDistribute, vec![d]);
        o.main = Some(main_path);
        return o;
    }
    let reach = reached.unwrap_or_else(|| pattern::reach(idx, main_idx));
    let mut outcome = Outcome::new(Status::CannotDistribute, Vec::new());
    outcome.main = Some(main_path.clone());
    if opts.facts {
        outcome.facts = facts(idx, &reach);
    }
    let pattern = match classify(idx, &reach, main_idx) {
        Ok(p) => p,
        Err(d) => {
            outcome.diagnostics = d;
            return outcome;
        }
    };
    outcome.pattern = Some(AnyPattern::Tf(pattern));
    if engine == Engine::Collectives && pattern.is_tf1() {
        outcome.diagnostics = vec![tf1_on_collectives(idx, main_idx, pattern, opts)];
        return outcome;
    }
    let main_suite = idx.project.modules[main_idx].parsed.suite();
    let relative = uses_relative_paths(main_suite);
    let mut launch = match engine {
        Engine::Horovod => Launch::horovodrun(relative),
        Engine::Collectives => Launch::ranklift_launch(relative),
    };
    launch.pythonpath = crate::root_on_path(idx.project, main_idx);
    outcome.launch = Some(launch);
    let mut cx = Cx::new(idx, &reach, pattern, engine, opts);
    if let Some(d) = engine_note {
        cx.ed.diags.push(d);
    }
    checks::run(&mut cx);
    // What `classify` let through is an optional `tf.distribute` branch.
    for &(c, _) in &reach.unsupported {
        let call = &idx.calls[c];
        let (engine_name, launcher) = match engine {
            Engine::Horovod => ("Horovod", "horovodrun"),
            Engine::Collectives => ("TensorFlow's collectives (ranklift_tf)", "ranklift launch"),
        };
        cx.diag(call.scope.module, call.call.range(), codes::OPTIONAL_STRATEGY, Severity::Warning,
            format!("this optional tf.distribute branch is left as is; the rest of the program is distributed with {engine_name}"),
            format!("under {launcher}, run with this branch switched off: one process per GPU replaces the strategy"));
    }
    for (_, rule) in rules::order(pattern) {
        rule(&mut cx);
    }
    for m in cx.modules() {
        rules::horovod_init::run(&mut cx, m, m == main_idx);
    }
    let modules = cx.modules();
    let (mut changes, applied, mut diags) = cx.ed.finish(&modules);
    if engine == Engine::Collectives {
        match collectives_module(idx, main_idx) {
            Ok(c) => changes.extend(c),
            Err(d) => diags.push(*d),
        }
    }
    outcome.diagnostics = diags;
    if outcome.has_errors() {
        return outcome;
    }
    outcome.status = Status::Rewritten;
    outcome.changes = changes;
    outcome.applied = applied;
    outcome
}

/// The main script, and what it reaches when that was computed to choose it: the given one, the
/// single file, or the one script that imports TensorFlow and reaches a training pattern
/// (`crate::pick_main`).
fn pick_main(
    idx: &Index,
    main: Option<&str>,
) -> Result<(usize, Option<pattern::Reach>), Vec<Diagnostic>> {
    crate::pick_main(
        idx,
        main,
        |m| {
            if !pattern::imports_tensorflow(idx, m) {
                return None;
            }
            let r = pattern::reach(idx, m);
            (!r.patterns().is_empty()).then_some(r)
        },
        |r, m| r.modules.contains(&m),
        "no TensorFlow training loop found: no script of the project reaches `GradientTape` + `apply_gradients` or `Model.fit`",
        "point ranklift at the training script, or check that it trains with GradientTape or Model.fit",
    )
}

fn classify(idx: &Index, reach: &pattern::Reach, main: usize) -> Result<Pattern, Vec<Diagnostic>> {
    let pm = &idx.project.modules[main];
    let at = |c: usize, code: &'static str, msg: String, hint: &str| {
        let call = &idx.calls[c];
        let m = &idx.project.modules[call.scope.module];
        Diagnostic::new(
            &m.rel_path,
            &m.parsed.text,
            &m.parsed.index,
            call.call.range(),
            code,
            Severity::Error,
            msg,
        )
        .with_hint(hint)
    };
    // A `tf.distribute` strategy that the program can go without — created under an `if`, a
    // `try` (a TPU probe falling back to the default), or in one branch of a conditional
    // expression or `or` — is an optional multi-device branch, left as is: the rest of the
    // program is distributed with Horovod (a warning says to run with that branch off). Anything
    // else unsupported stops here.
    let optional = |c: usize, name: &str| {
        if name != "tf.distribute strategy" {
            return false;
        }
        let call = &idx.calls[c];
        let at = call.call.range();
        struct Branch {
            at: ruff_text_size::TextRange,
            found: bool,
        }
        impl<'a> ruff_python_ast::visitor::Visitor<'a> for Branch {
            fn visit_expr(&mut self, e: &'a Expr) {
                let at = self.at;
                self.found |= match e {
                    Expr::If(i) => {
                        i.body.range().contains_range(at) || i.orelse.range().contains_range(at)
                    }
                    Expr::BoolOp(b) => b
                        .values
                        .iter()
                        .skip(1)
                        .any(|v| v.range().contains_range(at)),
                    _ => false,
                };
                ruff_python_ast::visitor::walk_expr(self, e);
            }
        }
        let mut branch = Branch { at, found: false };
        ruff_python_ast::visitor::Visitor::visit_stmt(&mut branch, idx.stmts[call.stmt].stmt);
        let in_branch = branch.found;
        if in_branch {
            return true;
        }
        let mut cur = Some(call.stmt);
        while let Some(s) = cur {
            match idx.stmts[s].stmt {
                Stmt::If(_) | Stmt::Try(_) => return true,
                Stmt::FunctionDef(_) | Stmt::ClassDef(_) => return false,
                _ => cur = idx.stmts[s].parent,
            }
        }
        false
    };
    if let Some(&(c, name)) = reach.unsupported.iter().find(|(c, n)| !optional(*c, n)) {
        return Err(vec![at(
            c,
            codes::UNSUPPORTED_PATTERN,
            format!(
                "unsupported training pattern: {name} (ranklift rewrites TF2 GradientTape and Model.fit, and TF1 Session, MonitoredTrainingSession and custom Estimator programs)"
            ),
            "use one of the supported patterns (e.g. a custom `tf.estimator.Estimator` with a `model_fn`)",
        )]);
    }
    let found = reach.patterns();
    match found.as_slice() {
        [p] => Ok(*p),
        // `fit` and a custom loop (pre-training, then fine-tuning): both are TF2 and Horovod's
        // Keras module covers both — `fit` gets the Keras rules, the loop the tape rules.
        [Pattern::GradientTape, Pattern::KerasFit] => Ok(Pattern::KerasFit),
        [] => {
            let msg = if !reach.tapes.is_empty() {
                "a GradientTape is used but no `optimizer.apply_gradients` applies its gradients; ranklift cannot tell where the first step ends to broadcast the initial state"
            } else if !reach.sessions.is_empty() || !reach.monitored_sessions.is_empty() {
                "a TF1 session is created but no optimizer's `minimize`/`apply_gradients` builds a training op"
            } else if !reach.estimators.is_empty() {
                "an Estimator is created but never trained (`estimator.train(...)`)"
            } else {
                "no training loop found: the main script reaches neither `optimizer.apply_gradients`, `Model.fit`, a TF1 training op nor `Estimator.train`"
            };
            Err(vec![Diagnostic::file_level(&pm.rel_path, codes::NO_TRAINING_LOOP, Severity::Error, msg)
                .with_hint("ranklift distributes TF2 GradientTape and Model.fit programs and TF1 Session, MonitoredTrainingSession and Estimator programs")])
        }
        many => {
            let names: Vec<&str> = many.iter().map(|p| p.describe()).collect();
            let loop_applies = reach.custom_loop_applies();
            let site = |p: &Pattern| {
                match p {
                    Pattern::GradientTape => loop_applies.first(),
                    Pattern::KerasFit => reach.fits.first(),
                    Pattern::Estimator => reach.estimator_trains.first(),
                    Pattern::MonitoredSession => reach.monitored_sessions.first(),
                    Pattern::Session => reach.sessions.first(),
                }
                .copied()
            };
            let hint =
                "distribute one training script at a time; split the loops into separate scripts";
            let mut out = Vec::new();
            for (i, p) in many.iter().enumerate() {
                let msg = if i == 0 {
                    format!(
                        "this program trains with several patterns ({}); the pattern is ambiguous",
                        names.join(", ")
                    )
                } else {
                    format!("the {} is here", p.describe())
                };
                out.push(match site(p) {
                    Some(c) => at(c, codes::MIXED_PATTERNS, msg, hint),
                    None => Diagnostic::file_level(
                        &pm.rel_path,
                        codes::MIXED_PATTERNS,
                        Severity::Error,
                        msg,
                    )
                    .with_hint(hint),
                });
            }
            Err(out)
        }
    }
}

fn facts(idx: &Index, reach: &pattern::Reach) -> Facts {
    let mut f = Facts::default();
    let site = |m: usize, node: &dyn Ranged| {
        let pm = &idx.project.modules[m];
        let text = &pm.parsed.text[node.range()];
        Site {
            path: pm.rel_path.clone(),
            line: pm.parsed.index.line_index(node.start()).get(),
            code: text.lines().next().unwrap_or("").trim().to_owned(),
        }
    };
    for s in &idx.stmts {
        if !reach.scope_reached(s.scope) {
            continue;
        }
        if let Stmt::Assign(a) = s.stmt {
            match idx.kind_of(s.scope, &a.value) {
                Kind::Model if matches!(&*a.value, Expr::Call(_)) => {
                    f.models.push(site(s.scope.module, a))
                }
                Kind::Dataset if matches!(&*a.value, Expr::Call(_)) => {
                    f.datasets.push(site(s.scope.module, a))
                }
                Kind::Checkpoint | Kind::CheckpointManager => {
                    f.checkpoints.push(site(s.scope.module, a))
                }
                _ => {}
            }
        }
    }
    for c in &idx.calls {
        if reach.modules.contains(&c.scope.module)
            && idx
                .canonical(c.scope.module, &c.call.func)
                .is_some_and(|q| {
                    tf::optimizer_class(&q).is_some() || tf::tf1_optimizer(&q).is_some()
                })
        {
            f.optimizers.push(site(c.scope.module, c.call));
        }
    }
    for &t in &reach.tapes {
        f.tapes
            .push(site(idx.stmts[t].scope.module, &idx.stmts[t].stmt.range()));
    }
    for &c in reach
        .sessions
        .iter()
        .chain(&reach.monitored_sessions)
        .chain(&reach.estimators)
    {
        f.sessions
            .push(site(idx.calls[c].scope.module, idx.calls[c].call));
    }
    let training = reach
        .applies
        .iter()
        .chain(&reach.fits)
        .chain(&reach.session_steps)
        .chain(&reach.estimator_trains);
    for &c in training {
        f.training_calls
            .push(site(idx.calls[c].scope.module, idx.calls[c].call));
    }
    f
}
