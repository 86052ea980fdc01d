//! Rule `no_sync`: micro-batches that do not step accumulate gradients without communicating.
//!
//! **Trigger:** a training loop over a loader whose body steps the optimizer only under an `if`
//! (`if (i + 1) % ACCUM == 0: optimizer.step()`, no `else`) after a statement that calls
//! `.backward()`, when the one trained model is in reach of the loop by name (a name of the same
//! scope, or `self.<attr>` in its class).
//!
//! **Rewrite:** the loop's statements up to and including the `backward()` go into
//! `with (model.no_sync() if not (<cond>) else contextlib.nullcontext()):`.
//!
//! **Why:** DDP all-reduces gradients in every `backward()`; a micro-batch that does not step
//! only needs its gradients added locally. Without `no_sync` the program is still correct, with
//! ACCUM times the communication. The forward pass is inside too: DDP
//! decides in `forward()` whether the next `backward()` synchronises.
//!
//! ```python
//! # before
//! for i, (x, y) in enumerate(loader):
//!     loss = loss_fn(model(x), y) / ACCUM
//!     loss.backward()
//!     if (i + 1) % ACCUM == 0:
//!         optimizer.step()
//! # after
//! for i, (x, y) in enumerate(loader):
//!     with (model.no_sync() if not ((i + 1) % ACCUM == 0) else contextlib.nullcontext()):
//!         loss = loss_fn(model(x), y) / ACCUM
//!         loss.backward()
//!     if (i + 1) % ACCUM == 0:
//!         optimizer.step()
//! ```
use ruff_python_ast::{Expr, Stmt};
use ruff_text_size::Ranged;

use crate::torch::Tx;
use crate::torch::plan::Holder;

const RULE: &str = "no_sync";

pub fn run(tx: &mut Tx) {
    let idx = tx.idx;
    let plan = tx.plan;
    let [model] = plan.models.as_slice() else {
        return;
    };
    for l in &plan.loaders {
        for &s in &l.loops {
            let scope = idx.stmts[s].scope;
            let m = scope.module;
            let holder = match &model.holder {
                Holder::Name { scope: hs, name } if *hs == scope => name.clone(),
                Holder::Attr { class, attr }
                    if scope
                        .func
                        .is_some_and(|f| idx.funcs[f].class == Some(*class)) =>
                {
                    format!("self.{attr}")
                }
                _ => continue,
            };
            let body: Vec<usize> = idx.modules[m]
                .stmts
                .clone()
                .filter(|&b| idx.stmts[b].parent == Some(s))
                .collect();
            let Stmt::For(f) = idx.stmts[s].stmt else {
                continue;
            };
            let body: Vec<usize> = body
                .into_iter()
                .filter(|&b| {
                    f.body
                        .iter()
                        .any(|x| x.range() == idx.stmts[b].stmt.range())
                })
                .collect();
            let steps_under_if = body.iter().position(|&b| {
                matches!(idx.stmts[b].stmt, Stmt::If(i) if i.elif_else_clauses.is_empty())
                    && plan.steps.iter().any(|&c| {
                        idx.stmts[b]
                            .stmt
                            .range()
                            .contains_range(idx.calls[c].call.range())
                    })
            });
            let Some(ip) = steps_under_if else { continue };
            let backward = body[..ip]
                .iter()
                .rposition(|&b| idx.text(m, idx.stmts[b].stmt).contains(".backward("));
            let Some(bp) = backward else { continue };
            if !body[..=bp]
                .iter()
                .all(|&b| tx.ed.stmt_alone(m, idx.stmts[b].stmt))
                || !tx.ed.lines_around_ok(body[0])
            {
                continue;
            }
            let Stmt::If(i) = idx.stmts[body[ip]].stmt else {
                continue;
            };
            let cond = idx.text(m, &*i.test).to_owned();
            let cond = if matches!(&*i.test, Expr::Name(_) | Expr::Attribute(_) | Expr::Call(_)) {
                cond
            } else {
                format!("({cond})")
            };
            tx.needs[m].contextlib = true;
            let header =
                format!("with ({holder}.no_sync() if not {cond} else contextlib.nullcontext()):");
            tx.ed.block_under(RULE, body[0], body[bp], &header,
                format!("micro-batches that do not step accumulate gradients under `{holder}.no_sync()` (no all-reduce until the step)"));
        }
    }
}
