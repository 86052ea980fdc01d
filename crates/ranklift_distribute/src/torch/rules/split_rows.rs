//! Rule `split_rows`: hand-made mini-batches — each rank walks its own share of the rows.
//!
//! **Trigger:** a training loop that walks the rows of tensors by its own index, with no
//! DataLoader (`plan::streams`): `for i in range(0, train_data.size(0) - 1, bptt): data, targets
//! = get_batch(train_data, i)`, `while i < len(train_data) - 2:`, `xb = X[i:i + bs]`; every
//! tensor it indexes bound before the loop and read by nothing else.
//!
//! **Rewrite:** after the statement that binds each such tensor (or, for a parameter, at the top
//! of its function), the tensor is cut to this rank's contiguous block of rows:
//! `rows_per_rank = len(T) // WORLD_SIZE` then `T = T[RANK * rows_per_rank : (RANK + 1) *
//! rows_per_rank]`.
//!
//! **Why:** this is what a `DistributedSampler` does for a loader — each rank trains on 1/N of
//! the data with the program's own batch size, so the epoch takes 1/N of the steps. Contiguous
//! blocks, not strided rows: a language model's rows are consecutive windows of one stream and
//! its hidden state runs from one window into the next. Every block has the same length (up to
//! N - 1 rows left out), or one rank would run one more step than the others and wait forever in
//! its gradient all-reduce. The loop's bound (`len(T)`) follows the block by itself. A random
//! window length (`bptt` drawn per step) must be drawn alike on every rank: seeded programs do.
//!
//! ```python
//! # before
//! train_data = batchify(corpus.train, args.batch_size)
//! # after
//! train_data = batchify(corpus.train, args.batch_size)
//! # Each process trains on its own contiguous block of the rows, all blocks the same length
//! # (a process with one more step would wait forever for the others).
//! rows_per_rank = len(train_data) // WORLD_SIZE
//! train_data = train_data[RANK * rows_per_rank : (RANK + 1) * rows_per_rank]
//! ```
use crate::torch::Tx;
use crate::torch::plan::streams::Place;

const RULE: &str = "split_rows";

pub fn run(tx: &mut Tx) {
    let idx = tx.idx;
    // The tensors bound at one place share one block computation.
    let mut places: Vec<(Place, Vec<String>, usize)> = Vec::new();
    for r in &tx.plan.row_streams {
        match places.iter_mut().find(|(p, ..)| *p == r.place) {
            Some((_, names, _)) if !names.contains(&r.name) => names.push(r.name.clone()),
            Some(_) => {}
            None => places.push((r.place, vec![r.name.clone()], r.module)),
        }
    }
    for (place, names, m) in places {
        let rank = tx.names[m].rank.clone();
        tx.needs[m].rank = true;
        let ws = tx.world_size(m);
        let rows = ["rows_per_rank", "rank_rows", "block_rows"]
            .into_iter()
            .find(|n| !tx.ed.has_identifier(m, n))
            .unwrap_or("rows_per_rank_");
        let mut lines = vec![
            "# Each process trains on its own contiguous block of the rows, all blocks the same length"
                .to_owned(),
            "# (a process with one more step would wait forever for the others).".to_owned(),
            format!("{rows} = len({}) // {ws}", names[0]),
        ];
        for n in &names {
            lines.push(format!(
                "{n} = {n}[{rank} * {rows} : ({rank} + 1) * {rows}]"
            ));
        }
        let message = format!(
            "`{}`: walked by row by hand in a training loop; each rank keeps its own contiguous block of the rows, all blocks of one length",
            names.join("`, `")
        );
        match place {
            Place::After(s) => {
                let stmt = idx.stmts[s].stmt;
                tx.ed.insert_lines_after(m, RULE, stmt, &lines, message);
            }
            Place::FuncStart(f) => {
                let body = &idx.funcs[f].def.body;
                match body.iter().find(|s| !crate::editor::is_docstring(s)) {
                    Some(first) => tx.ed.insert_lines_before(m, RULE, first, &lines, message),
                    None => tx.ed.insert_lines_after(m, RULE, &body[0], &lines, message),
                }
            }
        }
    }
}
