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

use crate::torch::Tx;

/// A rule's name and what runs it.
pub type Rule = (&'static str, fn(&mut Tx<'_, '_>));

/// Every rule, in the order `crate::torch::distribute` runs them: device placement and the
/// DDP wrap first (later rules name the wrapped model), then the data (samplers, splits,
/// epochs, steps), the learning rate, rank-0 files, and `process_group` last.
pub const ORDER: &[Rule] = &[
    ("device_pinning", device_pinning::run),
    ("ddp_wrap", ddp_wrap::run),
    ("distributed_sampler", distributed_sampler::run),
    ("replacement_sampler", replacement_sampler::run),
    ("subset_sampler", subset_sampler::run),
    ("split_rows", split_rows::run),
    ("download_once", download_once::run),
    ("set_epoch", set_epoch::run),
    ("no_sync", no_sync::run),
    ("step_counts", step_counts::run),
    ("scale_lr", scale_lr::run),
    ("plateau_metric", plateau_metric::run),
    ("shared_dirs", shared_dirs::run),
    ("checkpoint_load", checkpoint_load::run),
    ("rank0_only", rank0_only::run),
    ("rank0_reads", rank0_reads::run),
    ("log_files", log_files::run),
    ("write_handles", write_handles::run),
    ("wandb_ranks", wandb_ranks::run),
    ("process_group", process_group::run),
];

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

#[cfg(test)]
mod order_tests {
    /// A rule file that is not in `ORDER` never runs: every `pub mod` here must be listed.
    #[test]
    fn every_rule_file_runs() {
        let this = include_str!("mod.rs");
        for line in this.lines().filter(|l| l.starts_with("pub mod ")) {
            let name = line["pub mod ".len()..].trim_end_matches(';');
            assert!(
                super::ORDER.iter().any(|(n, _)| *n == name),
                "rule `{name}` is not in ORDER"
            );
        }
    }
}
