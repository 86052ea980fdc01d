//! Rule `replacement_sampler`: a training loader that samples with replacement draws its own
//! random stream on each rank.
//!
//! **Trigger:** a training loader (`plan::Loader`) whose `sampler=` is a
//! `torch.utils.data.RandomSampler(..., replacement=True)` — directly or through a name bound in
//! the same scope (`plan::Loader::replacement_sampler`), such as the "infinite" loaders of
//! karpathy's makemore and minGPT (`num_samples=int(1e10)`, drawn with `next()` in a step loop).
//!
//! Also a `WeightedRandomSampler` (it draws with replacement unless told `replacement=False`).
//!
//! **Rewrite:** the sampler gets `generator=torch.Generator().manual_seed(torch.initial_seed() +
//! RANK)` (when it has no generator); the loader keeps its sampler — no `DistributedSampler`, no
//! `set_epoch`. When `for` loops iterate the loader (epochs), its `num_samples` (the draws of one
//! epoch) becomes `num_samples // WORLD_SIZE`; a loader drawn from with `next()` in a step loop
//! keeps it (the step count is divided instead, rule `step_counts`).
//!
//! **Why:** sampling with replacement has no shards to split: each draw is independent, so the
//! ranks only need *different* draws. Without a generator, `RandomSampler` seeds itself from
//! torch's global generator, which every rank seeded alike (`torch.manual_seed(args.seed)`):
//! every rank would draw the same batches and DDP would average N copies of one gradient.
//! `DistributedSampler` has no replacement mode, and substituting it would change what the
//! program samples.
//!
//! ```python
//! # before
//! sampler = torch.utils.data.RandomSampler(dataset, replacement=True, num_samples=int(1e10))
//! loader = DataLoader(dataset, sampler=sampler, batch_size=32)
//! # after
//! sampler = torch.utils.data.RandomSampler(
//!     dataset,
//!     replacement=True,
//!     num_samples=int(1e10),
//!     generator=torch.Generator().manual_seed(torch.initial_seed() + RANK),
//! )
//! loader = DataLoader(dataset, sampler=sampler, batch_size=32)
//! ```
use ruff_text_size::Ranged;

use crate::editor::add_keyword_edit;
use crate::torch::Tx;

const RULE: &str = "replacement_sampler";

pub fn run(tx: &mut Tx) {
    let idx = tx.idx;
    for l in tx.plan.loaders.clone() {
        let Some(sc) = l.replacement_sampler else {
            continue;
        };
        let c = &idx.calls[sc];
        let m = c.scope.module;
        if c.call.arguments.find_keyword("generator").is_some() {
            tx.ed.note(
                m,
                RULE,
                c.call.start(),
                "this sampler draws with replacement from its own generator: each rank must seed it differently (left as written)",
            );
            continue;
        }
        // An epoch over the loader is `num_samples` draws: each rank's epoch draws its share.
        if !l.loops.is_empty() {
            let n = c
                .call
                .arguments
                .find_keyword("num_samples")
                .map(|k| &k.value)
                .or_else(|| {
                    let weighted = tx
                        .plan
                        .qual(sc)
                        .is_some_and(crate::torch::names::is_weighted_sampler);
                    if weighted {
                        c.call.arguments.args.get(1)
                    } else {
                        None
                    }
                });
            if let Some(n) = n {
                let ws = tx.world_size(m);
                let text = tx.ed.text(m, n).to_owned();
                tx.ed.suffix(m, RULE, n, &format!("// {ws}"));
                tx.ed.note(
                    m,
                    RULE,
                    n.start(),
                    format!("`{text}` draws per epoch: each rank draws its share"),
                );
            }
        }
        tx.needs[m].rank = true;
        let torch = tx.names[m].torch.clone();
        let rank = tx.names[m].rank.clone();
        let kw =
            format!("generator={torch}.Generator().manual_seed({torch}.initial_seed() + {rank})");
        let e = add_keyword_edit(tx.ed.src(m), c.call, &kw);
        tx.ed.edit(
            m,
            RULE,
            c.call.start(),
            e,
            "the sampler draws with replacement: each rank seeds its own stream (RANK added to the seed), no DistributedSampler",
        );
    }
}
