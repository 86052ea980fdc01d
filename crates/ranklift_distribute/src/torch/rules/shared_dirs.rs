//! Rule `shared_dirs`: every rank may create the directories the program creates.
//!
//! **Trigger:** `os.makedirs(path)` without `exist_ok`, in code the program runs.
//!
//! **Rewrite:** `exist_ok=True` is added.
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
use crate::editor::add_keyword_edit;
use crate::torch::Tx;
use ruff_text_size::Ranged;

const RULE: &str = "shared_dirs";

pub fn run(tx: &mut Tx) {
    let idx = tx.idx;
    for (id, c) in idx.calls.iter().enumerate() {
        let m = c.scope.module;
        if !tx.plan.in_reach(m)
            || tx.plan.qual(id) != Some("os.makedirs")
            || c.scope.func.is_some_and(|f| tx.plan.never_run.contains(&f))
            || c.call.arguments.keywords.iter().any(|k| {
                k.arg.is_none() || k.arg.as_ref().is_some_and(|a| a.as_str() == "exist_ok")
            })
            || c.call.arguments.args.len() >= 3
        {
            continue;
        }
        let e = add_keyword_edit(tx.ed.src(m), c.call, "exist_ok=True");
        tx.ed.edit(
            m,
            RULE,
            c.call.start(),
            e,
            "every rank creates the directory: one that exists already is not an error",
        );
    }
}
