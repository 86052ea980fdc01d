//! Rule `rank0_reads`: a file only rank 0 writes is read by the other ranks only once it is
//! there.
//!
//! **Trigger:** a statement every rank runs that reads a file (`np.load`, `json.load(open(p))`,
//! `PIL.Image.open`, `imageio.imread`, `pd.read_csv`, `open(p)`, ...: `crate::writers::
//! is_file_reader` and `crate::rank0_files::opens_a_file`) whose path is one a statement of rank
//! 0 alone writes (rule `rank0_only`: `np.save`, `plt.savefig`, `save_image`, `with open(p, "w")`,
//! ...) — the same literal text, f-string fields read as `{}`, or the same module-level name
//! (`crate::rank0_files`). Checkpoints (`torch.save` then `torch.load`) are rule
//! `checkpoint_load`'s.
//!
//! **Rewrite:** `dist.barrier()` before the read (before the `with open(...)` around it), when
//! every rank passes there the same number of times: the read is under no `if`, `while` or `try`
//! and in no loop of its function, and that function is not called from code only rank 0 runs.
//! Elsewhere a barrier could leave a rank waiting for ever, and the read is left as it is.
//!
//! **Why:** the other ranks would read a file rank 0 has not written yet, or is still writing
//! (`FileNotFoundError`, or a torn file) — the same defect as a TensorFlow tutorial that saves
//! one PNG per epoch on rank 0 and assembles them into a GIF on every rank.
//!
//! ```python
//! # before
//! for epoch in range(3):
//!     ...
//!     np.save(f"losses_{epoch}.npy", np.array(losses))
//! history = [np.load(f"losses_{e}.npy") for e in range(3)]
//! # after
//! for epoch in range(3):
//!     ...
//!     if RANK == 0:
//!         np.save(f"losses_{epoch}.npy", np.array(losses))
//! dist.barrier()
//! history = [np.load(f"losses_{e}.npy") for e in range(3)]
//! ```
use ruff_python_ast::{Expr, Stmt};

use crate::index::{Callee, StmtId};
use crate::rank0_files::{opens_a_file, path_tokens, rank0_paths};
use crate::torch::Tx;
use crate::torch::rules::checkpoint_load::under_condition;
use crate::torch::rules::rank0_only::rank0_stmt_of;

const RULE: &str = "rank0_reads";

pub fn run(tx: &mut Tx) {
    let idx = tx.idx;
    let reached: Vec<StmtId> = tx
        .plan
        .modules
        .clone()
        .into_iter()
        .flat_map(|m| idx.modules[m].stmts.clone())
        .filter(|&s| {
            !idx.stmts[s]
                .scope
                .func
                .is_some_and(|f| tx.plan.never_run.contains(&f))
                && tx.plan.runs_stmt(idx, s)
        })
        .collect();
    // What rank 0 alone writes (checkpoints aside).
    let writes: Vec<StmtId> = reached
        .iter()
        .copied()
        .filter(|&s| {
            let info = &idx.stmts[s];
            matches!(
                rank0_stmt_of(idx, info.scope, info.stmt),
                Some("output call" | "file write")
            )
        })
        .collect();
    if writes.is_empty() {
        return;
    }
    let (lits, names) = rank0_paths(idx, &writes);
    let on_rank0 = |s: StmtId| {
        let mut cur = Some(s);
        while let Some(u) = cur {
            if writes.contains(&u) || {
                let info = &idx.stmts[u];
                rank0_stmt_of(idx, info.scope, info.stmt).is_some()
            } {
                return true;
            }
            cur = idx.stmts[u].parent;
        }
        false
    };
    let mut done: Vec<StmtId> = Vec::new();
    for &s in &reached {
        let info = &idx.stmts[s];
        if !matches!(
            info.stmt,
            Stmt::Expr(_) | Stmt::Assign(_) | Stmt::AnnAssign(_)
        ) || writes.contains(&s)
            || on_rank0(s)
            || !reads_a_file(tx, s)
        {
            continue;
        }
        let (l, n) = path_tokens(info.stmt);
        let rank0_path = l.iter().any(|x| lits.contains(x))
            || (info.scope.func.is_none()
                && n.iter()
                    .any(|x| names.contains(&(info.scope.module, x.clone()))));
        if !rank0_path {
            continue;
        }
        // The `with open(...)` around a read of its file object waits with it.
        let at = enclosing_with(idx, s).unwrap_or(s);
        if done.contains(&at)
            || !tx.ed.lines_around_ok(at)
            || under_condition(idx, at)
            || crate::editor::nearest_loop(idx, at).is_some()
            || called_from_rank0(tx, at, &on_rank0)
        {
            continue;
        }
        done.push(at);
        let m = info.scope.module;
        let dist = tx.dist(m);
        tx.ed.insert_lines_before(
            m,
            RULE,
            idx.stmts[at].stmt,
            &[format!("{dist}.barrier()")],
            "every rank waits until rank 0 has written the file read next (only rank 0 writes it)",
        );
    }
}

/// Does statement `s` call a function that reads a file?
fn reads_a_file(tx: &Tx, s: StmtId) -> bool {
    let idx = tx.idx;
    opens_a_file(idx.stmts[s].stmt)
        || idx.calls.iter().enumerate().any(|(cid, c)| {
            c.stmt == s
                && tx
                    .plan
                    .qual(cid)
                    .is_some_and(crate::writers::is_file_reader)
        })
}

/// The `with` statement directly around `s`, if it opens a file (`with open(p) as f:`).
fn enclosing_with(idx: &crate::index::Index, s: StmtId) -> Option<StmtId> {
    let p = idx.stmts[s].parent?;
    match idx.stmts[p].stmt {
        Stmt::With(w)
            if w.items.iter().any(|i| {
                matches!(&i.context_expr, Expr::Call(c)
                    if matches!(&*c.func, Expr::Name(f) if f.id.as_str() == "open"))
            }) =>
        {
            Some(p)
        }
        _ => None,
    }
}

/// Is the function around `s` called from a statement only rank 0 runs (a barrier there would
/// wait for ranks that never come)?
fn called_from_rank0(tx: &Tx, s: StmtId, on_rank0: &dyn Fn(StmtId) -> bool) -> bool {
    let idx = tx.idx;
    let Some(f) = idx.stmts[s].scope.func else {
        return false;
    };
    idx.calls.iter().any(|c| {
        matches!(idx.resolve_call(c.scope, c.call), Some(Callee::Func(g)) if g == f)
            && on_rank0(c.stmt)
    })
}
