//! DST104 — functions are not assigned to variables or passed as arguments.
//!
//! **Finding (warning):** a function that performs a training step is passed to code outside
//! the project (`strategy.run(step)`, `map(step, batches)`) or stored in a variable. ranklift
//! rewrites the function, assuming it runs once per batch on every process, and says so.
//! **Accepted:** `tf.function(step)`, entry-point runners (`tf.compat.v1.app.run(main)`,
//! `absl.app.run(main)`: they call `main` once, as a script would), and calls through project
//! code, which are followed.
//!
//! ```python
//! losses = list(map(train_step, batches))   # DST104 (warning)
//! ```
use ranklift_python::{Diagnostic, Severity};
use ruff_python_ast::Expr;
use ruff_text_size::Ranged;

use crate::index::Callee;
use crate::tf::context::Cx;
use crate::tf::names as tf;

pub fn check(cx: &Cx, out: &mut Vec<Diagnostic>) {
    let idx = cx.idx;
    let reach = cx.reach;
    for c in &idx.calls {
        if !reach.scope_reached(c.scope) || idx.resolve_call(c.scope, c.call).is_some() {
            continue;
        }
        let canon = idx.canonical(c.scope.module, &c.call.func);
        if canon.as_deref() == Some(tf::TF_FUNCTION)
            || canon.as_deref().is_some_and(tf::is_entry_runner)
        {
            continue;
        }
        for a in c
            .call
            .arguments
            .args
            .iter()
            .chain(c.call.arguments.keywords.iter().map(|k| &k.value))
        {
            let Expr::Name(n) = a else { continue };
            let fake = ruff_python_ast::ExprCall {
                node_index: Default::default(),
                range_start: n.range.start(),
                func: Box::new(a.clone()),
                arguments: ruff_python_ast::Arguments {
                    range: ruff_text_size::TextRange::empty(n.range.end()),
                    node_index: Default::default(),
                    args: Box::new([]),
                    keywords: Default::default(),
                },
            };
            if let Some(Callee::Func(f)) = idx.resolve_call(c.scope, &fake)
                && reach.trains.contains(&f)
            {
                let m = c.scope.module;
                out.push(cx.make_diag(m, a.range(), crate::codes::STEP_PASSED_AS_VALUE, Severity::Warning,
                        format!("the training step `{}` is passed to `{}`; ranklift assumes it runs once per batch on every process", n.id, cx.text(m, &*c.call.func)),
                        "call the training step directly from the training loop"));
            }
        }
    }
}
