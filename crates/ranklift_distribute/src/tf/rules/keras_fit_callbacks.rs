//! Rule `keras_fit_callbacks`: Horovod's callbacks in every `fit`, file-writing ones on rank 0.
//!
//! **Trigger:** every `model.fit(...)` / `fit_generator(...)` on a Keras model — statement,
//! assignment (`history = model.fit(...)`) or nested in any expression, in any reached function.
//!
//! **Rewrite:** `hvd.callbacks.BroadcastGlobalVariablesCallback(0)` (first, so all ranks start from
//! rank 0's weights) and `hvd.callbacks.MetricAverageCallback()` (before metric-based callbacks,
//! so `EarlyStopping`/`ReduceLROnPlateau` see the same averaged metric on every rank) are added to
//! `callbacks`. `ModelCheckpoint`, `TensorBoard` and `CSVLogger` run on rank 0 only; every other
//! callback stays on every rank — sending them all to rank 0, as the earlier tool did, lets rank 0
//! stop early while the others wait in an allreduce. A callbacks list held in a variable is
//! filtered at run time by class.
//!
//! When the learning rate given to `compile` was scaled by `hvd.size()` (a number, not a
//! schedule), `hvd.callbacks.LearningRateWarmupCallback` ramps it up from the single-process
//! rate over the first `--lr-warmup` epochs (default 3; 0 turns it off; at most E - 1 of a
//! `fit(epochs=E)`, so that its last epoch trains at the scaled rate), as Horovod's Keras
//! examples do: a rate N times larger from the first step can diverge. With one process the
//! warmup multiplies the rate by 1, so `-np 1` still trains like the original. Not added to a
//! model with its own `train_step` (its `compile` optimizer may not be the one that steps), nor
//! to a `fit` called in a loop over one compiled optimizer (each call would start the warm-up
//! again from the rate the last one left, dividing it by N every time), nor to a second `fit`
//! of a model with no `compile` since the first (it goes on at the rate the first reached).
//! `momentum_correction=False`: Horovod 0.28.1 corrects momentum with `set_value` on
//! `optimizer.momentum`, which Keras 2.11+ optimizers keep as a Python float (an
//! `AttributeError` on 2 real ranks with RMSprop).
//!
//! ```python
//! # before
//! model.fit(ds, epochs=3, callbacks=[early_stop, tf.keras.callbacks.ModelCheckpoint("ck")])
//! # after
//! model.fit(ds, epochs=3, callbacks=[hvd.callbacks.BroadcastGlobalVariablesCallback(0), hvd.callbacks.MetricAverageCallback(), early_stop] + ([tf.keras.callbacks.ModelCheckpoint("ck")] if hvd.rank() == 0 else []))
//! ```
use ranklift_python::Edit;
use ruff_python_ast::Expr;
use ruff_text_size::{Ranged, TextSize};

use crate::index::Kind;
use crate::tf::context::{Cx, add_keyword_edit};
use crate::tf::names as tf;

const RULE: &str = "keras_fit_callbacks";
const BCAST: &str = "hvd.callbacks.BroadcastGlobalVariablesCallback(0)";
const AVG: &str = "hvd.callbacks.MetricAverageCallback()";

/// Does the program run Keras in graph mode (`tf.compat.v1.disable_eager_execution()`)?
fn graph_mode(cx: &Cx) -> bool {
    cx.reached_calls().any(|(_, q)| {
        matches!(
            q.as_deref(),
            Some("tensorflow.disable_eager_execution" | "tensorflow.disable_v2_behavior")
        )
    })
}

