//! Rule `remove_device_pinning`: delete the program's own GPU selection.
//!
//! **Trigger:** `os.environ['CUDA_VISIBLE_DEVICES'] = ...`, `os.environ.setdefault(
//! 'CUDA_VISIBLE_DEVICES', ...)`, and `tf.config[.experimental].set_visible_devices(...)` statements.
//!
//! **Not triggered** by statements that *hide every GPU* to force a CPU run
//! (`CUDA_VISIBLE_DEVICES = "-1"` or `""`, `set_visible_devices([], "GPU")`): deleting those
//! would silently move a CPU program onto GPUs. They are kept.
//!
//! **Rewrite:** the statement is deleted (replaced by `pass` where a block would become empty).
//! Each Horovod process must see the GPU of its local rank, which `horovod_init` selects; a
//! hard-coded device would put every process on the same GPU (Horovod's TF2 guide).
//!
//! ```python
//! # before
//! os.environ['CUDA_VISIBLE_DEVICES'] = '0'
//! model = build()
//! # after
//! model = build()
//! ```
use std::collections::HashMap;

use ranklift_python::Edit;
use ruff_python_ast::{Expr, Stmt};
use ruff_text_size::{Ranged, TextRange};

use crate::index::StmtId;
use crate::tf::context::Cx;

const RULE: &str = "remove_device_pinning";

fn is_cuda_key(e: &Expr) -> bool {
    matches!(e, Expr::StringLiteral(s) if s.value.to_str() == "CUDA_VISIBLE_DEVICES")
}

/// A device list that hides every GPU: `"-1"`, `""` (CUDA), `[]` (tf.config).
fn hides_all_gpus(e: &Expr) -> bool {
    match e {
        Expr::StringLiteral(s) => matches!(s.value.to_str().trim(), "-1" | ""),
        Expr::List(l) => l.elts.is_empty(),
        Expr::Tuple(t) => t.elts.is_empty(),
        _ => false,
    }
}

pub fn run(cx: &mut Cx) {
    let idx = cx.idx;
    let mut found: Vec<StmtId> = Vec::new();
    for (s, info) in cx.reached_stmts() {
        let m = info.scope.module;
        let hit = match info.stmt {
            Stmt::Assign(a) => {
                !hides_all_gpus(&a.value)
                    && a.targets.iter().any(|t| match t {
                        Expr::Subscript(sub) => {
                            idx.qualify(m, &sub.value).as_deref() == Some("os.environ")
                                && is_cuda_key(&sub.slice)
                        }
                        _ => false,
                    })
            }
            Stmt::Expr(e) => match &*e.value {
                Expr::Call(c) => {
                    let q = idx.canonical(m, &c.func);
                    (matches!(
                        q.as_deref(),
                        Some(
                            "tensorflow.config.set_visible_devices"
                                | "tensorflow.config.experimental.set_visible_devices"
                        )
                    ) && !c.arguments.args.first().is_some_and(hides_all_gpus))
                        || (q.as_deref() == Some("os.environ.setdefault")
                            && c.arguments.args.first().is_some_and(is_cuda_key)
                            && !c.arguments.args.get(1).is_some_and(hides_all_gpus))
                }
                _ => false,
            },
            _ => false,
        };
        if hit {
            found.push(s);
        }
    }
    // A body whose every statement is deleted keeps a `pass`.
    let mut per_body: HashMap<usize, usize> = HashMap::new();
    for &s in &found {
        *per_body.entry(idx.stmts[s].body).or_default() += 1;
    }
    let mut passed: std::collections::HashSet<usize> = std::collections::HashSet::new();
    for s in found {
        let info = &idx.stmts[s];
        let m = info.scope.module;
        let stmt = info.stmt;
        let empties = per_body[&info.body] == info.body_len;
        let msg = format!(
            "deleted `{}`",
            cx.text(m, stmt).lines().next().unwrap_or("")
        );
        if (empties && passed.insert(info.body)) || !cx.stmt_alone(m, stmt) {
            cx.edit(
                m,
                RULE,
                stmt.start(),
                Edit::replace(stmt.range(), "pass"),
                msg,
            );
        } else if let Some(comment) = trailing_comment(cx.src(m), stmt.end()) {
            // Keep the user's comment on its own line.
            cx.edit(
                m,
                RULE,
                stmt.start(),
                Edit::delete(TextRange::new(stmt.start(), comment)),
                msg,
            );
        } else {
            let start = cx.line_start(m, stmt.start());
            let (end, _) = cx.after_line(m, stmt.end());
            cx.edit(
                m,
                RULE,
                stmt.start(),
                Edit::delete(TextRange::new(start, end)),
                msg,
            );
        }
    }
}

/// The offset of a `#` comment following `end` on the same line.
fn trailing_comment(src: &str, end: ruff_text_size::TextSize) -> Option<ruff_text_size::TextSize> {
    let e = usize::from(end);
    let rest = &src[e..];
    let line = &rest[..rest.find('\n').unwrap_or(rest.len())];
    let ws = line.len() - line.trim_start().len();
    line.trim_start()
        .starts_with('#')
        .then(|| ruff_text_size::TextSize::try_from(e + ws).unwrap_or_default())
}
