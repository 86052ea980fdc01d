//! DST005 — an optimizer is created once, by a call ranklift can see.
//!
//! **Finding (warning):** the receiver of `apply_gradients` is an optimizer ranklift cannot trace
//! to a constructor call — it comes from a library function, a parameter nobody passes an
//! optimizer to, or an expression it does not model. The rewrite is still made (broadcast and
//! tape do not depend on it), but that optimizer's learning rate is not scaled.
//! **Accepted:** optimizers created inline, passed through parameters, returned by project
//! functions, stored on `self`, or aliased with `b = a`: all of these are followed.
//!
//! ```python
//! opt = make_optimizer(config)   # from an installed library
//! opt.apply_gradients(...)       # DST005 (warning)
//! ```
use ranklift_python::{Diagnostic, Severity};
use ruff_python_ast::Expr;
use ruff_text_size::Ranged;

use crate::index::Kind;
use crate::tf::context::Cx;

pub fn check(cx: &Cx, out: &mut Vec<Diagnostic>) {
    let idx = cx.idx;
    for &a in &cx.reach.applies.clone() {
        let c = &idx.calls[a];
        let Expr::Attribute(attr) = &*c.call.func else {
            continue;
        };
        if matches!(
            idx.kind_of(c.scope, &attr.value),
            Kind::Optimizer { .. } | Kind::Tf1Optimizer
        ) {
            continue;
        }
        let m = c.scope.module;
        out.push(cx.make_diag(m, attr.value.range(), crate::codes::OPTIMIZER_NOT_CREATED, Severity::Warning,
            format!("ranklift cannot see where the optimizer `{}` is created, so its learning rate is not scaled by `hvd.size()`", cx.text(m, &*attr.value)),
            "create the optimizer with a TensorFlow optimizer class in this project, or scale its learning rate by `hvd.size()` yourself"));
    }
}