pub fn run(cx: &mut Cx) {
    let idx = cx.idx;
    let graph = graph_mode(cx);
    for &f in &cx.reach.fits.clone() {
        let c = &idx.calls[f];
        let (scope, call) = (c.scope, c.call);
        let m = scope.module;
        if graph {
            graph_mode_broadcast(cx, f);
            continue;
        }
        let is_fit = matches!(&*call.func, Expr::Attribute(a) if a.attr.as_str() == "fit");
        let warmup = warmup_callback(cx, scope, call, c.stmt);
        let hvd_cbs = match &warmup {
            Some(w) => format!("{BCAST}, {AVG}, {w}"),
            None => format!("{BCAST}, {AVG}"),
        };
        let what = if warmup.is_some() {
            "callbacks: BroadcastGlobalVariablesCallback(0), MetricAverageCallback(), LearningRateWarmupCallback (the scaled rate ramps up over the first epochs)"
        } else {
            "callbacks: BroadcastGlobalVariablesCallback(0), MetricAverageCallback()"
        };
        let cbs = call
            .arguments
            .find_keyword("callbacks")
            .map(|k| &k.value)
            .or_else(|| {
                if is_fit {
                    call.arguments.args.get(5)
                } else {
                    None
                }
            });
        match cbs {
            None | Some(Expr::NoneLiteral(_)) => {
                let text = format!("[{hvd_cbs}]");
                match cbs {
                    None => cx.edit(
                        m,
                        RULE,
                        call.start(),
                        add_keyword_edit(cx.src(m), call, &format!("callbacks={text}")),
                        what,
                    ),
                    Some(e) => cx.edit(m, RULE, e.start(), Edit::replace(e.range(), text), what),
                }
            }
            Some(Expr::List(list)) if !list.elts.iter().any(|e| matches!(e, Expr::Starred(_))) => {
                let mut rank0 = Vec::new();
                for e in &list.elts {
                    let is_rank0 = match e {
                        Expr::Call(k) => idx
                            .canonical(m, &k.func)
                            .is_some_and(|q| tf::is_rank0_callback(&q)),
                        e => idx.kind_of(scope, e) == (Kind::Callback { rank0: true }),
                    };
                    if is_rank0 {
                        rank0.push(cx.text(m, e));
                    }
                }
                let multiline = list
                    .elts
                    .first()
                    .is_some_and(|e| cx.line_of(m, e.start()) != cx.line_of(m, list.start()));
                let head = if multiline {
                    let indent = cx.indent_of(m, &list.elts[0]).to_owned();
                    let nl = cx.nl(m);
                    let mut h = format!("{nl}{indent}{BCAST},{nl}{indent}{AVG},");
                    if let Some(w) = &warmup {
                        h.push_str(&format!("{nl}{indent}{w},"));
                    }
                    h
                } else if list.elts.is_empty() {
                    hvd_cbs.clone()
                } else {
                    format!("{hvd_cbs}, ")
                };
                let at = list.start() + TextSize::from(1);
                if rank0.is_empty() {
                    cx.edit(m, RULE, list.start(), Edit::insert(at, head), what);
                } else {
                    // Keep the list as written; move the rank-0 callbacks out of it.
                    cx.edit(m, RULE, list.start(), Edit::insert(at, head), "");
                    let elts: Vec<&Expr> = list.elts.iter().collect();
                    let is0: Vec<bool> = elts
                        .iter()
                        .map(|e| rank0.contains(&cx.text(m, *e)))
                        .collect();
                    for (i, e) in elts.iter().enumerate() {
                        if !is0[i] {
                            continue;
                        }
                        let r = if i + 1 < elts.len() {
                            ruff_text_size::TextRange::new(e.start(), elts[i + 1].start())
                        } else if i > 0 && !is0[i - 1] {
                            ruff_text_size::TextRange::new(elts[i - 1].end(), e.end())
                        } else {
                            e.range()
                        };
                        cx.edit(m, RULE, e.start(), Edit::delete(r), "");
                    }
                    cx.edit(
                        m,
                        RULE,
                        list.start(),
                        Edit::insert(
                            list.end(),
                            format!(" + ([{}] if hvd.rank() == 0 else [])", rank0.join(", ")),
                        ),
                        format!(
                            "callbacks: Horovod's first; {} on rank 0 only",
                            rank0.join(", ")
                        ),
                    );
                }
            }
            Some(e) => {
                let keras = cx.keras_path(m);
                let kc = format!("{keras}.callbacks");
                cx.edit(
                    m,
                    RULE,
                    e.start(),
                    Edit::insert(e.start(), format!("[{hvd_cbs}] + [hvd_cb for hvd_cb in ")),
                    "",
                );
                cx.edit(m, RULE, e.start(), Edit::insert(e.end(), format!(
                    " if hvd.rank() == 0 or not isinstance(hvd_cb, ({kc}.ModelCheckpoint, {kc}.TensorBoard, {kc}.CSVLogger))]")),
                    format!("callbacks `{}`: Horovod's first; checkpoint/TensorBoard/CSV callbacks on rank 0 only", cx.text(m, e)));
            }
        }
        cx.use_hvd(scope);
    }
}

