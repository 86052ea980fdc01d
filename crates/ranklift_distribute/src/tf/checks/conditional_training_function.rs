//! DST105 — the training loop is not defined conditionally.
//!
//! **Finding:** a function that performs a training step is defined more than once in one module
//! (in the branches of an `if` or `try`). ranklift resolves a name to one definition, so the other
//! definition could run without Horovod's rewrite. **Accepted:** a single definition inside an
//! `if`/`try` (it is rewritten like any other), and definitions that follow each other in the
//! same block (a guide that redefines `train_step` before training again): every one of them is
//! reached and rewritten.
//!
//! ```python
//! if USE_XLA:
//!     def train_step(x, y): ...   # DST105
//! else:
//!     def train_step(x, y): ...
//! ```
use std::collections::HashMap;

use ranklift_python::{Diagnostic, Severity};
use ruff_text_size::Ranged;

use crate::tf::context::Cx;

/// (module, enclosing function, class, name): where a definition lives.
type DefKey = (usize, Option<usize>, Option<usize>, String);

pub fn check(cx: &Cx, out: &mut Vec<Diagnostic>) {
    let idx = cx.idx;
    let reach = cx.reach;
    if reach.trains.is_empty() {
        return;
    }
    // Only names of training functions matter.
    let names: std::collections::HashSet<&str> = reach
        .trains
        .iter()
        .map(|&f| idx.funcs[f].def.name.as_str())
        .collect();
    let mut by_name: HashMap<DefKey, Vec<usize>> = HashMap::new();
    for (id, f) in idx
        .funcs
        .iter()
        .enumerate()
        .filter(|(_, f)| names.contains(f.def.name.as_str()))
    {
        by_name
            .entry((f.module, f.parent, f.class, f.def.name.to_string()))
            .or_default()
            .push(id);
    }
    for ((m, _, _, name), ids) in by_name {
        if ids.len() < 2 || !ids.iter().any(|f| reach.trains.contains(f)) {
            continue;
        }
        let body = idx.stmts[idx.funcs[ids[0]].stmt].body;
        if ids
            .iter()
            .all(|&f| idx.stmts[idx.funcs[f].stmt].body == body)
        {
            continue;
        }
        for &f in &ids[1..] {
            out.push(cx.make_diag(
                m,
                idx.funcs[f].def.name.range(),
                crate::codes::CONDITIONAL_TRAINING_FUNCTION,
                Severity::Error,
                format!("the training function `{name}` is defined more than once"),
                "define the training step once; choose behaviour inside it instead",
            ));
        }
    }
}
