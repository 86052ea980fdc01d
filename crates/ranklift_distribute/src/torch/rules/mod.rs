//! The PyTorch → DDP rewrite rules, one file each (trigger, rewrite, why, before/after in each
//! file's doc comment). `crate::torch::distribute` runs them in this order; `process_group` runs
//! last because it adds what the others' edits refer to (imports, `RANK`, `LOCAL_RANK`,
//! `WORLD_SIZE`, the process group itself).
pub mod checkpoint_load;
pub mod ddp_wrap;
pub mod device_pinning;
pub mod distributed_sampler;
pub mod download_once;
pub mod log_files;
pub mod no_sync;
pub mod plateau_metric;
pub mod process_group;
pub mod rank0_only;
pub mod rank0_reads;
pub mod replacement_sampler;
pub mod scale_lr;
pub mod set_epoch;
pub mod shared_dirs;
pub mod split_rows;
pub mod step_counts;
pub mod subset_sampler;
pub mod wandb_ranks;
pub mod write_handles;

use ruff_python_ast::Stmt;

use crate::index::{Index, Scope, StmtId};

/// The statements of a scope's own body (a function's top level, or the module's), in order.
pub fn top_level(idx: &Index, scope: Scope) -> Vec<StmtId> {
    let def_stmt = scope.func.map(|f| idx.funcs[f].stmt);
    idx.modules[scope.module]
        .stmts
        .clone()
        .filter(|&s| idx.stmts[s].scope == scope && idx.stmts[s].parent == def_stmt)
        .filter(|&s| match def_stmt {
            // Class bodies share the module's scope: their statements are not top level.
            None => idx.stmts[s].parent.is_none(),
            Some(_) => true,
        })
        .collect()
}

/// The statement of `scope`'s own body that contains statement `s` (or `s` itself).
pub fn top_ancestor(idx: &Index, scope: Scope, s: StmtId) -> Option<StmtId> {
    let def_stmt = scope.func.map(|f| idx.funcs[f].stmt);
    let mut cur = s;
    loop {
        let p = idx.stmts[cur].parent;
        if p == def_stmt {
            return (idx.stmts[cur].scope == scope).then_some(cur);
        }
        cur = p?;
    }
}

/// The nearest enclosing statement of `s` (within its function) that is a `for` loop.
pub fn enclosing_for(idx: &Index, s: StmtId) -> Option<StmtId> {
    let mut cur = idx.stmts[s].parent;
    while let Some(p) = cur {
        match idx.stmts[p].stmt {
            Stmt::For(_) => return Some(p),
            Stmt::FunctionDef(_) | Stmt::ClassDef(_) => return None,
            _ => cur = idx.stmts[p].parent,
        }
    }
    None
}
