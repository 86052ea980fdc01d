//! Rule `distributed_gradient_tape`: average gradients across processes.
//!
//! **Trigger:** `with tf.GradientTape(...) as t:` (any arguments, e.g. `persistent=True`; any
//! number of with-items) in code that performs a training step — a function that calls
//! `apply_gradients` (or calls one that does) — or, anywhere else, a tape whose gradients reach
//! an `apply_gradients`: through the names assigned from `t.gradient(...)` before the scope's
//! next tape, or through a helper's return value into its caller. A tape used for something
//! else (saliency maps, evaluation, a notebook's demonstration at module level beside its
//! training loop) is left alone: wrapping it would make only the ranks that run it wait for an
//! allreduce (under a print's rank guard, rank 0 alone).
//!
//! **Rewrite:** after the `with` block, `t = hvd.DistributedGradientTape(t)` for every tape of the
//! statement (a `with` of several items included). Also inside a Keras
//! model's own `train_step` run by `fit`: Horovod's Keras optimizer wrapper averages gradients
//! only inside `minimize`, which such a step does not call, so without the tape the ranks
//! silently diverge (measured on Keras 2.13). There `hvd` is `horovod.tensorflow.keras`, which has
//! no tape wrapper: `hvd_tf.DistributedGradientTape` from `import horovod.tensorflow as hvd_tf`.
//!
//! Gradients taken *inside* the `with` block (`grads = tape.gradient(...)` indented under it) are
//! averaged where they are taken instead — `grads = [hvd.allreduce(g) ...]` right after — since
//! Horovod's wrapper cannot take gradients while the tape records (RuntimeError on a real rank).
//! Taken inline there (`apply_gradients(zip(tape.gradient(...), vs))` in the block): DST212.
//!
//! ```python
//! # before
//! with tf.GradientTape() as tape:
//!     loss = loss_fn(y, model(x))
//! grads = tape.gradient(loss, model.trainable_variables)
//! # after
//! with tf.GradientTape() as tape:
//!     loss = loss_fn(y, model(x))
//! tape = hvd.DistributedGradientTape(tape)
//! grads = tape.gradient(loss, model.trainable_variables)
//! ```
use ranklift_python::Severity;
use ruff_python_ast::{Expr, Stmt};
use ruff_text_size::Ranged;

use crate::editor::contains_word;
use crate::index::Scope;
use crate::tf::context::Cx;
use crate::tf::names as tf;

const RULE: &str = "distributed_gradient_tape";