/// Graph-mode Keras (TF1 style): Horovod 0.28.1's Keras callbacks call
/// `keras.backend.get_session()`, which TensorFlow 2's Keras no longer has (an `AttributeError`
/// on 2 real ranks). As Horovod's TF1 guide does, the variables are broadcast through the
/// session before `fit` instead (`get_session()` initialises them first); metrics stay per rank.
fn graph_mode_broadcast(cx: &mut Cx, fit: usize) {
    let idx = cx.idx;
    let c = &idx.calls[fit];
    let m = c.scope.module;
    let stmt = idx.stmts[c.stmt].stmt;
    let tfn = cx.tf_or_import(m);
    let v1 = if idx.modules[m]
        .aliases
        .get(&tfn)
        .is_some_and(|q| q == "tensorflow.compat.v1")
    {
        tfn
    } else {
        format!("{tfn}.compat.v1")
    };
    cx.mods[m].needs_hvd_tf = true;
    let line =
        format!("{v1}.keras.backend.get_session().run(hvd_tf.broadcast_global_variables(0))");
    cx.insert_lines_before(m, RULE, stmt, &[line],
        "graph-mode Keras: variables broadcast from rank 0 through the session before `fit` (Horovod's Keras callbacks need keras.backend.get_session, gone in TF 2)");
    cx.use_hvd(c.scope);
}

/// `hvd.callbacks.LearningRateWarmupCallback(...)` for this `fit`, when its model's `compile`
/// optimizer has a numeric learning rate that `scale_learning_rate` scales.
fn warmup_callback(
    cx: &mut Cx,
    scope: crate::index::Scope,
    fit: &ruff_python_ast::ExprCall,
    fit_stmt: crate::index::StmtId,
) -> Option<String> {
    let mut epochs = cx.opts.tf.lr_warmup_epochs;
    // A `fit` of E epochs (a number) warms up over at most E - 1 of them, so that at least its
    // last epoch trains at the scaled rate (a 3-epoch warm-up in a 2-epoch fit never got there).
    if let Some(Expr::NumberLiteral(n)) = fit.arguments.find_keyword("epochs").map(|k| &k.value)
        && let ruff_python_ast::Number::Int(e) = &n.value
        && let Some(e) = e.as_u64()
    {
        epochs = epochs.min(u32::try_from(e.saturating_sub(1)).unwrap_or(u32::MAX));
    }
    if epochs == 0 {
        return None;
    }
    let idx = cx.idx;
    let Expr::Attribute(fa) = &*fit.func else {
        return None;
    };
    let recv = &fa.value;
    let recv_text = cx.text(scope.module, &**recv);
    if let Some(cl) = idx.instance_class(scope, recv)
        && idx
            .method(cl, "train_step")
            .is_some_and(|f| cx.reach.fit_steps.contains(&f))
    {
        return None;
    }
    // The model's compile call: the same receiver text, in reached code.
    let compile = crate::tf::rules::keras_distributed_optimizer::compile_calls(cx)
        .into_iter()
        .find(|(cs, c)| matches!(&*c.func, Expr::Attribute(a) if cx.text(cs.module, &*a.value) == recv_text))?;
    let (cs, ccall) = compile;
    if fitted_before(cx, scope.module, fit, recv_text) {
        return None;
    }
    // A `fit` in a loop over one compiled optimizer (`for e in range(4): model.fit(..., epochs=1)`)
    // would start the warm-up again at every call from the rate the last one left: the rate
    // would fall by N each time instead of rising once. No warm-up there.
    if let Some(l) = crate::editor::nearest_loop(idx, fit_stmt) {
        let compiled_inside = idx
            .calls
            .iter()
            .find(|ci| std::ptr::eq(ci.call, ccall))
            .is_some_and(|ci| crate::editor::within(idx, ci.stmt, l));
        if !compiled_inside {
            return None;
        }
    }
    let opt = super::keras_distributed_optimizer::compile_optimizer(ccall);
    let numeric_lr = match opt {
        // Keras's default, or a name: a numeric default rate.
        None | Some(Expr::StringLiteral(_)) => true,
        Some(e) => optimizer_call(idx, cs, e).is_some_and(|oc| {
            let lr = oc
                .arguments
                .find_keyword("learning_rate")
                .or_else(|| oc.arguments.find_keyword("lr"))
                .map(|k| &k.value)
                .or(oc.arguments.args.first());
            match lr {
                None => true,
                Some(v) => {
                    matches!(v, Expr::NumberLiteral(_))
                        || (matches!(v, Expr::Name(_) | Expr::BinOp(_) | Expr::Attribute(_))
                            && !matches!(idx.kind_of(cs, v), Kind::Schedule))
                }
            }
        }),
    };
    if !numeric_lr {
        return None;
    }
    // `ranklift_tf`'s callback reads the optimizer's rate when training starts (Keras 3 has no
    // `backend.get_value`); Horovod's needs it given.
    if cx.engine == crate::tf::context::Engine::Collectives {
        return Some(format!(
            "hvd.callbacks.LearningRateWarmupCallback(warmup_epochs={epochs}, momentum_correction=False, verbose=0)"
        ));
    }
    let keras = cx.keras_path(scope.module);
    Some(format!(
        "hvd.callbacks.LearningRateWarmupCallback(initial_lr={keras}.backend.get_value({recv_text}.optimizer.learning_rate), warmup_epochs={epochs}, momentum_correction=False, verbose=0)"
    ))
}

