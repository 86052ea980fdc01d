//! Check `unsharded_training_loader` (DST415): a DDP program whose training loader has no
//! sampler.
//!
//! **Trigger:** in a program on `torch.distributed`, a loader that a training loop iterates is
//! built without `sampler=` or `batch_sampler=`.
//!
//! **Why:** every rank then trains on the whole dataset: N times the work, and with `shuffle`
//! each rank sees its own order of the same data rather than a share of it.
//!
//! ```python
//! loader = DataLoader(ds, batch_size=32, shuffle=True)    # DST415 in a DDP program
//! ```
use ranklift_python::{Diagnostic, Severity};
use ruff_text_size::Ranged;

use crate::index::Index;
use crate::index::diag;
use crate::torch::plan::Plan;

pub fn run(idx: &Index, plan: &Plan, out: &mut Vec<Diagnostic>) {
    for l in &plan.loaders {
        let c = &idx.calls[l.call];
        let has = c.call.arguments.keywords.iter().any(|k| {
            k.arg
                .as_ref()
                .is_some_and(|a| matches!(a.as_str(), "sampler" | "batch_sampler"))
        });
        if !has {
            out.push(diag(idx, c.scope.module, c.call.range(), crate::codes::UNSHARDED_TRAINING_LOADER, Severity::Warning,
                "the training loader of this DDP program has no sampler: every rank trains on the whole dataset",
                "pass `sampler=DistributedSampler(dataset, shuffle=...)` (and drop the loader's `shuffle=`)"));
        }
    }
}
