//! Rule `shard_training_steps`: each of N processes runs 1/N of the training steps.
//!
//! **Trigger:** the innermost loop that drives training — a `for` loop whose body (not a nested
//! loop's) calls `apply_gradients` or a function that does, or (TF1) runs a training op with
//! `session.run(train_op, ...)`. Its iterable is looked at:
//! `range(n)`; `dataset.take(n)` anywhere in the iterable (`enumerate(ds.take(n))`), on datasets
//! recognised through method chains (`from_tensor_slices(...).shuffle(...).batch(...)`), variables
//! and function returns; a variable or a project function whose value is such a `take`.
//!
//! **Rewrite:** `range(n // hvd.size())`, `take(n // hvd.size())` (parenthesised when needed), as in
//! Horovod's TF2 example and seed 001 §2.2's `take` rule. Unlike the seed, `take` calls outside
//! training loops (`test_ds.take(1)` for a preview) are left alone: dividing them changes output.
//! `range(a, b)` is reported and left alone (no single obvious division).
//!
//! ```python
//! # before
//! for step, (x, y) in enumerate(dataset.take(1000)):
//!     train_step(x, y)
//! # after
//! for step, (x, y) in enumerate(dataset.take(1000 // hvd.size())):
//!     train_step(x, y)
//! ```
use std::collections::BTreeSet;

use ranklift_python::Severity;
use ruff_python_ast::visitor::{self, Visitor};
use ruff_python_ast::{Expr, ExprCall, Stmt};
use ruff_text_size::Ranged;

use crate::context::Cx;
use crate::index::{Callee, Index, Kind, Scope, StmtId};

const RULE: &str = "shard_training_steps";
const DIV: &str = "// hvd.size()";

/// The innermost loops that drive training.
pub fn training_loops(cx: &Cx) -> BTreeSet<StmtId> {
    let idx = cx.idx;
    let reach = cx.reach;
    let mut loops = BTreeSet::new();
    for (ci, c) in idx.calls.iter().enumerate() {
        if !reach.scope_reached(c.scope) {
            continue;
        }
        let is_step = reach.session_steps.contains(&ci)
            || matches!(&*c.call.func, Expr::Attribute(a) if a.attr.as_str() == "apply_gradients")
            || matches!(idx.resolve_call(c.scope, c.call), Some(Callee::Func(f)) if reach.trains.contains(&f));
        if !is_step {
            continue;
        }
        let mut cur = Some(c.stmt);
        // A call in a loop header is not in that loop's body.
        if matches!(idx.stmts[c.stmt].stmt, Stmt::For(_) | Stmt::While(_)) {
            cur = idx.stmts[c.stmt].parent;
        }
        while let Some(s) = cur {
            match idx.stmts[s].stmt {
                Stmt::For(_) | Stmt::While(_) => {
                    loops.insert(s);
                    break;
                }
                Stmt::FunctionDef(_) | Stmt::ClassDef(_) => break,
                _ => cur = idx.stmts[s].parent,
            }
        }
    }
    loops
}

pub fn run(cx: &mut Cx) {
    let idx = cx.idx;
    for l in training_loops(cx) {
        let info = &idx.stmts[l];
        let Stmt::For(f) = info.stmt else { continue };
        let scope = info.scope;
        let m = scope.module;
        // range(n)
        if let Expr::Call(c) = &*f.iter
            && matches!(&*c.func, Expr::Name(n) if n.id.as_str() == "range")
            && !idx.modules[m].aliases.contains_key("range")
        {
            if c.arguments.args.len() == 1 && c.arguments.keywords.is_empty() {
                let n = &c.arguments.args[0];
                cx.suffix(m, RULE, n, DIV);
                cx.note(
                    m,
                    RULE,
                    f.start(),
                    format!(
                        "training loop `range({})` divided by hvd.size()",
                        cx.text(m, n)
                    ),
                );
                cx.use_hvd(scope);
            } else {
                cx.diag(m, c.range(), "DST303", Severity::Warning,
                        "this training loop's `range(...)` has several arguments; ranklift does not divide it by `hvd.size()`",
                        "each process will run every step; divide the step count by `hvd.size()` if that is not intended");
            }
            continue;
        }
        let mut takes = Vec::new();
        find_takes(idx, scope, &f.iter, &mut takes);
        if takes.is_empty() {
            takes_via_definition(idx, scope, &f.iter, &mut takes);
        }
        if takes.is_empty() {
            // The loop reads a whole dataset every epoch: shard the data instead.
            super::shard_dataset::shard_loop(cx, scope, f);
        }
        for (ts, call) in takes {
            shard_take(cx, ts, call);
        }
    }
}

fn shard_take(cx: &mut Cx, scope: Scope, call: &ExprCall) {
    let m = scope.module;
    let n = call
        .arguments
        .find_keyword("count")
        .map(|k| &k.value)
        .or_else(|| call.arguments.args.first());
    let Some(n) = n else { return };
    cx.suffix(m, RULE, n, DIV);
    cx.note(
        m,
        RULE,
        call.start(),
        format!("dataset `take({})` divided by hvd.size()", cx.text(m, n)),
    );
    cx.use_hvd(scope);
}

/// `X.take(n)` calls on datasets inside `e`.
fn find_takes<'a>(
    idx: &Index<'a>,
    scope: Scope,
    e: &'a Expr,
    out: &mut Vec<(Scope, &'a ExprCall)>,
) {
    struct V<'a, 'i, 'o> {
        idx: &'i Index<'a>,
        scope: Scope,
        out: &'o mut Vec<(Scope, &'a ExprCall)>,
    }
    impl<'a> Visitor<'a> for V<'a, '_, '_> {
        fn visit_expr(&mut self, e: &'a Expr) {
            if let Expr::Call(c) = e
                && let Expr::Attribute(a) = &*c.func
                && a.attr.as_str() == "take"
                && self.idx.kind_of(self.scope, &a.value) == Kind::Dataset
            {
                self.out.push((self.scope, c));
            }
            visitor::walk_expr(self, e);
        }
    }
    V { idx, scope, out }.visit_expr(e);
}

/// The loop iterates a variable or a project function's result: look for the `take` where that
/// value is defined.
fn takes_via_definition<'a>(
    idx: &Index<'a>,
    scope: Scope,
    iter: &'a Expr,
    out: &mut Vec<(Scope, &'a ExprCall)>,
) {
    // Look through enumerate(...), tqdm(...), iter(...) wrappers.
    let inner = match iter {
        Expr::Call(c) if matches!(&*c.func, Expr::Name(n) if matches!(n.id.as_str(), "enumerate" | "iter" | "tqdm")) => {
            c.arguments.args.first().unwrap_or(iter)
        }
        e => e,
    };
    match inner {
        Expr::Name(n) => {
            let (s, values) = idx.assignments(scope, n.id.as_str());
            for v in values {
                find_takes(idx, s, v, out);
            }
        }
        Expr::Call(c) => {
            if let Some(Callee::Func(f)) = idx.resolve_call(scope, c) {
                let fs = Scope {
                    module: idx.funcs[f].module,
                    func: Some(f),
                };
                for st in idx.modules[fs.module].stmts.clone() {
                    let info = &idx.stmts[st];
                    if info.scope == fs
                        && let Stmt::Return(r) = info.stmt
                        && let Some(v) = &r.value
                    {
                        find_takes(idx, fs, v, out);
                    }
                }
            }
        }
        _ => {}
    }
}
