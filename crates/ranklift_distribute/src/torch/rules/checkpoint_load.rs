//! Rule `checkpoint_load`: every rank resumes from the same checkpoint, onto its own device, and
//! never before rank 0 has written it.
//!
//! **Trigger:** `torch.load(path)` without `map_location` whose result feeds a `load_state_dict`
//! (in the same statement, or through a name of the same scope); and a `torch.save(..., path)`
//! whose path text some `torch.load` of the program reads (a file object opened by `with
//! open(path, ...) as f:` counts as its path).
//!
//! A barrier is a collective: every rank must reach the same ones in the same order. So none is
//! added after a save under an `if` (or `try`) of its function, whose test may come out
//! differently on different ranks (`if not os.path.exists(path):` is false on rank 1 once rank 0
//! has written the file).
//!
//! **Rewrite:** `map_location="cpu"` is added (`load_state_dict` copies onto each parameter's own
//! device, for the model and the optimizer alike); `dist.barrier()` follows the save, outside the
//! rank-0 guard that rule `rank0_only` puts around it, so that every rank waits for the file.
//! When the save is under a condition, the barrier goes before the read instead (before its
//! `with open(...)`), if that read is under no condition and in no loop: every rank passes there
//! exactly once.
//!
//! **Why:** a checkpoint saved from `cuda:0` loads onto `cuda:0` in every process unless mapped
//! (N copies on one GPU); a rank that reads the file while rank 0 writes it reads a torn file or
//! an old one.
//!
//! ```python
//! # before
//! torch.save(model.state_dict(), path)
//! model.load_state_dict(torch.load(path))
//! # after
//! if RANK == 0:
//!     torch.save(model.state_dict(), path)
//! dist.barrier()
//! model.load_state_dict(torch.load(path, map_location="cpu"))
//! ```
use ruff_python_ast::{Expr, Stmt};
use ruff_text_size::Ranged;

use crate::editor::{add_keyword_edit, contains_word};
use crate::torch::Tx;

const RULE: &str = "checkpoint_load";

pub fn run(tx: &mut Tx) {
    let idx = tx.idx;
    let mut load_paths: Vec<String> = Vec::new();
    for (cid, c) in idx.calls.iter().enumerate() {
        let m = c.scope.module;
        if !tx.plan.in_reach(m) || tx.plan.qual(cid).is_none_or(|q| q != "torch.load") {
            continue;
        }
        if let Some(p) = c.call.arguments.args.first() {
            load_paths.push(path_text(idx, c.stmt, m, p).to_owned());
        }
        if c.call
            .arguments
            .keywords
            .iter()
            .any(|k| k.arg.as_ref().is_some_and(|a| a.as_str() == "map_location"))
        {
            continue;
        }
        let stmt = idx.stmts[c.stmt].stmt;
        let feeds = idx.text(m, stmt).contains("load_state_dict")
            || match stmt {
                Stmt::Assign(a) => a.targets.iter().any(|t| {
                    let Expr::Name(n) = t else { return false };
                    idx.modules[m].stmts.clone().any(|s| {
                        idx.stmts[s].scope == c.scope && {
                            let text = idx.text(m, idx.stmts[s].stmt);
                            text.contains("load_state_dict") && contains_word(text, n.id.as_str())
                        }
                    })
                }),
                _ => false,
            };
        if !feeds {
            continue;
        }
        let q = tx.ed.quote(m);
        let e = add_keyword_edit(tx.ed.src(m), c.call, &format!("map_location={q}cpu{q}"));
        tx.ed.edit(
            m,
            RULE,
            c.call.start(),
            e,
            "checkpoint mapped to the CPU; load_state_dict copies it onto each rank's own device",
        );
    }
    // Saves of a file the program reads back whose barrier cannot follow them (under a
    // condition): the barrier goes before the read instead, where every rank passes once.
    let mut unguarded: Vec<String> = Vec::new();
    for (cid, c) in idx.calls.iter().enumerate() {
        let m = c.scope.module;
        if !tx.plan.in_reach(m) || tx.plan.qual(cid).is_none_or(|q| q != "torch.save") {
            continue;
        }
        let Some(p) = c.call.arguments.args.get(1) else {
            continue;
        };
        let path = path_text(idx, c.stmt, m, p);
        if !load_paths.iter().any(|l| l == path) {
            continue;
        }
        if !tx.ed.lines_around_ok(c.stmt) || under_condition(idx, c.stmt) {
            // A cache filled when missing (`if not os.path.exists(path):`) is a download, the
            // business of rule `download_once`, not a checkpoint rank 0 alone writes.
            if !fills_cache(idx, c.stmt) {
                unguarded.push(path.to_owned());
            }
            continue;
        }
        let dist = tx.dist(m);
        let stmt = idx.stmts[c.stmt].stmt;
        tx.ed.insert_lines_after(
            m,
            RULE,
            stmt,
            &[format!("{dist}.barrier()")],
            format!(
                "every rank waits until rank 0 has written `{path}`, which the program reads back"
            ),
        );
        tx.barrier_after.push(c.stmt);
    }
    for (cid, c) in idx.calls.iter().enumerate() {
        let m = c.scope.module;
        if unguarded.is_empty()
            || !tx.plan.in_reach(m)
            || tx.plan.qual(cid).is_none_or(|q| q != "torch.load")
        {
            continue;
        }
        let Some(p) = c.call.arguments.args.first() else {
            continue;
        };
        let path = path_text(idx, c.stmt, m, p);
        if !unguarded.iter().any(|u| u == path) {
            continue;
        }
        // The `with open(path, "rb") as f:` around the load, or the load's own statement.
        let at = opened_by(idx, c.stmt, p).unwrap_or(c.stmt);
        if !tx.ed.lines_around_ok(at) || under_condition(idx, at) || in_loop(idx, at) {
            continue;
        }
        let dist = tx.dist(m);
        tx.ed.insert_lines_before(
            m,
            RULE,
            idx.stmts[at].stmt,
            &[format!("{dist}.barrier()")],
            format!("every rank waits until rank 0 has written `{path}` before reading it"),
        );
    }
}

