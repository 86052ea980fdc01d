//! Check `unresolved_data` (DST305): a training loop whose data ranklift cannot follow.
//!
//! **Trigger:** a `for` loop that steps the optimizer and iterates something that is neither a
//! `DataLoader` ranklift can follow (through names, `self.` attributes, function parameters and
//! returns) nor a `range` (which rule `step_counts` handles).
//!
//! **Why:** without a loader there is no sampler to split the data: every rank would train on
//! all of it, N times the work for the same result. Saying so beats a rewrite that looks right.
//!
//! ```python
//! for x, y in batches:          # a list of tensors: DST305
//!     loss = loss_fn(model(x), y); loss.backward(); optimizer.step()
//! ```
use ranklift_python::Severity;
use ruff_python_ast::Stmt;
use ruff_text_size::Ranged;

use crate::torch::Tx;

pub fn run(tx: &mut Tx) {
    let idx = tx.idx;
    for &s in &tx.plan.unresolved_loops {
        let Stmt::For(f) = idx.stmts[s].stmt else {
            continue;
        };
        let m = idx.stmts[s].scope.module;
        tx.ed.diag(m, f.iter.range(), "DST305", Severity::Error,
            format!("this training loop iterates `{}`, which is not a DataLoader ranklift can follow: its data would not be split between ranks", idx.text(m, &*f.iter)),
            "iterate a torch.utils.data.DataLoader built from a Dataset (ranklift then adds a DistributedSampler), or split the data by RANK yourself");
    }
}
