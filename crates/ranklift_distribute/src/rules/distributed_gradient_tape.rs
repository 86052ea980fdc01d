//! Rule `distributed_gradient_tape`: average gradients across processes.
//!
//! **Trigger:** `with tf.GradientTape(...) as t:` (any arguments, e.g. `persistent=True`; any
//! number of with-items) in code that performs a training step — the function that calls
//! `apply_gradients`, or a function such a step calls to compute gradients. A tape used for
//! something else (saliency maps, evaluation) is left alone: wrapping it would make only the ranks
//! that run it wait for an allreduce.
//!
//! **Rewrite:** after the `with` block, `t = hvd.DistributedGradientTape(t)` for every tape of the
//! statement (seed 001 §2.2 with-rule, which only handled a single item). Also inside a Keras
//! model's own `train_step` run by `fit`: Horovod's Keras optimizer wrapper averages gradients
//! only inside `minimize`, which such a step does not call, so without the tape the ranks
//! silently diverge (measured on Keras 2.13). There `hvd` is `horovod.tensorflow.keras`, which has
//! no tape wrapper: `hvd_tf.DistributedGradientTape` from `import horovod.tensorflow as hvd_tf`.
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

use crate::context::Cx;
use crate::tf;

const RULE: &str = "distributed_gradient_tape";

pub fn run(cx: &mut Cx) {
    let idx = cx.idx;
    let reach = cx.reach;
    for &s in &reach.tapes {
        let info = &idx.stmts[s];
        let Stmt::With(w) = info.stmt else { continue };
        let scope = info.scope;
        let m = scope.module;
        let trains = reach.scope_trains(idx, scope)
            || scope.func.is_some_and(|f| {
                reach.edges.iter().any(|(caller, callees)| {
                    callees.contains(&f) && reach.scope_trains(idx, *caller)
                })
            });
        if !trains {
            cx.diag(m, w.items[0].range(), "DST208", Severity::Note,
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
                _ => cx.diag(m, item.range(), "DST205", Severity::Error,
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
        cx.insert_lines_after(m, RULE, w, &lines, msg);
        cx.use_hvd(scope);
    }
}
