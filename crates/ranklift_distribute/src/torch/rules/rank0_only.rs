//! Rule `rank0_only`: output and files come from rank 0 only.
//!
//! **Trigger:** in the code the main script runs (module level and every function something it
//! runs calls or names: a helper nothing calls keeps its `print`), statements that print or write:
//! `print(...)`, `logging.info(...)` and calls on loggers from `logging.getLogger`,
//! `torch.save(...)`, files written through other libraries (`crate::writers`: `np.save`,
//! `plt.savefig`, `torchvision.utils.save_image`, `json.dump`, exports, ...), console output
//! outside `print` (`sys.stdout.write` progress lines), `with open(path, "w")` blocks, a TensorBoard `SummaryWriter` and every
//! call on it. A file whose path names the rank is per process already and is left alone. Also
//! each `tqdm(...)` progress bar.
//!
//! **Rewrite:** the statements go under `if RANK == 0:` (consecutive ones share it; a statement
//! that shares its line gets `RANK == 0 and ...`); a progress bar gets `disable=RANK != 0`.
//!
//! **Why:** N processes would print every line N times and race on the same files
//!. Checkpoints are written once, by rank 0, from the unwrapped model (rule
//! `ddp_wrap`), so they load into the original program.
//!
//! ```python
//! # before
//! print(f"epoch {epoch}: loss {loss:.4f}")
//! torch.save(model.state_dict(), "model.pt")
//! # after
//! if RANK == 0:
//!     print(f"epoch {epoch}: loss {loss:.4f}")
//!     torch.save(model.module.state_dict(), "model.pt")
//! ```
use ranklift_python::Edit;
use ruff_python_ast::{Expr, Stmt};
use ruff_text_size::Ranged;

use crate::editor::{add_keyword_edit, per_rank_path, stmt_call};
use crate::index::{Index, Scope, StmtId};
use crate::torch::{Tx, names};

const RULE: &str = "rank0_only";

/// Names bound (anywhere in module `m`) to values of calls whose qualified name satisfies `is`.
fn holders(idx: &Index, m: usize, is: &dyn Fn(&str) -> bool) -> Vec<String> {
    idx.modules[m]
        .stmts
        .clone()
        .filter_map(|s| {
            let Stmt::Assign(a) = idx.stmts[s].stmt else {
                return None;
            };
            let Expr::Call(c) = &*a.value else {
                return None;
            };
            if !idx.canonical(m, &c.func).is_some_and(|q| is(&q)) {
                return None;
            }
            a.targets.first().map(|t| idx.text(m, t).to_owned())
        })
        .collect()
}

fn writes_file(idx: &Index, m: usize, s: &Stmt) -> bool {
    let Stmt::With(w) = s else { return false };
    w.items.iter().any(|i| {
        let Expr::Call(c) = &i.context_expr else { return false };
        let is_open = matches!(&*c.func, Expr::Name(n) if n.id.as_str() == "open")
            || idx.canonical(m, &c.func).is_some_and(|q| &*q == "io.open");
        let mode = c.arguments.args.get(1).or_else(|| {
            c.arguments
                .keywords
                .iter()
                .find(|k| k.arg.as_ref().is_some_and(|a| a.as_str() == "mode"))
                .map(|k| &k.value)
        });
        is_open
            && matches!(mode, Some(Expr::StringLiteral(l)) if l.value.to_str().contains(['w', 'a', 'x']))
    })
}

/// What a statement prints or writes ("print", "torch.save", ...), if it does (for check
/// `every_rank_writes`).
pub fn rank0_stmt_of(idx: &Index, scope: Scope, s: &Stmt) -> Option<&'static str> {
    let m = scope.module;
    let loggers = holders(idx, m, &|q| q == "logging.getLogger");
    let writers = holders(idx, m, &|q| names::is_summary_writer(q));
    if !rank0_stmt(idx, scope, s, &loggers, &writers) {
        return None;
    }
    Some(match stmt_call(s) {
        Some(c) if matches!(&*c.func, Expr::Name(n) if n.id.as_str() == "print") => "print",
        Some(c)
            if idx
                .canonical(m, &c.func)
                .is_some_and(|q| &*q == "torch.save") =>
        {
            "torch.save"
        }
        Some(_) => "output call",
        None => "file write",
    })
}

