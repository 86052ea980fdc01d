//! Check `prefixed_state_dict` (DST413): a checkpoint saved from the DDP wrapper.
//!
//! **Trigger:** `torch.save(x.state_dict(), ...)` (or `torch.save({..: x.state_dict()}, ...)`)
//! where `x` is bound to a `DistributedDataParallel(...)`.
//!
//! **Why:** the wrapper prefixes every key with `module.`, so the checkpoint does not load into
//! the undistributed model (pytorch#3805, apex#647, Lightning#17996).
//!
//! ```python
//! model = DDP(net)
//! torch.save(model.state_dict(), "ckpt.pt")   # DST413: save model.module.state_dict()
//! ```
use ranklift_python::{Diagnostic, Severity};
use ruff_python_ast::Expr;
use ruff_python_ast::visitor::{Visitor, walk_expr};
use ruff_text_size::Ranged;

use crate::index::Index;
use crate::index::diag;
use crate::torch::{
    names,
    plan::{Plan, assigned_to},
};

pub fn run(idx: &Index, plan: &Plan, out: &mut Vec<Diagnostic>) {
    // Names bound to DDP(...) per module.
    let mut wrapped: Vec<(usize, String)> = Vec::new();
    for c in idx.calls.iter().filter(|c| plan.in_reach(c.scope.module)) {
        let m = c.scope.module;
        if idx
            .qualify(m, &c.call.func)
            .is_some_and(|q| names::is_ddp(&q))
            && let Some(t) = assigned_to(idx, c.stmt, c.call)
        {
            wrapped.push((m, idx.text(m, t).to_owned()));
        }
    }
    for c in idx.calls.iter().filter(|c| plan.in_reach(c.scope.module)) {
        let m = c.scope.module;
        if idx
            .qualify(m, &c.call.func)
            .is_none_or(|q| &*q != "torch.save")
        {
            continue;
        }
        let Some(obj) = c.call.arguments.args.first() else {
            continue;
        };
        struct V<'a> {
            hits: Vec<&'a Expr>,
        }
        impl<'a> Visitor<'a> for V<'a> {
            fn visit_expr(&mut self, e: &'a Expr) {
                if let Expr::Call(c) = e
                    && let Expr::Attribute(a) = &*c.func
                    && a.attr.as_str() == "state_dict"
                {
                    self.hits.push(&a.value);
                }
                walk_expr(self, e);
            }
        }
        let mut v = V { hits: Vec::new() };
        v.visit_expr(obj);
        for h in v.hits {
            let t = idx.text(m, h);
            if wrapped.iter().any(|(wm, w)| *wm == m && w == t) {
                out.push(diag(idx, m, h.range(), crate::codes::PREFIXED_STATE_DICT, Severity::Warning,
                    format!("`{t}` is the DDP wrapper: its state_dict keys start with `module.`, and the checkpoint will not load into the model without DDP"),
                    format!("save `{t}.module.state_dict()`")));
            }
        }
    }
}
