//! DST003 — TensorFlow members must be reachable by name.
//!
//! **Finding:** an optimizer, schedule, dataset, checkpoint or `GradientTape` class reached
//! dynamically — `getattr(tf.keras.optimizers, name)`, `tf.keras.optimizers.get(...)` — or aliased
//! inside a function or under a condition (`Opt = tf.optimizers.Adam if a else tf.optimizers.SGD`).
//! **Accepted:** plain module-level aliases (`Adam = tf.keras.optimizers.Adam`), which ranklift
//! follows, aliases of members it does not rewrite (`layers = tf.keras.layers`), and models
//! built by name (`getattr(tf.keras.applications, args.model)(weights=None)`): a model's class
//! matters to no rewrite.
//! **Why:** the learning-rate and tape rules must see which class is called.
//!
//! ```python
//! opt = getattr(tf.keras.optimizers, cfg.optimizer)(cfg.lr)   # DST003
//! ```
use ranklift_python::{Diagnostic, Severity};
use ruff_python_ast::visitor::{self, Visitor};
use ruff_python_ast::{Expr, Stmt};
use ruff_text_size::Ranged;

use crate::index::Index;
use crate::tf::context::Cx;
use crate::tf::names as tf;

/// Does this canonical name denote something a rule rewrites?
fn rewritten(q: &str) -> bool {
    tf::optimizer_class(q).is_some()
        || tf::schedule_class(q).is_some()
        || tf::is_dataset_constructor(q)
        || matches!(
            q,
            tf::GRADIENT_TAPE | tf::CHECKPOINT | tf::CHECKPOINT_MANAGER
        )
        || q == "tensorflow.keras.optimizers"
        || q == "tensorflow.keras.optimizers.schedules"
}

pub fn check(cx: &Cx, out: &mut Vec<Diagnostic>) {
    let idx = cx.idx;
    for (c, q) in cx.reached_calls() {
        let m = c.scope.module;
        if matches!(
            q.as_deref(),
            Some("tensorflow.keras.optimizers.get" | "tensorflow.keras.optimizers.deserialize")
        ) {
            out.push(cx.make_diag(m, c.call.range(), crate::codes::TF_MEMBER_ALIAS, Severity::Error,
                "the optimizer class is chosen at run time, so its learning rate cannot be scaled",
                "create the optimizer by calling its class, e.g. `tf.keras.optimizers.Adam(learning_rate=...)`"));
        }
        if matches!(&*c.call.func, Expr::Name(n) if n.id.as_str() == "getattr")
            && let Some(obj) = c.call.arguments.args.first()
            && idx
                .canonical(m, obj)
                .is_some_and(|q| q.starts_with("tensorflow") && !tf::is_model_zoo(&q))
        {
            out.push(cx.make_diag(
                m,
                c.call.range(),
                crate::codes::TF_MEMBER_ALIAS,
                Severity::Error,
                format!(
                    "`getattr` on `{}` hides which TensorFlow member is used",
                    cx.text(m, obj)
                ),
                "name the class directly, e.g. `tf.keras.optimizers.Adam`",
            ));
        }
    }
    for m in cx.modules() {
        for s in idx.modules[m].stmts.clone() {
            let info = &idx.stmts[s];
            let Stmt::Assign(a) = info.stmt else { continue };
            // Literals and arithmetic cannot alias a class.
            if matches!(
                &*a.value,
                Expr::NumberLiteral(_) | Expr::StringLiteral(_) | Expr::BinOp(_)
            ) {
                continue;
            }
            let local_or_cond = info.scope.func.is_some()
                || info.parent.is_some()
                || matches!(&*a.value, Expr::If(_));
            if !local_or_cond {
                continue;
            }
            if let Some(member) = aliased_member(idx, m, &a.value) {
                out.push(cx.make_diag(m, a.range(), crate::codes::TF_MEMBER_ALIAS, Severity::Error,
                    format!("`{member}` is aliased here; ranklift only follows plain module-level aliases"),
                    "call the class by its TensorFlow name, or alias it once at module level"));
            }
        }
    }
}

/// A rewritten TF member used as a value (not called) in `e`.
fn aliased_member(idx: &Index, m: usize, e: &Expr) -> Option<String> {
    struct V<'i, 'a> {
        idx: &'i Index<'a>,
        m: usize,
        found: Option<String>,
    }
    impl<'e> Visitor<'e> for V<'_, '_> {
        fn visit_expr(&mut self, e: &'e Expr) {
            match e {
                Expr::Call(c) => {
                    // The callee is called, not aliased; look at the arguments only.
                    for a in c.arguments.args.iter() {
                        self.visit_expr(a);
                    }
                    for k in c.arguments.keywords.iter() {
                        self.visit_expr(&k.value);
                    }
                }
                Expr::Attribute(_) | Expr::Name(_) => {
                    if let Some(q) = self.idx.canonical(self.m, e)
                        && rewritten(&q)
                        && self.found.is_none()
                    {
                        self.found = Some(q.to_string());
                    }
                }
                _ => visitor::walk_expr(self, e),
            }
        }
    }
    let mut v = V {
        idx,
        m,
        found: None,
    };
    v.visit_expr(e);
    v.found
}
