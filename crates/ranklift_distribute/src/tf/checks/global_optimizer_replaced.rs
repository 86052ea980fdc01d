//! DST009 — a global optimizer used by functions is not changed after its initialisation
//!.
//!
//! **Finding (warning):** a function declares `global opt` for a module-level optimizer and
//! assigns it. The broadcast of `broadcast_initial_state` runs once per call site; an optimizer
//! swapped in later starts from fresh state on every rank, which is consistent, but its
//! learning rate is scaled only if it is built by a recognised constructor — and code that
//! reads it before the swap trains with the old one. ranklift rewrites it and says so.
//! **Accepted:** globals defined after the functions that use them (Python resolves globals at
//! call time, so order does not matter to the rewrite).
//!
//! ```python
//! def reset():
//!     global optimizer
//!     optimizer = tf.keras.optimizers.SGD(0.1)   # DST009 (warning)
//! ```
use ranklift_python::{Diagnostic, Severity};
use ruff_python_ast::{Expr, Stmt};
use ruff_text_size::Ranged;

use crate::index::{Kind, Scope};
use crate::tf::context::Cx;

pub fn check(cx: &Cx, out: &mut Vec<Diagnostic>) {
    let idx = cx.idx;
    for m in cx.modules() {
        let module_scope = Scope {
            module: m,
            func: None,
        };
        for s in idx.modules[m].stmts.clone() {
            let info = &idx.stmts[s];
            let Stmt::Global(g) = info.stmt else { continue };
            let Some(f) = info.scope.func else { continue };
            for name in &g.names {
                if !matches!(
                    idx.name_kind(module_scope, name.as_str()),
                    Kind::Optimizer { .. }
                ) {
                    continue;
                }
                // Does the function assign it?
                for s2 in idx.modules[m].stmts.clone() {
                    let i2 = &idx.stmts[s2];
                    if i2.scope.func != Some(f) {
                        continue;
                    }
                    if let Stmt::Assign(a) = i2.stmt
                        && a.targets
                            .iter()
                            .any(|t| matches!(t, Expr::Name(n) if n.id.as_str() == name.as_str()))
                    {
                        out.push(cx.make_diag(m, a.range(), crate::codes::GLOBAL_OPTIMIZER_REPLACED, Severity::Warning,
                                format!("the global optimizer `{name}` is replaced inside `{}` after its initialisation", idx.funcs[f].def.name),
                                "create the optimizer once at module level, before training starts"));
                    }
                }
            }
        }
    }
}
