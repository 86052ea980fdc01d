//! Check `missing_set_epoch` (DST410): a `DistributedSampler` whose epoch never advances.
//!
//! **Trigger:** a program on `torch.distributed` creates a `DistributedSampler` and nothing in
//! the modules the main script reaches calls `.set_epoch(...)`.
//!
//! **Why:** the sampler seeds its shuffle with its epoch; without `set_epoch` every epoch
//! replays the order of the first (pytorch#31771, fixed by hand in many projects).
//!
//! ```python
//! sampler = DistributedSampler(ds)       # DST410: no sampler.set_epoch(epoch) anywhere
//! ```
use ranklift_python::{Diagnostic, Severity};
use ruff_python_ast::Expr;
use ruff_text_size::Ranged;

use crate::index::Index;
use crate::index::diag;
use crate::torch::{names, plan::Plan};

pub fn run(idx: &Index, plan: &Plan, out: &mut Vec<Diagnostic>) {
    let reached = idx.calls.iter().filter(|c| plan.in_reach(c.scope.module));
    let sets_epoch = reached
        .clone()
        .any(|c| matches!(&*c.call.func, Expr::Attribute(a) if a.attr.as_str() == "set_epoch"));
    if sets_epoch {
        return;
    }
    for c in reached {
        let m = c.scope.module;
        if idx
            .qualify(m, &c.call.func)
            .is_some_and(|q| names::is_distributed_sampler(&q))
            && !c.call.arguments.keywords.iter().any(|k| {
                k.arg.as_ref().is_some_and(|a| a.as_str() == "shuffle")
                    && matches!(&k.value, Expr::BooleanLiteral(b) if !b.value)
            })
        {
            out.push(diag(idx, m, c.call.range(), crate::codes::MISSING_SET_EPOCH, Severity::Warning,
                "this DistributedSampler never gets `set_epoch`: every epoch replays the same order",
                "call `sampler.set_epoch(epoch)` (or `loader.sampler.set_epoch(epoch)`) at the top of every epoch"));
        }
    }
}
