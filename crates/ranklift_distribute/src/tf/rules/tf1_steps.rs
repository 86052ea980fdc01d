//! Rule `tf1_steps`: each of N TF1 processes runs 1/N of the training steps.
//!
//! **Trigger:** `tf.train.StopAtStepHook(num_steps=..., last_step=...)` (keywords or positions)
//! and `estimator.train(..., steps=..., max_steps=...)`.
//!
//! **Rewrite:** each count `n` becomes `n // hvd.size()` (Horovod's TF1 examples:
//! `StopAtStepHook(last_step=20000 // hvd.size())`, `train(steps=20000 // hvd.size())`). Session
//! loops (`for i in range(n): sess.run(train_op)`) are divided by `shard_training_steps`.
//!
//! ```python
//! # before
//! hooks = [tf.train.StopAtStepHook(last_step=2000)]
//! # after
//! hooks = [tf.train.StopAtStepHook(last_step=2000 // hvd.size())]
//! ```
use ruff_python_ast::Expr;
use ruff_text_size::Ranged;

use crate::tf::context::Cx;
use crate::tf::names as tf;

const RULE: &str = "tf1_steps";

pub fn run(cx: &mut Cx) {
    let idx = cx.idx;
    let mut targets: Vec<(crate::index::Scope, &Expr, &'static str)> = Vec::new();
    for (c, q) in cx.reached_calls() {
        if q.as_deref() == Some(tf::STOP_AT_STEP_HOOK) {
            for (kw, pos) in [("num_steps", 0), ("last_step", 1)] {
                if let Some(v) = c.call.arguments.find_argument_value(kw, pos) {
                    targets.push((c.scope, v, kw));
                }
            }
        }
    }
    for &t in &cx.reach.estimator_trains {
        let c = &idx.calls[t];
        for (kw, pos) in [("steps", 2), ("max_steps", 3)] {
            if let Some(v) = c.call.arguments.find_argument_value(kw, pos) {
                targets.push((c.scope, v, kw));
            }
        }
    }
    for (scope, v, kw) in targets {
        if matches!(v, Expr::NoneLiteral(_)) {
            continue;
        }
        let m = scope.module;
        cx.suffix(m, RULE, v, "// hvd.size()");
        cx.note(
            m,
            RULE,
            v.start(),
            format!("`{kw}={}` divided by hvd.size()", cx.text(m, v)),
        );
        cx.use_hvd(scope);
    }
}
