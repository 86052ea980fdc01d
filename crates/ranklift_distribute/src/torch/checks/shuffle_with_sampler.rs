//! Check `shuffle_with_sampler` (DST414): a loader with both `shuffle=True` and a sampler.
//!
//! **Trigger:** `DataLoader(..., shuffle=True, sampler=...)`.
//!
//! **Why:** `DataLoader` raises `ValueError: sampler option is mutually exclusive with shuffle`;
//! the shuffle belongs to the `DistributedSampler` (`DistributedSampler(ds, shuffle=True)`).
//!
//! ```python
//! DataLoader(ds, shuffle=True, sampler=DistributedSampler(ds))   # DST414
//! ```
use ranklift_python::{Diagnostic, Severity};
use ruff_python_ast::Expr;
use ruff_text_size::Ranged;

use crate::index::Index;
use crate::index::diag;
use crate::torch::{names, plan::Plan};

pub fn run(idx: &Index, plan: &Plan, out: &mut Vec<Diagnostic>) {
    for c in idx.calls.iter().filter(|c| plan.in_reach(c.scope.module)) {
        let m = c.scope.module;
        if !idx
            .qualify(m, &c.call.func)
            .is_some_and(|q| names::is_data_loader(&q))
        {
            continue;
        }
        let kw = |name: &str| {
            c.call
                .arguments
                .keywords
                .iter()
                .find(|k| k.arg.as_ref().is_some_and(|a| a.as_str() == name))
        };
        if let (Some(s), Some(_)) = (kw("shuffle"), kw("sampler"))
            && matches!(&s.value, Expr::BooleanLiteral(b) if b.value)
        {
            out.push(diag(idx, m, s.range(), crate::codes::SHUFFLE_WITH_SAMPLER, Severity::Error,
                "`shuffle=True` together with `sampler=`: DataLoader raises ValueError (they are mutually exclusive)",
                "drop `shuffle=True` and pass `shuffle=True` to the DistributedSampler instead"));
        }
    }
}
