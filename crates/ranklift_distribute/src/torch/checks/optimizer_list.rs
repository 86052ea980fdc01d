//! Check `optimizer_list`: optimizers stepped through a loop variable over a list — the located
//! form of "no training loop" (code `NO_TRAINING_LOOP`, documented with it).
//!
//! **Trigger:** no step ranklift can follow, but a `.step()` on the target of a `for` loop that
//! iterates a container of the program's optimizers (`for net, opt in zip(nets, opts)`).
//!
//! **Why:** ranklift follows each optimizer (and its model) by the name it is bound to; several
//! models trained side by side through lists are not supported. Saying where the step is beats
//! "no training loop found".
//!
//! ```python
//! optimizers = [opt_sgd, opt_adam]
//! for net, opt in zip(nets, optimizers):
//!     opt.step()   # DST201, here
//! ```
use ranklift_python::{Diagnostic, Severity};

use crate::codes;
use crate::index::Index;
use crate::torch::plan::Plan;

/// A `.step()` call on a `for` target whose loop iterates a container of the program's
/// optimizers (`zip(nets, opts)`, `opts` a list of optimizers): the optimizer ranklift cannot
/// follow by name, reported at the call (DST201).
pub fn run(idx: &Index, plan: &Plan) -> Option<Diagnostic> {
    use ruff_python_ast::{Expr, Stmt};
    use ruff_text_size::Ranged;
    if plan.optimizers.is_empty() {
        return None;
    }
    for c in &idx.calls {
        if !plan.in_reach(c.scope.module) {
            continue;
        }
        let Expr::Attribute(a) = &*c.call.func else {
            continue;
        };
        let Expr::Name(recv) = &*a.value else {
            continue;
        };
        if a.attr.as_str() != "step" || !c.call.arguments.is_empty() {
            continue;
        }
        // The receiver is the target of an enclosing `for` over a container of optimizers.
        let m = c.scope.module;
        let mut cur = Some(c.stmt);
        while let Some(s) = cur {
            if let Stmt::For(f) = idx.stmts[s].stmt
                && target_binds(&f.target, recv.id.as_str())
                && plan.optimizers.iter().any(|&o| {
                    let oc = &idx.calls[o];
                    oc.scope.module == m && holds_optimizers(idx, oc, &f.iter)
                })
            {
                let pm = &idx.project.modules[m];
                return Some(
                    Diagnostic::new(
                        &pm.rel_path,
                        &pm.parsed.text,
                        &pm.parsed.index,
                        c.call.range(),
                        codes::NO_TRAINING_LOOP,
                        Severity::Error,
                        format!(
                            "`{}` steps an optimizer taken from a list (`{}`): ranklift follows each optimizer by the name it is bound to, and several models trained side by side through lists are not supported",
                            idx.text(m, c.call),
                            idx.text(m, &*f.iter)
                        ),
                    )
                    .with_hint("train one model with its own named optimizer (`optimizer = torch.optim.X(model.parameters())`), or distribute each model's training separately"),
                );
            }
            cur = idx.stmts[s].parent;
        }
    }
    None
}

/// Does loop iterable `it` name (directly or through `zip`/`enumerate`) a list that optimizer
/// call `oc` builds or is stored in (`opts = [opt_a, opt_b]`, `opts = [Adam(...) for net in nets]`)?
fn holds_optimizers(idx: &Index, oc: &crate::index::CallInfo, it: &ruff_python_ast::Expr) -> bool {
    use ruff_python_ast::{Expr, Stmt};
    use ruff_text_size::Ranged;
    let names: Vec<&str> = match it {
        Expr::Call(c) => c
            .arguments
            .args
            .iter()
            .filter_map(|a| match a {
                Expr::Name(n) => Some(n.id.as_str()),
                _ => None,
            })
            .collect(),
        Expr::Name(n) => vec![n.id.as_str()],
        _ => Vec::new(),
    };
    let m = oc.scope.module;
    // The optimizer's own name, when it is bound to one.
    let own = match idx.stmts[oc.stmt].stmt {
        Stmt::Assign(a) if a.value.range() == oc.call.range() => {
            a.targets.first().map(|t| idx.text(m, t))
        }
        _ => None,
    };
    names.iter().any(|list| {
        idx.assignments(oc.scope, list).1.iter().any(|v| {
            v.range().contains_range(oc.call.range())
                || matches!(v, Expr::List(l) if l.elts.iter().any(|e| Some(idx.text(m, e)) == own))
        })
    })
}

fn target_binds(t: &ruff_python_ast::Expr, name: &str) -> bool {
    use ruff_python_ast::Expr;
    match t {
        Expr::Name(n) => n.id.as_str() == name,
        Expr::Tuple(tt) => tt.elts.iter().any(|e| target_binds(e, name)),
        Expr::List(l) => l.elts.iter().any(|e| target_binds(e, name)),
        _ => false,
    }
}
