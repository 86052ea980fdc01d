//! DST001 — `tensorflow` must be imported at the top level of the main script.
//!
//! **Finding:** the main script imports tensorflow only inside a function, class or block.
//! **Why:** `hvd.init()` and the GPU pinning must run once, at start-up, before any TensorFlow
//! work, and they need a module-level name for tensorflow. Imports placed after other code at the
//! top level are accepted (the Horovod block goes right after them), and other modules may import
//! tensorflow wherever they like.
//!
//! ```python
//! def main():
//!     import tensorflow as tf   # DST001
//! ```
use ranklift_python::{Diagnostic, Severity};
use ruff_python_ast::Stmt;
use ruff_text_size::Ranged;

use crate::tf::context::Cx;

pub fn check(cx: &Cx, out: &mut Vec<Diagnostic>) {
    let idx = cx.idx;
    let main = cx.reach.main;
    if !idx.modules[main].tf_imports.is_empty() {
        return;
    }
    for s in idx.modules[main].stmts.clone() {
        let info = &idx.stmts[s];
        let binds_tf = match info.stmt {
            Stmt::Import(i) => i
                .names
                .iter()
                .any(|a| a.name.as_str().split('.').next() == Some("tensorflow")),
            Stmt::ImportFrom(i) => i
                .module
                .as_ref()
                .is_some_and(|m| m.as_str().split('.').next() == Some("tensorflow")),
            _ => false,
        };
        if binds_tf {
            out.push(cx.make_diag(main, info.stmt.range(), crate::codes::TF_IMPORT_NOT_TOP_LEVEL, Severity::Error,
                "tensorflow is imported inside a function or block of the main script",
                "move the import to the top of the file, so Horovod can be initialised before TensorFlow is used"));
            return;
        }
    }
}
