//! Rule `download_once`: a dataset is downloaded by rank 0 while the others wait.
//!
//! **Trigger:** a statement, in the modules the main script reaches, with a call that passes
//! `download=True` (torchvision/torchaudio/torchtext datasets), alone on its lines.
//!
//! **Rewrite:** before it, `if RANK != 0: dist.barrier()`; after it, `if RANK == 0:
//! dist.barrier()`. Rank 0 downloads and extracts, then releases the others, who find the files
//! in place and only read them.
//!
//! **Why:** N processes downloading and extracting into the same directory at once corrupt each
//! other's files (a torn archive, a half-written index); one download is also N times less
//! traffic. Every rank still constructs the dataset, so each holds its own copy to sample from.
//!
//! ```python
//! # before
//! train_set = datasets.MNIST("../data", train=True, download=True, transform=t)
//! # after
//! if RANK != 0:
//!     dist.barrier()
//! train_set = datasets.MNIST("../data", train=True, download=True, transform=t)
//! if RANK == 0:
//!     dist.barrier()
//! ```
use ruff_python_ast::Expr;

use crate::torch::Tx;

const RULE: &str = "download_once";

pub fn run(tx: &mut Tx) {
    let idx = tx.idx;
    let mut done: Vec<usize> = Vec::new();
    for c in &idx.calls {
        let m = c.scope.module;
        if !tx.plan.in_reach(m) || done.contains(&c.stmt) {
            continue;
        }
        let downloads = c.call.arguments.keywords.iter().any(|k| {
            k.arg.as_ref().is_some_and(|a| a.as_str() == "download")
                && matches!(&k.value, Expr::BooleanLiteral(b) if b.value)
        });
        if !downloads
            || !tx.ed.lines_around_ok(c.stmt)
            || !tx.ed.stmt_alone(m, idx.stmts[c.stmt].stmt)
        {
            continue;
        }
        done.push(c.stmt);
        let rank = {
            tx.needs[m].rank = true;
            tx.names[m].rank.clone()
        };
        let dist = tx.dist(m);
        let unit = tx.ed.indent_unit(m).to_owned();
        let stmt = idx.stmts[c.stmt].stmt;
        // Before everything else inserted there: the dataset a loader's sampler needs is moved
        // out of the loader's call to the line before it, and must be made after the wait.
        tx.ed.insert_lines_before_all(
            m,
            RULE,
            stmt,
            &[
                format!("if {rank} != 0:"),
                format!("{unit}{dist}.barrier()"),
            ],
            "rank 0 downloads the dataset while the other ranks wait, then they read its files",
        );
        tx.ed.insert_lines_after(
            m,
            RULE,
            stmt,
            &[
                format!("if {rank} == 0:"),
                format!("{unit}{dist}.barrier()"),
            ],
            "",
        );
    }
}
