//! Rule `subset_sampler`: a training loader that samples a list of indices samples this rank's
//! share of them.
//!
//! **Trigger:** a training loader (`plan::Loader`) whose `sampler=` is a
//! `torch.utils.data.SubsetRandomSampler(indices)` — directly or through a name bound in the same
//! scope (`plan::Loader::subset_sampler`) — with `indices` a name, an attribute or a slice of one
//! (an expression that can be read twice). The classic train/validation split of one dataset.
//!
//! **Rewrite:** `indices` → `indices[RANK::WORLD_SIZE][: len(indices) // WORLD_SIZE]`; the loader
//! keeps its sampler — no `DistributedSampler`, no `set_epoch` (the sampler reshuffles its share
//! on every pass by itself).
//!
//! **Why:** a `DistributedSampler` cannot be given an index list, and replacing the sampler would
//! change which samples the program trains on (the validation indices would leak in). Every rank
//! must take the *same number* of indices: a rank with one more batch would wait forever in its
//! extra gradient all-reduce, so up to `WORLD_SIZE - 1` indices are left out of each epoch, as
//! `DistributedSampler(drop_last=True)` does. The index list must be the same on every rank: a
//! shuffle of it seeded alike on every rank (`np.random.seed(...)`) or none.
//!
//! ```python
//! # before
//! train_sampler = SubsetRandomSampler(train_idx)
//! # after
//! train_sampler = SubsetRandomSampler(train_idx[RANK::WORLD_SIZE][: len(train_idx) // WORLD_SIZE])
//! ```
use ranklift_python::Edit;
use ruff_text_size::Ranged;

use crate::torch::Tx;

const RULE: &str = "subset_sampler";

pub fn run(tx: &mut Tx) {
    let idx = tx.idx;
    let mut done = Vec::new();
    for l in tx.plan.loaders.clone() {
        let Some(sc) = l.subset_sampler else {
            continue;
        };
        if done.contains(&sc) {
            continue;
        }
        done.push(sc);
        let c = &idx.calls[sc];
        let m = c.scope.module;
        let Some(indices) = c
            .call
            .arguments
            .args
            .first()
            .or_else(|| c.call.arguments.find_keyword("indices").map(|k| &k.value))
        else {
            continue;
        };
        let rank = tx.names[m].rank.clone();
        tx.needs[m].rank = true;
        let ws = tx.world_size(m);
        let text = tx.ed.text(m, indices).to_owned();
        let share = format!("{text}[{rank}::{ws}][: len({text}) // {ws}]");
        tx.ed.edit(
            m,
            RULE,
            indices.start(),
            Edit::replace(indices.range(), share),
            format!("`{text}`: each rank samples its own equal share of the indices (no DistributedSampler)"),
        );
    }
}
