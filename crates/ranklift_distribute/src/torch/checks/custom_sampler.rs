//! Check `custom_sampler` (DST401): a training loader brings its own sampler.
//!
//! **Trigger:** a training loader called with `sampler=` or `batch_sampler=` (but samplers that
//! draw with replacement, `RandomSampler(..., replacement=True)` and `WeightedRandomSampler`:
//! rule `replacement_sampler`; and `SubsetRandomSampler` of an index list: rule `subset_sampler`).
//!
//! **Why:** the sampler decides which samples a process reads; a `WeightedRandomSampler` or a
//! bucketing batch sampler has no distributed counterpart that ranklift could substitute without
//! changing what the program means.
//!
//! ```python
//! loader = DataLoader(ds, batch_size=32, sampler=WeightedRandomSampler(w, len(w)))   # DST401
//! ```
use ranklift_python::Severity;
use ruff_text_size::Ranged;

use crate::torch::Tx;

pub fn run(tx: &mut Tx) {
    let idx = tx.idx;
    for l in &tx.plan.loaders {
        // Sampling with replacement: each rank seeds its own stream (rule `replacement_sampler`).
        if l.replacement_sampler.is_some() {
            continue;
        }
        // A shuffle of an index list: each rank samples its share (rule `subset_sampler`).
        if l.subset_sampler.is_some() {
            continue;
        }
        let c = &idx.calls[l.call];
        for k in &c.call.arguments.keywords {
            let Some(a) = &k.arg else { continue };
            if matches!(a.as_str(), "sampler" | "batch_sampler") {
                tx.ed.diag(c.scope.module, k.range(), crate::codes::CUSTOM_SAMPLER, Severity::Error,
                    format!("the training loader has its own `{a}`: ranklift cannot split its data without changing which samples it draws"),
                    "write a sampler that draws this rank's share (subclass torch.utils.data.distributed.DistributedSampler), then launch with torchrun");
            }
        }
    }
}
