//! DST010 — a checkpoint is created once by a call and not aliased through containers
//!.
//!
//! **Finding:** a `tf.train.Checkpoint`/`CheckpointManager` is put into a list, tuple, dict or
//! set. Saves made through that container (`state["ckpt"].save(...)`) cannot be recognised, so
//! every rank would write the same files. **Accepted:** plain aliases, attributes of `self`,
//! function parameters and return values, and `CheckpointManager(ckpt, ...)`: all followed.
//!
//! ```python
//! state = {"ckpt": tf.train.Checkpoint(model=model)}   # DST010
//! ```
use ranklift_python::{Diagnostic, Severity};
use ruff_python_ast::Expr;
use ruff_python_ast::visitor::{self, Visitor};
use ruff_text_size::Ranged;

use crate::index::{Index, Kind, Scope};
use crate::tf::context::Cx;

pub fn check(cx: &Cx, out: &mut Vec<Diagnostic>) {
    let idx = cx.idx;
    let mut found = Vec::new();
    // Only modules that create or receive checkpoints can store one.
    let mut with_ckpt = std::collections::HashSet::new();
    for c in &idx.calls {
        if matches!(
            idx.canonical(c.scope.module, &c.call.func).as_deref(),
            Some(crate::tf::names::CHECKPOINT | crate::tf::names::CHECKPOINT_MANAGER)
        ) {
            with_ckpt.insert(c.scope.module);
        }
    }
    for (scope, names) in &idx.env {
        if names
            .values()
            .any(|k| matches!(k, Kind::Checkpoint | Kind::CheckpointManager))
        {
            with_ckpt.insert(scope.module);
        }
    }
    for m in cx.modules().into_iter().filter(|m| with_ckpt.contains(m)) {
        for s in idx.modules[m].stmts.clone() {
            let info = &idx.stmts[s];
            let mut v = V {
                idx,
                scope: info.scope,
                found: &mut found,
            };
            match info.stmt {
                ruff_python_ast::Stmt::Assign(a) => v.visit_expr(&a.value),
                ruff_python_ast::Stmt::Expr(e) => v.visit_expr(&e.value),
                _ => {}
            }
        }
    }
    for (m, r) in found {
        out.push(cx.make_diag(m, r, crate::codes::CHECKPOINT_IN_CONTAINER, Severity::Error,
            "a checkpoint is stored in a container; saves made through it cannot be limited to rank 0",
            "keep the checkpoint in a variable (or an attribute of `self`) and save through that"));
    }
}

struct V<'i, 'a, 'f> {
    idx: &'i Index<'a>,
    scope: Scope,
    found: &'f mut Vec<(usize, ruff_text_size::TextRange)>,
}

impl<'e> Visitor<'e> for V<'_, '_, '_> {
    fn visit_expr(&mut self, e: &'e Expr) {
        let elts: Vec<&Expr> = match e {
            Expr::List(l) => l.elts.iter().collect(),
            Expr::Tuple(t) => t.elts.iter().collect(),
            Expr::Set(s) => s.elts.iter().collect(),
            Expr::Dict(d) => d.items.iter().map(|i| &i.value).collect(),
            _ => vec![],
        };
        for el in elts {
            if matches!(
                self.idx.kind_of(self.scope, el),
                Kind::Checkpoint | Kind::CheckpointManager
            ) {
                self.found.push((self.scope.module, el.range()));
            }
        }
        visitor::walk_expr(self, e);
    }
}
