//! Check `unresolved_data` (DST405): a training loop whose data ranklift cannot follow.
//!
//! **Trigger:** a `for` loop that steps the optimizer and iterates something that is not a
//! `DataLoader` ranklift can follow (through names, `self.` attributes, function parameters and
//! returns); or a `for step in range(n)` loop that steps and draws no batch with `next(it)` from
//! such a loader's iterator (full-batch training, tensors sliced by index: word-language models,
//! LBFGS fits); or an optimizer step that no such loop runs at all (a full-graph step called
//! once per epoch).
//!
//! **Why:** without a loader there is no sampler to split the data: every rank would train on
//! all of it, N times the work for the same result. Saying so beats a rewrite that looks right.
//!
//! ```python
//! for x, y in batches:          # a list of tensors: DST405
//!     loss = loss_fn(model(x), y); loss.backward(); optimizer.step()
//! ```
use ranklift_python::Severity;
use ruff_python_ast::Stmt;
use ruff_text_size::Ranged;

use crate::torch::Tx;

pub fn run(tx: &mut Tx) {
    let idx = tx.idx;
    for &c in &tx.plan.unfed_steps {
        let ci = &idx.calls[c];
        // A `while i < len(data)` walk ranklift could not split says why.
        let why = crate::editor::nearest_loop(idx, ci.stmt)
            .and_then(|lp| tx.plan.not_streams.get(&lp))
            .map(|w| format!(" (its loop walks rows by hand, but {w})"))
            .unwrap_or_default();
        tx.ed.diag(ci.scope.module, ci.call.range(), crate::codes::UNRESOLVED_DATA, Severity::Error,
            format!("no loop over a DataLoader runs this optimizer step (full-batch training{why}): every rank would train on the same data (no split, no speed-up)"),
            "feed the step from a torch.utils.data.DataLoader (ranklift then adds a DistributedSampler), or split the data by RANK yourself");
    }
    for &s in &tx.plan.unresolved_loops {
        let Stmt::For(f) = idx.stmts[s].stmt else {
            continue;
        };
        let m = idx.stmts[s].scope.module;
        tx.ed.diag(m, f.iter.range(), crate::codes::UNRESOLVED_DATA, Severity::Error,
            if idx.text(m, crate::torch::plan::loop_source(&f.iter)).starts_with("range(") {
                format!("this training loop counts steps with `{}` and draws no batch from a DataLoader{}: every rank would train on the same data (no split, no speed-up)", idx.text(m, &*f.iter),
                    tx.plan.not_streams.get(&s).map(|w| format!(" (read as a walk over rows by hand, {w})")).unwrap_or_default())
            } else {
                format!("this training loop iterates `{}`, which is not a DataLoader ranklift can follow: its data would not be split between ranks", idx.text(m, &*f.iter))
            },
            "iterate a torch.utils.data.DataLoader built from a Dataset (ranklift then adds a DistributedSampler), or split the data by RANK yourself");
    }
}
