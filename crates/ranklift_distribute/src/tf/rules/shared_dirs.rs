//! Rule `shared_dirs`: every rank may create the directories the program creates.
//!
//! **Trigger:** `os.makedirs(path)` without `exist_ok`, or `os.mkdir(path)`, in code the main
//! script reaches.
//!
//! **Rewrite:** `os.makedirs(path, exist_ok=True)` (`crate::writers::shared_dir_edits`, shared
//! with the PyTorch target).
//!
//! **Why:** every rank runs the program's setup; the second rank to create the directory raises
//! `FileExistsError` and the job dies (TensorFlow's "Save and load models" tutorial: `os.mkdir`
//! of its checkpoint directory, found by the real-program sweep).
//!
//! ```python
//! # before
//! os.mkdir(checkpoint_dir)
//! # after
//! os.makedirs(checkpoint_dir, exist_ok=True)
//! ```
use ruff_text_size::Ranged;

use crate::tf::context::Cx;

const RULE: &str = "shared_dirs";

pub fn run(cx: &mut Cx) {
    let idx = cx.idx;
    for c in &idx.calls {
        if !cx.reach.scope_reached(c.scope) {
            continue;
        }
        let Some(qual) = idx.qualify(c.scope.module, &c.call.func) else {
            continue;
        };
        let m = c.scope.module;
        let edits = crate::writers::shared_dir_edits(cx.src(m), c.call, &qual);
        for (i, e) in edits.into_iter().enumerate() {
            let msg = if i == 0 {
                "every rank creates the directory: one that exists already is not an error"
            } else {
                ""
            };
            cx.edit(m, RULE, c.call.start(), e, msg);
        }
    }
}
