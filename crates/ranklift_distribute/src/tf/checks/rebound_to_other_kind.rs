//! DST006 — optimizer, dataset and checkpoint variables keep holding such objects
//!.
//!
//! **Finding:** in one scope, a name bound to an optimizer, dataset or checkpoint is bound
//! elsewhere to a different kind of TensorFlow object or to a literal other than `None`.
//! **Why:** ranklift's value analysis is flow-insensitive: a name has one kind per scope. A name
//! that is an optimizer here and a dataset there would get the wrong rewrite (e.g. a `take` left
//! undivided). **Accepted:** `x = None` placeholders, and rebinding to the same kind
//! (`ds = ds.batch(32)`).
//!
//! ```python
//! data = tf.data.Dataset.range(100)
//! data = tf.keras.optimizers.SGD()   # DST006
//! ```
use std::collections::HashMap;

use ranklift_python::{Diagnostic, Severity};
use ruff_python_ast::{Expr, Stmt};
use ruff_text_size::Ranged;

use crate::index::{Kind, Scope};
use crate::tf::context::Cx;

fn tracked(k: Kind) -> bool {
    matches!(
        k,
        Kind::Optimizer { .. } | Kind::Dataset | Kind::Checkpoint | Kind::CheckpointManager
    )
}

pub fn check(cx: &Cx, out: &mut Vec<Diagnostic>) {
    let idx = cx.idx;
    // (scope, name) -> first tracked binding kind
    let mut first: HashMap<(Scope, String), Kind> = HashMap::new();
    let mut bindings: Vec<(Scope, String, Kind, &Expr, &Stmt)> = Vec::new();
    for m in cx.modules() {
        for s in idx.modules[m].stmts.clone() {
            let info = &idx.stmts[s];
            let Stmt::Assign(a) = info.stmt else { continue };
            for t in &a.targets {
                if let Expr::Name(n) = t {
                    // Only names whose joined kind in this scope is tracked can be rebound to
                    // another kind (a conflicting join would make them unknown, so check those too).
                    let joined = idx
                        .env
                        .get(&info.scope)
                        .and_then(|names| names.get(n.id.as_str()));
                    if !matches!(joined, Some(k) if tracked(*k) || *k == Kind::Unknown) {
                        continue;
                    }
                    let k = idx.kind_of(info.scope, &a.value);
                    bindings.push((info.scope, n.id.to_string(), k, &a.value, info.stmt));
                    if tracked(k) {
                        first.entry((info.scope, n.id.to_string())).or_insert(k);
                    }
                }
            }
        }
    }
    for (scope, name, k, value, stmt) in bindings {
        let Some(&orig) = first.get(&(scope, name.clone())) else {
            continue;
        };
        let literal = matches!(
            value,
            Expr::NumberLiteral(_)
                | Expr::StringLiteral(_)
                | Expr::BooleanLiteral(_)
                | Expr::List(_)
                | Expr::Dict(_)
        );
        let other_kind = k != Kind::Unknown && tracked(k) && k.describe() != orig.describe();
        if literal || other_kind {
            let m = scope.module;
            out.push(cx.make_diag(
                m,
                stmt.range(),
                crate::codes::REBOUND_TO_OTHER_KIND,
                Severity::Error,
                format!(
                    "`{name}` holds a {} elsewhere in this scope and is rebound here to {}",
                    orig.describe(),
                    if literal {
                        "a literal".to_owned()
                    } else {
                        format!("a {}", k.describe())
                    }
                ),
                "use a separate variable for this value",
            ));
        }
    }
}
