//! Rule `write_handles`: a file kept open for writing is rank 0's; the other ranks write to
//! `os.devnull`.
//!
//! **Trigger:** `open(path, mode)` with a writing mode (`w`, `a`, `x`, `+`) bound to a name or an
//! attribute (`self.csv_file = open(filename, "w")`, a CSV logger's handle written to by its
//! methods later), in the code the main script runs. A `with open(...)` block is rule
//! `rank0_only`'s (the whole block goes under the guard).
//!
//! **Rewrite:** `open(path if RANK == 0 else os.devnull, mode)`.
//!
//! **Why:** the handle is written to from many places (`writer.writerow(row)` every epoch, a
//! `close()` at the end); guarding each would leave the handle unbound on the other ranks. Bound
//! to `os.devnull` there, every call still works and writes nothing, while rank 0 writes the one
//! file — not N processes racing on it.
//!
//! ```python
//! # before
//! self.csv_file = open(filename, "w")
//! # after
//! self.csv_file = open(filename if RANK == 0 else os.devnull, "w")
//! ```
use ranklift_python::Edit;
use ruff_python_ast::{Expr, Stmt};
use ruff_text_size::Ranged;

use crate::torch::Tx;

const RULE: &str = "write_handles";

pub fn run(tx: &mut Tx) {
    let idx = tx.idx;
    for c in idx.calls.iter() {
        let m = c.scope.module;
        if !tx.plan.in_reach(m) || tx.plan.dormant[c.stmt] {
            continue;
        }
        if c.scope.func.is_some_and(|f| tx.plan.never_run.contains(&f)) {
            continue;
        }
        if !matches!(&*c.call.func, Expr::Name(n) if n.id.as_str() == "open")
            || idx.modules[m].aliases.contains_key("open")
        {
            continue;
        }
        // Bound as the whole value of an assignment.
        let Stmt::Assign(a) = idx.stmts[c.stmt].stmt else {
            continue;
        };
        if a.value.range() != c.call.range() {
            continue;
        }
        let mode = c
            .call
            .arguments
            .args
            .get(1)
            .or_else(|| c.call.arguments.find_keyword("mode").map(|k| &k.value));
        let writing = matches!(mode, Some(Expr::StringLiteral(s))
            if s.value.to_str().chars().any(|ch| matches!(ch, 'w' | 'a' | 'x' | '+')));
        let Some(path) = c.call.arguments.args.first() else {
            continue;
        };
        if !writing || crate::editor::per_rank_path(idx, c.scope, c.call) {
            continue;
        }
        let rank = tx.names[m].rank.clone();
        tx.needs[m].rank = true;
        let text = tx.ed.text(m, path);
        tx.ed.edit(
            m,
            RULE,
            path.start(),
            Edit::replace(
                path.range(),
                format!("{text} if {rank} == 0 else os.devnull"),
            ),
            "the file kept open for writing is rank 0's; the other ranks write to os.devnull",
        );
    }
}
