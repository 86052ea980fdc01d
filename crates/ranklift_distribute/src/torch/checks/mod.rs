//! Checks of the PyTorch target, one file each: refusals (what the rewrite cannot make safe,
//! each an error with a stable code) and, for programs already on `torch.distributed`, the known
//! mistakes of DDP programs.
//!
//! | code | check | severity |
//! |---|---|---|
//! | DST400 | `iterable_dataset`: a training loader over an `IterableDataset` | error |
//! | DST401 | `custom_sampler`: a training loader with its own `sampler=`/`batch_sampler=` | error |
//! | DST402 | `model_parallel`: the program places work on several fixed GPUs | error |
//! | DST405 | `unresolved_data`: a training loop whose data is not a `DataLoader` ranklift can follow | error |
//! | DST409 | `no_model`: the optimizers' parameters come from no model ranklift can name | error |
//! | DST202 | `already_distributed`: the program already runs distributed | note |
//! | DST410 | `missing_set_epoch` | warning |
//! | DST411 | `every_rank_writes` | warning |
//! | DST412 | `collective_under_rank` | error |
//! | DST413 | `prefixed_state_dict` | warning |
//! | DST414 | `shuffle_with_sampler` | error |
//! | DST415 | `unsharded_training_loader` | warning |
//!
//! (DST406–DST408 are raised by rules: a DDP wrap with no place to go, a function called with
//! the model before and after the wrap, `--scale-lr` on a default rate.)
pub mod already_distributed;
pub mod collective_under_rank;
pub mod custom_sampler;
pub mod every_rank_writes;
pub mod iterable_dataset;
pub mod missing_set_epoch;
pub mod model_parallel;
pub mod no_model;
pub mod optimizer_list;
pub mod prefixed_state_dict;
pub mod shuffle_with_sampler;
pub mod unresolved_data;
pub mod unsharded_training_loader;

use crate::torch::Tx;

/// The refusals, before any rewrite.
pub fn run(tx: &mut Tx) {
    iterable_dataset::run(tx);
    custom_sampler::run(tx);
    model_parallel::run(tx);
    unresolved_data::run(tx);
    no_model::run(tx);
}

/// Is statement `s` under an `if` whose test reads the rank (`if rank == 0:`,
/// `if dist.get_rank() == 0:`, `if args.local_rank in [-1, 0]:`), directly or through a name
/// bound from it (`master_process = ddp_rank == 0` ... `if master_process:`)?
pub fn under_rank_condition(idx: &crate::index::Index, s: usize) -> Option<usize> {
    use ruff_python_ast::{Expr, Stmt};
    let rankish = |t: &str| {
        let t = t.to_ascii_lowercase();
        t.contains("rank") || t.contains("master") || t.contains("main_process")
    };
    let m = idx.stmts[s].scope.module;
    // Names bound from a rank test, in this module.
    let derived: Vec<&str> = idx.modules[m]
        .stmts
        .clone()
        .filter_map(|st| match idx.stmts[st].stmt {
            Stmt::Assign(a) if rankish(idx.text(m, &*a.value)) => Some(a),
            _ => None,
        })
        .flat_map(|a| a.targets.iter())
        .filter_map(|t| match t {
            Expr::Name(n) => Some(n.id.as_str()),
            _ => None,
        })
        .collect();
    let mut cur = idx.stmts[s].parent;
    while let Some(p) = cur {
        match idx.stmts[p].stmt {
            Stmt::If(i) => {
                let t = idx.text(m, &*i.test);
                if rankish(t) || derived.iter().any(|d| crate::editor::contains_word(t, d)) {
                    return Some(p);
                }
            }
            Stmt::FunctionDef(_) | Stmt::ClassDef(_) => return None,
            _ => {}
        }
        cur = idx.stmts[p].parent;
    }
    None
}