pub fn run(cx: &mut Cx) {
    let idx = cx.idx;
    let reach = cx.reach;
    for &s in &reach.tapes {
        let info = &idx.stmts[s];
        let Stmt::With(w) = info.stmt else { continue };
        let scope = info.scope;
        let m = scope.module;
        // A step function (it applies gradients, or calls what does) trains. Elsewhere — module
        // level, where a notebook's demonstrations share one scope with its training loop, or a
        // helper that a training scope also calls — the tape trains only if its gradients reach
        // an `apply_gradients`.
        let tape_names: Vec<&str> = w
            .items
            .iter()
            .filter_map(|i| match i.optional_vars.as_deref() {
                Some(Expr::Name(n)) => Some(n.id.as_str()),
                _ => None,
            })
            .collect();
        // The tape's gradients are those taken before the next tape of the same scope.
        let next = reach
            .tapes
            .iter()
            .map(|&o| &idx.stmts[o])
            .filter(|o| o.scope == scope && o.stmt.start() > w.end())
            .map(|o| o.stmt.start())
            .min()
            .unwrap_or(ruff_text_size::TextSize::from(u32::MAX));
        let window = ruff_text_size::TextRange::new(w.start(), next);
        let trains = scope.func.is_some_and(|f| reach.trains.contains(&f))
            || tape_names
                .iter()
                .any(|t| gradients_applied(cx, scope, &format!("{t}.gradient("), Some(window), 0));
        if !trains {
            cx.diag(m, w.items[0].range(), crate::codes::TAPE_NOT_TRAINING, Severity::Note,
                "this GradientTape is not part of a training step (no `apply_gradients` uses its gradients); left as is",
                "if it trains, apply its gradients with `optimizer.apply_gradients` in the same function");
            continue;
        }
        let mut lines = Vec::new();
        for item in &w.items {
            let func = match &item.context_expr {
                Expr::Call(c) => &*c.func,
                e => e,
            };
            if idx.canonical(m, func).as_deref() != Some(tf::GRADIENT_TAPE) {
                continue;
            }
            match item.optional_vars.as_deref() {
                Some(Expr::Name(n)) => {
                    let wrap = cx.gradient_tape_wrapper(m);
                    lines.push(format!("{0} = {wrap}({0})", n.id))
                }
                _ => cx.diag(m, item.range(), crate::codes::TAPE_WITHOUT_NAME, Severity::Error,
                    "a GradientTape without `as NAME` cannot be wrapped in `hvd.DistributedGradientTape`",
                    "write `with tf.GradientTape() as tape:`"),
            }
        }
        if lines.is_empty() {
            continue;
        }
        let msg = format!(
            "wrapped in hvd.DistributedGradientTape: {}",
            lines
                .iter()
                .map(|l| l.split(" =").next().unwrap_or(""))
                .collect::<Vec<_>>()
                .join(", ")
        );
        // Gradients taken inside the `with` block (`with tape: ...; grads = tape.gradient(...)`):
        // wrap before the first statement that takes them, inside the block.
        let names: Vec<String> = lines
            .iter()
            .filter_map(|l| l.split(" =").next().map(|n| format!("{n}.gradient(")))
            .collect();
        let inside = w
            .body
            .iter()
            .find(|st| names.iter().any(|n| cx.text(m, *st).contains(n.as_str())));
        if let Some(st) = inside {
            // The tape is still recording there, and Horovod's wrapper cannot take gradients
            // inside its context (RuntimeError on a real rank): average the gradients instead.
            let target = match st {
                Stmt::Assign(a) if a.targets.len() == 1 && lines_ok(cx, m, st) => {
                    match &a.targets[0] {
                        Expr::Name(n)
                            if names
                                .iter()
                                .any(|g| cx.text(m, &*a.value).starts_with(g.as_str())) =>
                        {
                            Some(n.id.to_string())
                        }
                        _ => None,
                    }
                }
                _ => None,
            };
            match target {
                Some(g) => {
                    let allreduce = cx.hvd_tf(m, "allreduce");
                    let line = format!("{g} = [None if hvd_g is None else {allreduce}(hvd_g) for hvd_g in {g}]");
                    cx.insert_lines_after(m, RULE, st, &[line],
                        format!("gradients `{g}` taken inside the GradientTape block: averaged over the processes with {allreduce}"));
                    cx.use_hvd(scope);
                }
                None => cx.diag(m, st.range(), crate::codes::GRADIENTS_IN_TAPE, Severity::Error,
                    "gradients are taken inside the `with tf.GradientTape()` block, where Horovod's tape wrapper cannot take them",
                    "take them after the block (`grads = tape.gradient(loss, vars)` dedented), or assign them on a line of their own"),
            }
            continue;
        }
        cx.insert_lines_after(m, RULE, w, &lines, msg);
        cx.use_hvd(scope);
        for l in &lines {
            if let Some(n) = l.split(" =").next() {
                cx.wrapped_tapes.push((scope, n.to_owned(), window));
            }
        }
    }
}

/// Can whole lines go right after `st` (it begins its line; see `Cx::lines_around_ok`)?
fn lines_ok(cx: &Cx, m: usize, st: &Stmt) -> bool {
    let idx = cx.idx;
    idx.modules[m]
        .stmts
        .clone()
        .find(|&o| idx.stmts[o].stmt.range() == st.range())
        .is_some_and(|o| cx.lines_around_ok(o))
}

/// Horovod's `DistributedGradientTape.gradient` iterates its `sources`: given one variable
/// (valid for `tf.GradientTape`), it iterates the variable's rows and fails with a `KeyError`
/// (Horovod 0.28.1, seen on 2 real ranks). `tape.gradient(loss, w)` for a `w = tf.Variable(...)`
/// becomes `tape.gradient(loss, [w])[0]`.
///
/// Runs after the other rules: where one of them already rewrites the statement around the call,
/// the edit is not possible and a warning says what to write.
pub fn single_variable_sources(cx: &mut Cx) {
    let idx = cx.idx;
    if cx.wrapped_tapes.is_empty() {
        return;
    }
    let tapes = cx.wrapped_tapes.clone();
    for c in &idx.calls {
        let scope = c.scope;
        let m = scope.module;
        let Expr::Attribute(a) = &*c.call.func else {
            continue;
        };
        if a.attr.as_str() != "gradient"
            || !matches!(&*a.value, Expr::Name(n) if tapes.iter().any(|(s, t, w)| {
                *s == scope && t == n.id.as_str() && w.contains_range(c.call.range())
            }))
        {
            continue;
        }
        let Some(src) = c
            .call
            .arguments
            .find_keyword("sources")
            .map(|k| &k.value)
            .or(c.call.arguments.args.get(1))
        else {
            continue;
        };
        if !is_tf_variable(idx, scope, src) {
            continue;
        }
        let r = c.call.range();
        if cx.edits[m]
            .iter()
            .any(|e| !e.range.is_empty() && e.range.intersect(r).is_some())
        {
            cx.diag(m, src.range(), crate::codes::SINGLE_SOURCE, Severity::Error,
                format!("Horovod's DistributedGradientTape needs a list of sources, and `{}` is a single variable; this call is also rewritten by another rule, so ranklift cannot wrap it", cx.text(m, src)),
                format!("write `tape.gradient(..., [{0}])[0]` (or compute the gradient on its own line)", cx.text(m, src)));
            continue;
        }
        cx.edit(
            m,
            RULE,
            src.start(),
            ranklift_python::Edit::insert(src.start(), "["),
            "",
        );
        cx.edit(
            m,
            RULE,
            src.start(),
            ranklift_python::Edit::insert(src.end(), "]"),
            "",
        );
        cx.edit(
            m,
            RULE,
            c.call.start(),
            ranklift_python::Edit::insert(c.call.end(), "[0]").after(),
            format!(
                "`{}` is a single variable: passed as a list (Horovod's tape iterates its sources)",
                cx.text(m, src)
            ),
        );
    }
}

