//! Rule `wandb_ranks`: Weights & Biases runs on every rank, recording on rank 0 only.
//!
//! **Trigger:** a `wandb.init(...)` call in code the run reaches.
//!
//! **Rewrite:** the call gets `mode=None if RANK == 0 else "disabled"` (or, when it has a `mode=`
//! already, `mode=<theirs> if RANK == 0 else "disabled"`); no other `wandb` call is touched.
//!
//! **Why:** guarding each call with `if RANK == 0:` is never complete: `wandb.watch`,
//! `wandb.config.update`, `wandb.save`, `wandb.run.summary[...]`, reading `wandb.config.lr` — each
//! raises `You must call wandb.init() before ...` on a rank that skipped the init, and a program
//! reaches them in many places. A disabled run makes every `wandb` call a no-op on that rank while
//! `wandb.config` still holds the configuration passed to `init`, which is wandb's own advice for
//! distributed training. `mode=None` on rank 0 keeps what the user chose (`WANDB_MODE`, settings).
//!
//! ```python
//! # before
//! wandb.init(project="demo", config=config)
//! # after
//! wandb.init(project="demo", config=config, mode=None if RANK == 0 else "disabled")
//! ```
use ranklift_python::Edit;
use ruff_python_ast::Expr;
use ruff_text_size::Ranged;

use crate::editor::add_keyword_edit;
use crate::torch::Tx;

const RULE: &str = "wandb_ranks";

pub fn run(tx: &mut Tx) {
    let idx = tx.idx;
    for (id, c) in idx.calls.iter().enumerate() {
        if !tx.plan.runs_stmt(idx, c.stmt) || tx.plan.qual(id).is_none_or(|q| q != "wandb.init") {
            continue;
        }
        let m = c.scope.module;
        let rank0 = tx.rank0(m);
        // The user's mode on rank 0 (parenthesised where a conditional would bind wrongly).
        let edit = match c.call.arguments.find_keyword("mode") {
            Some(k) => {
                let theirs = tx.ed.text(m, &k.value);
                let theirs = if matches!(k.value, Expr::If(_) | Expr::Lambda(_) | Expr::Named(_)) {
                    format!("({theirs})")
                } else {
                    theirs.to_owned()
                };
                Edit::replace(
                    k.value.range(),
                    format!("{theirs} if {rank0} else \"disabled\""),
                )
            }
            None => add_keyword_edit(
                tx.ed.src(m),
                c.call,
                &format!("mode=None if {rank0} else \"disabled\""),
            ),
        };
        tx.ed.edit(
            m,
            RULE,
            c.call.start(),
            edit,
            "wandb runs on every rank: a disabled run (every call a no-op) but on rank 0",
        );
    }
}
