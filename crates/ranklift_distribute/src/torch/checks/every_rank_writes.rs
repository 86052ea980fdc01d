//! Check `every_rank_writes` (DST411): every rank prints, logs or writes the same file.
//!
//! **Trigger:** in a program on `torch.distributed`, a statement that rule `rank0_only` would
//! guard (print, logging, `torch.save`, file writes) that is under no rank condition, in a
//! function that neither returns early on a rank test nor is only called under one. Prints and
//! logging count only inside the training loop or a function it calls (setup messages printed
//! once per rank are left alone); files always count.
//!
//! **Why:** N processes print every line N times and race on the same files (clobbered
//! checkpoints).
//!
//! ```python
//! torch.save(model.module.state_dict(), "ckpt.pt")     # DST411: under `if dist.get_rank() == 0:`
//! ```
use ranklift_python::{Diagnostic, Severity};
use ruff_python_ast::Stmt;

use super::under_rank_condition;
use crate::index::diag;
use crate::index::{Callee, Index};
use crate::torch::plan::{Plan, call_sites};
use crate::torch::rules::rank0_only::rank0_stmt_of;

pub fn run(idx: &Index, plan: &Plan, out: &mut Vec<Diagnostic>) {
    for &m in &plan.modules {
        for s in idx.modules[m].stmts.clone() {
            let info = &idx.stmts[s];
            let Some(what) = rank0_stmt_of(idx, info.scope, info.stmt) else {
                continue;
            };
            if under_rank_condition(idx, s).is_some() {
                continue;
            }
            // Output once at setup is a duplicate line per rank; output in the training loop is
            // N copies of every progress line: only the latter is reported. Files always are.
            let is_output = what == "print" || what == "output call";
            let in_loop = |st: usize| {
                let mut cur = Some(st);
                while let Some(p) = cur {
                    if plan.train_loops.contains(&p) {
                        return true;
                    }
                    cur = idx.stmts[p].parent;
                }
                false
            };
            // Inside a training loop, or in a function a training loop calls.
            let in_training = in_loop(s)
                || info.scope.func.is_some_and(|f| {
                    call_sites(idx, plan, f)
                        .iter()
                        .any(|&c| in_loop(idx.calls[c].stmt))
                });
            if is_output && !in_training {
                continue;
            }
            if let Some(f) = info.scope.func {
                // `if rank != 0: return` somewhere in the function, or every call under a rank test.
                let early_return = idx.modules[m].stmts.clone().any(|o| {
                    idx.stmts[o].scope == info.scope
                        && matches!(idx.stmts[o].stmt, Stmt::Return(_))
                        && under_rank_condition(idx, o).is_some()
                });
                let sites = call_sites(idx, plan, f);
                let guarded_calls = !sites.is_empty()
                    && sites
                        .iter()
                        .all(|&c| under_rank_condition(idx, idx.calls[c].stmt).is_some());
                let _ = Callee::Func;
                if early_return || guarded_calls {
                    continue;
                }
            }
            let r = ruff_text_size::Ranged::range(info.stmt);
            out.push(diag(
                idx,
                m,
                r,
                crate::codes::EVERY_RANK_WRITES,
                Severity::Warning,
                if what == "print" || what == "output call" {
                    format!("every rank runs this {what}: N copies of every line")
                } else {
                    format!("every rank runs this {what}: the ranks race on the same file")
                },
                "put it under `if dist.get_rank() == 0:`",
            ));
        }
    }
}
