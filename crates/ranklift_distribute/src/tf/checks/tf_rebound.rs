//! DST002 — the `tensorflow` module is bound only by an import.
//!
//! **Finding:** a name bound to tensorflow by an import is assigned, used as a loop variable or
//! parameter, or tensorflow is loaded with `importlib.import_module`/`__import__`.
//! **Why:** every rule recognises TensorFlow calls through the names imports bind; a rebound
//! name would make ranklift rewrite (or miss) the wrong calls.
//!
//! ```python
//! import tensorflow as tf
//! tf = load_backend()   # DST002
//! ```
use ranklift_python::{Diagnostic, Severity};
use ruff_python_ast::{Expr, Stmt};
use ruff_text_size::Ranged;

use crate::tf::context::Cx;

pub fn check(cx: &Cx, out: &mut Vec<Diagnostic>) {
    let idx = cx.idx;
    for m in cx.modules() {
        let tf_names: Vec<String> = idx.modules[m]
            .aliases
            .iter()
            .filter(|(k, q)| {
                idx.modules[m].import_bound.contains(*k)
                    && (q.as_str() == "tensorflow" || q.starts_with("tensorflow."))
            })
            .map(|(k, _)| k.clone())
            .collect();
        for s in idx.modules[m].stmts.clone() {
            let stmt = idx.stmts[s].stmt;
            let targets: &[Expr] = match stmt {
                Stmt::Assign(a) => &a.targets,
                Stmt::AnnAssign(a) => std::slice::from_ref(&*a.target),
                Stmt::AugAssign(a) => std::slice::from_ref(&*a.target),
                Stmt::For(f) => std::slice::from_ref(&*f.target),
                _ => continue,
            };
            if tf_names.is_empty() {
                continue;
            }
            for t in targets {
                if let Expr::Name(n) = t
                    && tf_names.iter().any(|x| x == n.id.as_str())
                {
                    out.push(cx.make_diag(
                        m,
                        t.range(),
                        crate::codes::TF_REBOUND,
                        Severity::Error,
                        format!(
                            "`{}` is bound to tensorflow by an import and rebound here",
                            n.id
                        ),
                        "use another name for this value",
                    ));
                }
            }
        }
    }
    for c in &idx.calls {
        let m = c.scope.module;
        if !cx.reach.modules.contains(&m) {
            continue;
        }
        let dynamic = matches!(
            idx.qualify(m, &c.call.func).as_deref(),
            Some("importlib.import_module")
        ) || matches!(&*c.call.func, Expr::Name(n) if n.id.as_str() == "__import__");
        let tf_arg = matches!(c.call.arguments.args.first(), Some(Expr::StringLiteral(s)) if s.value.to_str().split('.').next() == Some("tensorflow"));
        if dynamic && tf_arg {
            out.push(cx.make_diag(
                m,
                c.call.range(),
                crate::codes::TF_REBOUND,
                Severity::Error,
                "tensorflow is imported dynamically",
                "use `import tensorflow as tf`",
            ));
        }
    }
}
