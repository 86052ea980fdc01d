//! DST007 — optimizers are not created conditionally.
//!
//! **Finding (warning):** one branch of an `if` binds a name to an optimizer and another branch
//! binds the same name to a value ranklift does not recognise as one — that branch's learning
//! rate would stay unscaled. **Accepted:** every branch creating a recognised optimizer
//! (`if cfg.adam: opt = Adam(lr) else: opt = SGD(lr)`): each constructor is scaled.
//!
//! ```python
//! if args.opt == "adam":
//!     opt = tf.keras.optimizers.Adam(1e-3)
//! else:
//!     opt = build_other(args)   # DST007 (warning)
//! ```
use ranklift_python::{Diagnostic, Severity};
use ruff_python_ast::{Expr, Stmt};
use ruff_text_size::Ranged;

use crate::index::Kind;
use crate::tf::context::Cx;

fn bindings(body: &[Stmt]) -> Vec<(&str, &Expr, &Stmt)> {
    body.iter()
        .filter_map(|s| match s {
            Stmt::Assign(a) => match a.targets.as_slice() {
                [Expr::Name(n)] => Some((n.id.as_str(), &*a.value, s)),
                _ => None,
            },
            _ => None,
        })
        .collect()
}

pub fn check(cx: &Cx, out: &mut Vec<Diagnostic>) {
    let idx = cx.idx;
    for m in cx.modules() {
        for s in idx.modules[m].stmts.clone() {
            let info = &idx.stmts[s];
            let Stmt::If(i) = info.stmt else { continue };
            let mut branches: Vec<&[Stmt]> = vec![&i.body];
            branches.extend(i.elif_else_clauses.iter().map(|c| c.body.as_slice()));
            let all: Vec<Vec<(&str, &Expr, &Stmt)>> =
                branches.iter().map(|b| bindings(b)).collect();
            for (bi, b) in all.iter().enumerate() {
                for &(name, value, _) in b {
                    if !matches!(idx.kind_of(info.scope, value), Kind::Optimizer { .. }) {
                        continue;
                    }
                    for (oi, other) in all.iter().enumerate() {
                        if oi == bi {
                            continue;
                        }
                        for &(n2, v2, st2) in other {
                            if n2 == name
                                && !matches!(v2, Expr::NoneLiteral(_))
                                && !matches!(idx.kind_of(info.scope, v2), Kind::Optimizer { .. })
                            {
                                out.push(cx.make_diag(m, st2.range(), crate::codes::CONDITIONAL_CREATION, Severity::Warning,
                                    format!("`{name}` is an optimizer in another branch, but here ranklift cannot tell what it is; its learning rate is not scaled"),
                                    "create the optimizer with a TensorFlow optimizer class in every branch"));
                            }
                        }
                    }
                }
            }
        }
    }
}
