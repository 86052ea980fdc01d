//! Rule `device_pinning`: every device habit ends up on this process's GPU.
//!
//! **Trigger:** in the modules the main script reaches: a string literal `"cuda:N"`;
//! `torch.device("cuda", N)`; `x.cuda(N)`; an assignment to `os.environ["CUDA_VISIBLE_DEVICES"]`.
//! (`"cuda"`, `.cuda()` and `torch.device("cuda" if ... else "cpu")` need nothing: rule
//! `process_group` calls `torch.cuda.set_device(LOCAL_RANK)`, which makes them mean the local
//! GPU; they are listed by `--explain`.)
//!
//! **Rewrite:** `"cuda:N"` → `f"cuda:{LOCAL_RANK}"`; the index `N` → `LOCAL_RANK`; the
//! `CUDA_VISIBLE_DEVICES` assignment → `pass` with a comment saying why.
//!
//! **Why:** N processes that all ask for `cuda:0` share one GPU and leave the others idle;
//! hiding all but one GPU with `CUDA_VISIBLE_DEVICES` does the same. Two
//! different hard-coded devices are model parallelism, refused by check `model_parallel`.
//!
//! ```python
//! # before
//! os.environ["CUDA_VISIBLE_DEVICES"] = "0"
//! device = torch.device("cuda:0" if torch.cuda.is_available() else "cpu")
//! # after
//! pass  # ranklift: torchrun gives each process its GPU (LOCAL_RANK); CUDA_VISIBLE_DEVICES="0" would hide it
//! device = torch.device(f"cuda:{LOCAL_RANK}" if torch.cuda.is_available() else "cpu")
//! ```
use ranklift_python::Edit;
use ruff_python_ast::visitor::{Visitor, walk_expr, walk_stmt};
use ruff_python_ast::{Expr, Stmt};
use ruff_text_size::Ranged;

use crate::torch::Tx;

const RULE: &str = "device_pinning";

/// `"cuda:N"` literals, `torch.device("cuda", N)` / `.cuda(N)` index arguments, and
/// `CUDA_VISIBLE_DEVICES` assignments of a module.
#[derive(Default)]
pub struct DeviceSites<'a> {
    pub literals: Vec<(&'a Expr, u32)>,
    pub indices: Vec<(&'a Expr, u32)>,
    pub visible_devices: Vec<&'a Stmt>,
}

pub fn device_sites<'a>(suite: &'a [Stmt]) -> DeviceSites<'a> {
    struct V<'a> {
        out: DeviceSites<'a>,
    }
    impl<'a> Visitor<'a> for V<'a> {
        fn visit_stmt(&mut self, s: &'a Stmt) {
            if let Stmt::Assign(a) = s
                && a.targets.iter().any(|t| {
                    matches!(t, Expr::Subscript(sub)
                        if matches!(&*sub.slice, Expr::StringLiteral(l) if l.value.to_str() == "CUDA_VISIBLE_DEVICES"))
                })
            {
                self.out.visible_devices.push(s);
                return;
            }
            walk_stmt(self, s);
        }
        fn visit_expr(&mut self, e: &'a Expr) {
            match e {
                Expr::StringLiteral(l) => {
                    if let Some(n) = l.value.to_str().strip_prefix("cuda:")
                        && let Ok(n) = n.parse::<u32>()
                    {
                        self.out.literals.push((e, n));
                    }
                }
                Expr::Call(c) => {
                    let idx_arg = match &*c.func {
                        Expr::Attribute(a) if a.attr.as_str() == "cuda" => c.arguments.args.first(),
                        Expr::Attribute(a)
                            if a.attr.as_str() == "device"
                                && matches!(c.arguments.args.first(), Some(Expr::StringLiteral(l)) if l.value.to_str() == "cuda") =>
                        {
                            c.arguments.args.get(1)
                        }
                        _ => None,
                    };
                    if let Some(arg @ Expr::NumberLiteral(n)) = idx_arg
                        && let Some(i) = n
                            .value
                            .as_int()
                            .and_then(|i| i.as_u64())
                            .and_then(|i| u32::try_from(i).ok())
                    {
                        self.out.indices.push((arg, i));
                    }
                    walk_expr(self, e);
                }
                _ => walk_expr(self, e),
            }
        }
    }
    let mut v = V {
        out: DeviceSites::default(),
    };
    for s in suite {
        v.visit_stmt(s);
    }
    v.out
}

pub fn run(tx: &mut Tx) {
    let idx = tx.idx;
    for m in tx.plan.modules.clone() {
        let sites = device_sites(idx.project.modules[m].parsed.suite());
        if sites.literals.is_empty() && sites.indices.is_empty() && sites.visible_devices.is_empty()
        {
            continue;
        }
        let lr = tx.local_rank(m);
        let q = tx.ed.quote(m);
        for (e, n) in sites.literals {
            tx.ed.edit(
                m,
                RULE,
                e.start(),
                Edit::replace(e.range(), format!("f{q}cuda:{{{lr}}}{q}")),
                format!("\"cuda:{n}\" → this process's GPU (LOCAL_RANK)"),
            );
        }
        for (e, n) in sites.indices {
            tx.ed.edit(
                m,
                RULE,
                e.start(),
                Edit::replace(e.range(), lr.clone()),
                format!("device index {n} → LOCAL_RANK"),
            );
        }
        for s in sites.visible_devices {
            let text = tx.ed.text(m, s).replace('\n', " ");
            tx.ed.edit(
                m,
                RULE,
                s.start(),
                Edit::replace(
                    s.range(),
                    format!("pass  # ranklift: torchrun gives each process its GPU ({lr}); `{text}` would hide it"),
                ),
                "CUDA_VISIBLE_DEVICES is left to the launcher: each process uses the GPU of its LOCAL_RANK",
            );
        }
    }
}