/// The statement `with open(P, ...) as name:` around statement `s` that binds `e` (a name), if
/// any.
fn opened_by(idx: &crate::index::Index, s: usize, e: &Expr) -> Option<usize> {
    let Expr::Name(n) = e else { return None };
    let mut cur = idx.stmts[s].parent;
    while let Some(p) = cur {
        match idx.stmts[p].stmt {
            Stmt::With(w)
                if w.items.iter().any(|i| {
                    matches!(i.optional_vars.as_deref(), Some(Expr::Name(v)) if v.id == n.id)
                        && matches!(&i.context_expr, Expr::Call(c)
                            if matches!(&*c.func, Expr::Name(f) if f.id.as_str() == "open"))
                }) =>
            {
                return Some(p);
            }
            Stmt::FunctionDef(_) | Stmt::ClassDef(_) => return None,
            _ => cur = idx.stmts[p].parent,
        }
    }
    None
}

/// The text of the path a save or load argument names: `P` for a file object `f` opened by
/// `with open(P, ...) as f:` around it, else the argument's own text.
fn path_text<'a>(idx: &crate::index::Index<'a>, s: usize, m: usize, e: &'a Expr) -> &'a str {
    if let Some(w) = opened_by(idx, s, e)
        && let Stmt::With(w) = idx.stmts[w].stmt
        && let Some(Expr::Call(c)) = w.items.iter().map(|i| &i.context_expr).find(|c| {
            matches!(c, Expr::Call(c) if matches!(&*c.func, Expr::Name(f) if f.id.as_str() == "open"))
        })
        && let Some(p) = c.arguments.args.first()
    {
        return idx.text(m, p);
    }
    idx.text(m, e)
}

/// Is statement `s` under an `if` that tests whether a path exists?
fn fills_cache(idx: &crate::index::Index, s: usize) -> bool {
    let mut cur = idx.stmts[s].parent;
    while let Some(p) = cur {
        match idx.stmts[p].stmt {
            Stmt::If(i)
                if idx
                    .text(idx.stmts[p].scope.module, &*i.test)
                    .contains("exists(") =>
            {
                return true;
            }
            Stmt::FunctionDef(_) | Stmt::ClassDef(_) => return false,
            _ => cur = idx.stmts[p].parent,
        }
    }
    false
}

/// Is statement `s` inside a loop of its function (or module)?
fn in_loop(idx: &crate::index::Index, s: usize) -> bool {
    crate::editor::nearest_loop(idx, s).is_some()
}

/// Is statement `s` under an `if`, `while` or `try` of its function (or module)?
pub(crate) fn under_condition(idx: &crate::index::Index, s: usize) -> bool {
    let mut cur = idx.stmts[s].parent;
    while let Some(p) = cur {
        match idx.stmts[p].stmt {
            Stmt::If(_) | Stmt::While(_) | Stmt::Try(_) => return true,
            Stmt::FunctionDef(_) | Stmt::ClassDef(_) => return false,
            _ => cur = idx.stmts[p].parent,
        }
    }
    false
}
