//! Rule `tf1_rank0_dirs`: TF1 checkpoints and summaries are written by rank 0 only.
//!
//! **Trigger:** `MonitoredTrainingSession(checkpoint_dir=D)` and `Estimator(model_dir=D)`
//! (keyword or, for the Estimator, second positional).
//!
//! **Rewrite:** `D if hvd.rank() == 0 else None`, as in Horovod's TF1 examples: the other ranks
//! neither write checkpoints nor summaries (an Estimator without `model_dir` uses a private
//! temporary directory).
//!
//! ```python
//! # before
//! est = tf.estimator.Estimator(model_fn=model_fn, model_dir="/tmp/model")
//! # after
//! est = tf.estimator.Estimator(model_fn=model_fn, model_dir="/tmp/model" if hvd.rank() == 0 else None)
//! ```
use ruff_python_ast::Expr;
use ruff_text_size::Ranged;

use crate::tf::context::Cx;

const RULE: &str = "tf1_rank0_dirs";

pub fn run(cx: &mut Cx) {
    let idx = cx.idx;
    let sites: Vec<(usize, &str, Option<usize>)> = cx
        .reach
        .monitored_sessions
        .iter()
        .map(|&c| (c, "checkpoint_dir", None))
        .chain(
            cx.reach
                .estimators
                .iter()
                .map(|&c| (c, "model_dir", Some(1))),
        )
        .collect();
    for (c, kw, pos) in sites {
        let info = &idx.calls[c];
        let m = info.scope.module;
        let d = info
            .call
            .arguments
            .find_keyword(kw)
            .map(|k| &k.value)
            .or_else(|| pos.and_then(|p| info.call.arguments.args.get(p)));
        let Some(d) = d else { continue };
        if matches!(d, Expr::NoneLiteral(_)) {
            continue;
        }
        let text = cx.text(m, d).to_owned();
        cx.suffix(m, RULE, d, "if hvd.rank() == 0 else None");
        cx.note(m, RULE, d.start(), format!("`{kw}={text}` on rank 0 only"));
        cx.use_hvd(info.scope);
    }
}
