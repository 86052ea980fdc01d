//! Rule `scale_lr`: the learning rate grows with the global batch — only when asked.
//!
//! **Trigger:** `--scale-lr linear`, for each `torch.optim` optimizer whose learning rate is given
//! (`lr=` or the second positional argument).
//!
//! **Rewrite:** `lr` → `lr * WORLD_SIZE`. Without the option nothing changes, and an optimizer
//! without an explicit rate is reported rather than guessed.
//!
//! **Why:** DDP averages gradients, so the same learning rate is correct as it is; scaling it
//! linearly with the global batch is a convention (Goyal et al. 2017), not a requirement
//!. It is the user's choice.
//!
//! ```python
//! # before (with --scale-lr linear)
//! optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
//! # after
//! optimizer = torch.optim.SGD(model.parameters(), lr=0.1 * WORLD_SIZE)
//! ```
use ranklift_python::Severity;
use ruff_text_size::Ranged;

use crate::torch::Tx;

const RULE: &str = "scale_lr";

pub fn run(tx: &mut Tx) {
    if !tx.opts.torch.scale_lr_linear {
        return;
    }
    let idx = tx.idx;
    for &o in &tx.plan.optimizers.clone() {
        let c = &idx.calls[o];
        let m = c.scope.module;
        let args = &c.call.arguments;
        let lr = args
            .keywords
            .iter()
            .find(|k| k.arg.as_ref().is_some_and(|a| a.as_str() == "lr"))
            .map(|k| &k.value)
            .or_else(|| args.args.get(1));
        match lr {
            Some(e) => {
                let ws = tx.world_size(m);
                tx.ed.suffix(m, RULE, e, &format!("* {ws}"));
                tx.ed.note(m, RULE, e.start(), "learning rate scaled linearly with the number of processes (--scale-lr linear)");
            }
            None => tx.ed.diag(m, c.call.range(), crate::codes::DEFAULT_LR, Severity::Warning,
                "--scale-lr linear: this optimizer's learning rate is its default; it is left unscaled",
                "give the optimizer an explicit `lr=` to have it scaled"),
        }
    }
}