/// Is the model `recv_text` already fitted, in reached code of module `m`, by a `fit` above this
/// one with no `compile` of it in between (`model.fit(clean, ...)` then `model.fit(noisy, ...)`)?
/// The second call continues with the first's optimizer, already warmed up to the scaled rate:
/// a warm-up of its own would start again from that rate divided by N (and, if the first stopped
/// early, from a rate it had not reached).
fn fitted_before(cx: &Cx, m: usize, fit: &ruff_python_ast::ExprCall, recv_text: &str) -> bool {
    let on_model = |c: &ruff_python_ast::ExprCall, method: &[&str]| {
        matches!(&*c.func, Expr::Attribute(a)
            if method.contains(&a.attr.as_str()) && cx.text(m, &*a.value) == recv_text)
    };
    // The last compile of the model above this fit, in this module.
    let compiled = crate::tf::rules::keras_distributed_optimizer::compile_calls(cx)
        .into_iter()
        .filter(|(cs, c)| cs.module == m && c.start() < fit.start() && on_model(c, &["compile"]))
        .map(|(_, c)| c.start())
        .max();
    cx.reach.fits.iter().any(|&f| {
        let c = &cx.idx.calls[f];
        c.scope.module == m
            && c.call.start() < fit.start()
            && compiled.is_none_or(|s| c.call.start() > s)
            && on_model(c.call, &["fit", "fit_generator"])
    })
}

/// The optimizer constructor call an expression denotes (the call, or a name assigned it).
fn optimizer_call<'a>(
    idx: &crate::index::Index<'a>,
    scope: crate::index::Scope,
    e: &'a Expr,
) -> Option<&'a ruff_python_ast::ExprCall> {
    match e {
        Expr::Call(c) => idx
            .canonical(scope.module, &c.func)
            .is_some_and(|q| tf::optimizer_class(&q).is_some())
            .then_some(c),
        Expr::Name(n) => {
            let (s, values) = idx.assignments(scope, n.id.as_str());
            optimizer_call(idx, s, values.first()?)
        }
        _ => None,
    }
}
