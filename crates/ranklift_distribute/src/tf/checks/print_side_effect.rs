//! DST004 — `print` calls must not have side effects.
//!
//! **Finding:** a `print(...)` whose arguments assign (`:=`), advance an iterator (`next(it)`),
//! read input, mutate a container (`.pop()`, `.append()`, ...), update variables
//! (`.assign*()`), save, or train (`.apply_gradients()`, `.fit()`, ...).
//! **Why:** rule `rank0_only` runs every `print` on rank 0 only; its side effects would then
//! happen on one process, and the processes would drift apart (or hang in a collective).
//!
//! ```python
//! print("loss", train_step(next(batches)))   # DST004: next() consumes a batch only on rank 0
//! ```
use ranklift_python::{Diagnostic, Severity};
use ruff_python_ast::Expr;
use ruff_python_ast::visitor::{self, Visitor};
use ruff_text_size::{Ranged, TextRange};

use crate::index::{Callee, Index, Scope};
use crate::tf::context::Cx;

const MUTATING: &[&str] = &[
    "pop",
    "popitem",
    "append",
    "extend",
    "insert",
    "remove",
    "update",
    "clear",
    "setdefault",
    "send",
    "write",
    "save",
    "save_weights",
    "assign",
    "assign_add",
    "assign_sub",
    "apply_gradients",
    "fit",
    "train_on_batch",
    "minimize",
    "readline",
    "read",
];

pub fn check(cx: &Cx, out: &mut Vec<Diagnostic>) {
    let idx = cx.idx;
    for (c, _) in cx.reached_calls() {
        let m = c.scope.module;
        if !matches!(&*c.call.func, Expr::Name(n) if n.id.as_str() == "print")
            || idx.modules[m].aliases.contains_key("print")
        {
            continue;
        }
        let mut v = Finder {
            idx,
            scope: c.scope,
            trains: &cx.reach.trains,
            found: None,
        };
        for a in c.call.arguments.args.iter() {
            v.visit_expr(a);
        }
        for k in c.call.arguments.keywords.iter() {
            v.visit_expr(&k.value);
        }
        if let Some((range, what)) = v.found {
            out.push(cx.make_diag(
                m,
                range,
                crate::codes::PRINT_SIDE_EFFECT,
                Severity::Error,
                format!(
                    "this `print` has a side effect ({what}); ranklift runs prints on rank 0 only"
                ),
                "compute the value in a statement of its own before printing it",
            ));
        }
    }
}

struct Finder<'i, 'a> {
    idx: &'i Index<'a>,
    scope: Scope,
    trains: &'i std::collections::HashSet<usize>,
    found: Option<(TextRange, String)>,
}

impl<'e> Visitor<'e> for Finder<'_, '_> {
    fn visit_expr(&mut self, e: &'e Expr) {
        if self.found.is_some() {
            return;
        }
        match e {
            Expr::Named(n) => self.found = Some((n.range(), "an assignment expression".into())),
            Expr::Call(c) => {
                match &*c.func {
                    Expr::Name(n) if matches!(n.id.as_str(), "next" | "input") => {
                        self.found = Some((c.range(), format!("`{}()`", n.id)));
                    }
                    Expr::Attribute(a) if MUTATING.contains(&a.attr.as_str()) => {
                        self.found = Some((c.range(), format!("`.{}()`", a.attr)));
                    }
                    _ => {}
                }
                if self.found.is_none()
                    && let Some(Callee::Func(f)) = self.idx.resolve_call(self.scope, c)
                    && self.trains.contains(&f)
                {
                    self.found = Some((
                        c.range(),
                        format!("`{}` runs a training step", self.idx.funcs[f].def.name),
                    ));
                }
                visitor::walk_expr(self, e);
            }
            _ => visitor::walk_expr(self, e),
        }
    }
}
