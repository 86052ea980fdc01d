//! Check `no_model` (DST409): the optimizers train no model ranklift can name.
//!
//! **Trigger:** no optimizer of the program takes `model.parameters()` (or
//! `model.named_parameters()`, directly, in a list of parameter groups, or through a name or a
//! function parameter) of a model held by a name or a `self.` attribute.
//!
//! **Why:** DDP wraps a module; raw tensors passed to an optimizer have no module to wrap, and
//! averaging their gradients would need hand-written all-reduces.
//!
//! ```python
//! w = torch.zeros(3, requires_grad=True)
//! opt = torch.optim.SGD([w], lr=0.1)     # DST409
//! ```
use ranklift_python::Severity;
use ruff_text_size::Ranged;

use crate::torch::Tx;

pub fn run(tx: &mut Tx) {
    if !tx.plan.models.is_empty() {
        return;
    }
    let idx = tx.idx;
    if let Some(&o) = tx.plan.optimizers.first() {
        let c = &idx.calls[o];
        tx.ed.diag(c.scope.module, c.call.range(), crate::codes::NO_MODEL, Severity::Error,
            "this optimizer trains no nn.Module that ranklift can name: there is nothing to wrap in DistributedDataParallel",
            "give the optimizer `model.parameters()` of an nn.Module held by a variable or a `self.` attribute");
    }
}