/// Does this statement print or write (and so belong to rank 0)?
fn rank0_stmt(idx: &Index, scope: Scope, s: &Stmt, loggers: &[String], writers: &[String]) -> bool {
    let m = scope.module;
    if writes_file(idx, m, s) {
        return true;
    }
    let Some(call) = stmt_call(s) else {
        return false;
    };
    if let Expr::Name(n) = &*call.func
        && n.id.as_str() == "print"
        && !idx.modules[m].aliases.contains_key("print")
    {
        return true;
    }
    if let Some(q) = idx.canonical(m, &call.func) {
        if names::is_logging_call(&q)
            || names::is_summary_writer(&q)
            || crate::writers::is_console_output(&q)
        {
            return true;
        }
        if &*q == "torch.save" || crate::writers::is_file_writer(&q) {
            return !per_rank_path(idx, scope, call);
        }
    }
    if let Expr::Attribute(a) = &*call.func {
        let recv = idx.text(m, &*a.value);
        if loggers.iter().any(|l| l == recv) && names::LOGGER_METHODS.contains(&a.attr.as_str()) {
            return true;
        }
        if writers.iter().any(|w| w == recv) {
            return true;
        }
        if crate::writers::is_file_writing_method(a.attr.as_str()) {
            return !per_rank_path(idx, scope, call);
        }
    }
    false
}

pub fn run(tx: &mut Tx) {
    let idx = tx.idx;
    for m in tx.plan.modules.clone() {
        let loggers = holders(idx, m, &|q| q == "logging.getLogger");
        let writers = holders(idx, m, &|q| names::is_summary_writer(q));
        let mut guarded: Vec<StmtId> = Vec::new();
        for s in idx.modules[m].stmts.clone() {
            let info = &idx.stmts[s];
            // Code nothing runs (a `def test(): print(...)` left in a model file) stays as it is.
            if info
                .scope
                .func
                .is_some_and(|f| tx.plan.never_run.contains(&f))
                || !tx.plan.runs_stmt(idx, s)
            {
                continue;
            }
            // Inside a statement that is guarded already.
            // Statements come in source order: only the last guarded one can contain this one.
            if guarded
                .last()
                .is_some_and(|&g| idx.stmts[g].stmt.range().contains_range(info.stmt.range()))
            {
                continue;
            }
            if rank0_stmt(idx, info.scope, info.stmt, &loggers, &writers) {
                guarded.push(s);
            }
        }
        if !guarded.is_empty() {
            let cond = tx.rank0(m);
            let guard = format!("if {cond}:");
            // A guard ends at a statement that a barrier follows (rule `checkpoint_load`).
            let mut start = 0;
            for i in 0..guarded.len() {
                if tx.barrier_after.contains(&guarded[i]) || i + 1 == guarded.len() {
                    let seg = guarded[start..=i].to_vec();
                    tx.ed.guard_statements(RULE, &seg, &guard, &cond);
                    start = i + 1;
                }
            }
        }
    }
    // Progress bars.
    for (cid, c) in idx.calls.iter().enumerate() {
        let m = c.scope.module;
        if !tx.plan.in_reach(m) || !tx.plan.qual(cid).is_some_and(names::is_tqdm) {
            continue;
        }
        let rank = tx.names[m].rank.clone();
        tx.needs[m].rank = true;
        match c
            .call
            .arguments
            .keywords
            .iter()
            .find(|k| k.arg.as_ref().is_some_and(|a| a.as_str() == "disable"))
        {
            Some(k) => {
                let v = tx.ed.text(m, &k.value).to_owned();
                tx.ed.edit(
                    m,
                    RULE,
                    c.call.start(),
                    Edit::replace(k.value.range(), format!("({v}) or {rank} != 0")),
                    "progress bar only on rank 0",
                );
            }
            None => {
                let e = add_keyword_edit(tx.ed.src(m), c.call, &format!("disable={rank} != 0"));
                tx.ed
                    .edit(m, RULE, c.call.start(), e, "progress bar only on rank 0");
            }
        }
    }
}
