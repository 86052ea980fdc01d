//! Check `collective_under_rank` (DST412): a collective that only some ranks reach.
//!
//! **Trigger:** a `torch.distributed` collective or barrier (`names::is_collective`) under an
//! `if` whose test reads the rank.
//!
//! Not triggered by the "rank 0 first" pairing, where a sibling `if` with another rank test
//! calls the same collective (`if rank != 0: dist.barrier()` ... `if rank == 0: dist.barrier()`):
//! every rank then calls it once.
//!
//! **Why:** a collective completes only when every rank of the group calls it; the ranks that
//! skip it leave the others waiting forever (pytorch#54059 and many more).
//!
//! ```python
//! if dist.get_rank() == 0:
//!     dist.barrier()                     # DST412: ranks != 0 never arrive
//! ```
use ranklift_python::{Diagnostic, Severity};
use ruff_text_size::Ranged;

use super::under_rank_condition;
use crate::index::Index;
use crate::index::diag;
use crate::torch::{names, plan::Plan};

pub fn run(idx: &Index, plan: &Plan, out: &mut Vec<Diagnostic>) {
    for c in idx.calls.iter().filter(|c| plan.in_reach(c.scope.module)) {
        let m = c.scope.module;
        let Some(q) = idx.canonical(m, &c.call.func) else {
            continue;
        };
        if !names::is_collective(&q) {
            continue;
        }
        if let Some(cond) = under_rank_condition(idx, c.stmt)
            && !paired(idx, plan, cond, &q)
        {
            let test = idx
                .text(m, idx.stmts[cond].stmt)
                .lines()
                .next()
                .unwrap_or("")
                .trim()
                .to_owned();
            out.push(diag(idx, m, c.call.range(), crate::codes::COLLECTIVE_UNDER_RANK, Severity::Error,
                format!("`{}` runs only where `{test}` holds: the other ranks never join it and the job hangs", idx.text(m, &*c.call.func)),
                "call collectives and barriers on every rank: move it out of the rank condition"));
        }
    }
}

/// Does a sibling of the `if` statement `cond` (same body), with a different rank test, call the
/// same collective?
fn paired(idx: &Index, plan: &Plan, cond: usize, q: &str) -> bool {
    use ruff_python_ast::Stmt;
    let info = &idx.stmts[cond];
    let m = info.scope.module;
    let Stmt::If(mine) = info.stmt else {
        return false;
    };
    let my_test = idx.text(m, &*mine.test);
    idx.modules[m].stmts.clone().any(|o| {
        let oi = &idx.stmts[o];
        let Stmt::If(other) = oi.stmt else {
            return false;
        };
        o != cond
            && oi.parent == info.parent
            && oi.body == info.body
            && idx.text(m, &*other.test) != my_test
            && under_rank_condition(idx, o).is_none()
            && idx
                .text(m, &*other.test)
                .to_ascii_lowercase()
                .contains("rank")
            && idx.calls.iter().any(|c| {
                plan.in_reach(c.scope.module)
                    && c.scope.module == m
                    && oi.stmt.range().contains_range(c.call.range())
                    && idx.canonical(m, &c.call.func).as_deref() == Some(q)
            })
    })
}
