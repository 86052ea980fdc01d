//! Rule `plateau_metric`: a metric that drives a schedule is the same on every rank.
//!
//! **Trigger:** `scheduler.step(metric)` where `scheduler` holds a
//! `torch.optim.lr_scheduler.ReduceLROnPlateau`, as a statement of its own.
//!
//! **Rewrite:** the metric is averaged over the ranks first: two lines before the call put it
//! in a tensor and all-reduce it, and the call takes the average.
//!
//! **Why:** each rank computes the metric on its own data (its shard of the training set, or a
//! loss it has not reduced); `ReduceLROnPlateau` compares it with its best so far, so ranks with
//! different values cut their learning rates at different epochs and their models diverge
//! (DDP only averages gradients, not what a schedule decides from). The average is what the
//! undistributed program would have measured over all the data; a metric that is already equal
//! on every rank stays as it is.
//!
//! ```python
//! # before
//! scheduler.step(train_loss)
//! # after
//! plateau_metric = torch.tensor(float(train_loss))
//! dist.all_reduce(plateau_metric)
//! scheduler.step(plateau_metric.item() / WORLD_SIZE)
//! ```
use ranklift_python::Edit;
use ruff_python_ast::{Expr, Stmt};
use ruff_text_size::Ranged;

use crate::torch::Tx;
use crate::torch::plan::assigned_to;

const RULE: &str = "plateau_metric";

pub fn run(tx: &mut Tx) {
    let idx = tx.idx;
    // The names that hold a ReduceLROnPlateau, per module.
    let mut holders: Vec<(usize, String)> = Vec::new();
    for (id, c) in idx.calls.iter().enumerate() {
        if tx.plan.qual(id) == Some("torch.optim.lr_scheduler.ReduceLROnPlateau")
            && let Some(t) = assigned_to(idx, c.stmt, c.call)
        {
            holders.push((c.scope.module, idx.text(c.scope.module, t).to_owned()));
        }
    }
    if holders.is_empty() {
        return;
    }
    for c in idx.calls.iter() {
        let m = c.scope.module;
        if !tx.plan.in_reach(m) {
            continue;
        }
        let Expr::Attribute(a) = &*c.call.func else {
            continue;
        };
        if a.attr.as_str() != "step"
            || !holders
                .iter()
                .any(|(hm, h)| *hm == m && h == idx.text(m, &*a.value))
        {
            continue;
        }
        let metric = match (
            c.call.arguments.args.first(),
            c.call.arguments.keywords.first(),
        ) {
            (Some(e), _) => e,
            (None, Some(k)) if k.arg.as_ref().is_some_and(|n| n.as_str() == "metrics") => &k.value,
            _ => continue,
        };
        let stmt = idx.stmts[c.stmt].stmt;
        let alone = matches!(stmt, Stmt::Expr(e) if e.value.range() == c.call.range());
        if !alone || !tx.ed.lines_around_ok(c.stmt) {
            continue;
        }
        let dist = tx.dist(m);
        let ws = tx.world_size(m);
        let torch = tx.names[m].torch.clone();
        let value = tx.ed.text(m, metric).to_owned();
        tx.ed.insert_lines_before(
            m,
            RULE,
            stmt,
            &[
                format!("plateau_metric = {torch}.tensor(float({value}))"),
                format!("{dist}.all_reduce(plateau_metric)"),
            ],
            "the metric ReduceLROnPlateau decides from is averaged over the ranks, so every rank cuts its learning rate at the same epoch",
        );
        tx.ed.edit(
            m,
            RULE,
            metric.start(),
            Edit::replace(metric.range(), format!("plateau_metric.item() / {ws}")),
            "",
        );
    }
}
