//! Rule `tf1_distributed_optimizer`: TF1 optimizers average gradients across processes.
//!
//! **Trigger:** every construction of a TF1 optimizer (`tf.compat.v1.train.*Optimizer(...)`,
//! through any alias) in reached code — assigned, chained (`AdamOptimizer(lr).minimize(loss)`),
//! or inside an Estimator's `model_fn`.
//!
//! **Rewrite:** the constructor call is wrapped in `hvd.DistributedOptimizer(...)` where it
//! stands, so `minimize`, `compute_gradients` and `apply_gradients` all go through Horovod's
//! allreduce (Horovod's TF1 guide, step 4). Its learning rate is scaled by `scale_learning_rate`.
//! Every optimizer is wrapped, whatever its class (a tool that wraps only the optimizers it
//! knows by name leaves the others averaging nothing).
//!
//! ```python
//! # before
//! train_op = tf.train.AdamOptimizer(0.01).minimize(loss)
//! # after
//! train_op = hvd.DistributedOptimizer(tf.train.AdamOptimizer(0.01 * hvd.size())).minimize(loss)
//! ```
use ranklift_python::Edit;
use ruff_text_size::Ranged;

use crate::tf::context::Cx;
use crate::tf::names as tf;

const RULE: &str = "tf1_distributed_optimizer";

pub fn run(cx: &mut Cx) {
    for (c, q) in cx.reached_calls() {
        let Some(name) = q.as_deref().and_then(tf::tf1_optimizer) else {
            continue;
        };
        let m = c.scope.module;
        cx.edit(
            m,
            RULE,
            c.call.start(),
            Edit::insert(c.call.start(), "hvd.DistributedOptimizer("),
            "",
        );
        cx.edit(
            m,
            RULE,
            c.call.start(),
            Edit::insert(c.call.end(), ")"),
            format!("`{name}` wrapped in hvd.DistributedOptimizer"),
        );
        cx.use_hvd(c.scope);
    }
}