/// A name bound (in this scope or at module level) to `tf.Variable(...)`, or that call itself.
fn is_tf_variable(idx: &crate::index::Index, scope: crate::index::Scope, e: &Expr) -> bool {
    match e {
        Expr::Call(c) => {
            idx.canonical(scope.module, &c.func).as_deref() == Some("tensorflow.Variable")
        }
        Expr::Name(n) => {
            let (s, values) = idx.assignments(scope, n.id.as_str());
            values.iter().any(|v| is_tf_variable(idx, s, v))
        }
        _ => false,
    }
}

/// Whether values computed from text `seed` in `scope` (a tape's `tape.gradient(` call, or a
/// call of a helper that returns gradients) reach an `apply_gradients` there: through the
/// names assigned from them (clipped, scaled, appended to a list: followed to a fixpoint), or
/// through the scope's return value into its callers (up to three calls deep). With a
/// `window`, only the statements in it count (a tape's own, up to the scope's next tape).
fn gradients_applied(
    cx: &Cx,
    scope: Scope,
    seed: &str,
    window: Option<ruff_text_size::TextRange>,
    depth: usize,
) -> bool {
    let idx = cx.idx;
    let reach = cx.reach;
    let m = scope.module;
    let stmts: Vec<&Stmt> = idx.modules[m]
        .stmts
        .clone()
        .map(|s| &idx.stmts[s])
        .filter(|i| i.scope == scope)
        .map(|i| i.stmt)
        .filter(|st| window.is_none_or(|w| w.contains_range(st.range())))
        .collect();
    let mentions = |text: &str, names: &[String]| {
        text.contains(seed) || names.iter().any(|n| contains_word(text, n))
    };
    let mut names: Vec<String> = Vec::new();
    loop {
        let before = names.len();
        for stmt in &stmts {
            let targets: Vec<&Expr> = match stmt {
                Stmt::Assign(a) if mentions(cx.text(m, &*a.value), &names) => {
                    a.targets.iter().collect()
                }
                Stmt::AugAssign(a) if mentions(cx.text(m, &*a.value), &names) => {
                    vec![&*a.target]
                }
                Stmt::AnnAssign(a)
                    if a.value
                        .as_deref()
                        .is_some_and(|v| mentions(cx.text(m, v), &names)) =>
                {
                    vec![&*a.target]
                }
                // `clipped.append(tf.clip_by_norm(g, 1.0))`
                Stmt::Expr(e)
                    if let Expr::Call(c) = &*e.value
                        && let Expr::Attribute(at) = &*c.func
                        && matches!(at.attr.as_str(), "append" | "extend")
                        && mentions(cx.text(m, &c.arguments), &names) =>
                {
                    vec![&*at.value]
                }
                _ => Vec::new(),
            };
            for t in targets {
                bound_names(t, &mut names);
            }
        }
        if names.len() == before {
            break;
        }
    }
    let applied = reach.applies.iter().any(|&a| {
        let c = &idx.calls[a];
        c.scope == scope
            && window.is_none_or(|w| w.contains_range(c.call.range()))
            && mentions(cx.text(m, &c.call.arguments), &names)
    });
    if applied {
        return true;
    }
    let returned = stmts.iter().any(|stmt| {
        matches!(stmt, Stmt::Return(r)
            if r.value.as_deref().is_some_and(|v| mentions(cx.text(m, v), &names)))
    });
    let Some(f) = scope.func.filter(|_| returned && depth < 3) else {
        return false;
    };
    let name = idx.funcs[f].def.name.as_str();
    idx.calls.iter().any(|c| {
        idx.resolve_call(c.scope, c.call) == Some(crate::index::Callee::Func(f))
            && gradients_applied(cx, c.scope, &format!("{name}("), None, depth + 1)
    })
}

/// The names an assignment target binds (`grads`, `loss, grads`, `self.grads` → `self.grads`).
fn bound_names(t: &Expr, out: &mut Vec<String>) {
    match t {
        Expr::Name(n) if !out.iter().any(|o| o == n.id.as_str()) => out.push(n.id.to_string()),
        Expr::Tuple(tu) => tu.elts.iter().for_each(|e| bound_names(e, out)),
        Expr::List(l) => l.elts.iter().for_each(|e| bound_names(e, out)),
        Expr::Starred(st) => bound_names(&st.value, out),
        _ => {}
    }
}
