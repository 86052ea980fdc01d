//! Rule `shared_dirs`: every rank may create the directories the program creates.
//!
//! **Trigger:** `os.makedirs(path)` without `exist_ok`, or `os.mkdir(path)`, in code the program
//! runs.
//!
//! **Rewrite:** `os.makedirs(path, exist_ok=True)` (`crate::writers::shared_dir_edits`, shared
//! with the TensorFlow target).
//!
//! **Why:** all ranks run the program's setup; the usual `if not os.path.exists(d):
//! os.makedirs(d)` lets two ranks both see no directory, and the second `makedirs` raises
//! `FileExistsError` — the rank dies and the others fail in their next collective ("Connection
//! closed by peer"), now and then (found by the real-program sweep: yunjey's VAE tutorial).
//! With `exist_ok=True` creating a directory that exists is not an error; one created by someone
//! else in between is what the program wanted anyway.
//!
//! ```python
//! # before
//! if not os.path.exists(sample_dir):
//!     os.makedirs(sample_dir)
//! # after
//! if not os.path.exists(sample_dir):
//!     os.makedirs(sample_dir, exist_ok=True)
//! ```
use crate::torch::Tx;
use ruff_text_size::Ranged;

const RULE: &str = "shared_dirs";

pub fn run(tx: &mut Tx) {
    let idx = tx.idx;
    for (id, c) in idx.calls.iter().enumerate() {
        let m = c.scope.module;
        if !tx.plan.in_reach(m) || c.scope.func.is_some_and(|f| tx.plan.never_run.contains(&f)) {
            continue;
        }
        let Some(qual) = tx.plan.qual(id) else {
            continue;
        };
        let edits = crate::writers::shared_dir_edits(tx.ed.src(m), c.call, qual);
        for (i, e) in edits.into_iter().enumerate() {
            let msg = if i == 0 {
                "every rank creates the directory: one that exists already is not an error"
            } else {
                ""
            };
            tx.ed.edit(m, RULE, c.call.start(), e, msg);
        }
    }
}
