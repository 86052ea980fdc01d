//! Code the run cannot reach because a module-level flag decides it: an optimizer built only
//! when the flag is true, while the program sets it false and never changes it.
//!
//! **Trigger:** an optimizer constructor inside the `then` branch of a conditional expression or
//! an `if` statement whose test is false for certain (or inside the `else` branch of one whose
//! test is true for certain). A test is decided when it is built from *constant flags* — a name
//! the module binds exactly once, at module level, to `True`, `False` or `None`, and binds
//! nowhere else (no function assigns it, by `global` or otherwise) — with `not`, `and`, `or`,
//! `is True` / `is False` / `is None` / `is not None` and `==` / `!=` against those constants.
//!
//! **Effect:** the plan does not count that optimizer, so the parameters it would take do not
//! make their model a trained one: a module the run keeps frozen is not wrapped in DDP.
//!
//! **Why:** DistributedDataParallel refuses a module without a parameter that requires a
//! gradient (`RuntimeError: DistributedDataParallel is not needed when a module doesn't have any
//! parameter that requires a gradient`), at start, on every rank. An image-captioning program
//! freezes its pretrained encoder (`fine_tune_encoder = False`) and builds the encoder's
//! optimizer only when fine-tuning; wrapping the encoder because that optimizer *could* exist
//! made the rewrite crash where the original trains.
//!
//! ```python
//! fine_tune_encoder = False
//! encoder.fine_tune(fine_tune_encoder)          # requires_grad = False everywhere
//! encoder_optimizer = torch.optim.Adam(encoder.parameters()) if fine_tune_encoder else None
//! decoder_optimizer = torch.optim.Adam(decoder.parameters())
//! # before: encoder = DDP(encoder, ...) and decoder = DDP(decoder, ...) -> RuntimeError at start
//! # after:  decoder = DDP(decoder, ...) only; the frozen encoder runs as it is on every rank
//! ```
use ruff_python_ast::{self as ast, CmpOp, Expr, Stmt};
use ruff_text_size::Ranged;

use ranklift_python::fxhash::FastMap;

use crate::index::{CallInfo, Index};

/// A flag's value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Const {
    Bool(bool),
    None,
}

impl Const {
    fn truthy(self) -> bool {
        matches!(self, Const::Bool(true))
    }
}

/// The constant flags of every module: names bound once, at module level, to a constant.
pub struct Flags(Vec<FastMap<String, Const>>);

impl Flags {
    pub fn of(idx: &Index) -> Flags {
        let mut bindings: Vec<FastMap<String, (usize, Option<Const>)>> =
            vec![FastMap::default(); idx.project.modules.len()];
        for info in &idx.stmts {
            let m = info.scope.module;
            let module_level = info.scope.func.is_none();
            let mut bind = |name: &str, value: Option<Const>| {
                let e = bindings[m].entry(name.to_owned()).or_insert((0, None));
                e.0 += 1;
                e.1 = if module_level { value } else { None };
            };
            match info.stmt {
                Stmt::Assign(a) => {
                    for t in &a.targets {
                        let value = (a.targets.len() == 1).then(|| constant(&a.value)).flatten();
                        names_in(t, &mut |n| bind(n, value));
                    }
                }
                Stmt::AnnAssign(a) => {
                    let value = a.value.as_deref().and_then(constant);
                    names_in(&a.target, &mut |n| bind(n, value));
                }
                Stmt::AugAssign(a) => names_in(&a.target, &mut |n| bind(n, None)),
                Stmt::For(f) => names_in(&f.target, &mut |n| bind(n, None)),
                Stmt::With(w) => {
                    for item in &w.items {
                        if let Some(v) = &item.optional_vars {
                            names_in(v, &mut |n| bind(n, None));
                        }
                    }
                }
                Stmt::Global(g) => {
                    // A function that declares the name global may rebind it: not a constant.
                    for n in &g.names {
                        bind(n.as_str(), None);
                        bind(n.as_str(), None);
                    }
                }
                Stmt::Import(_)
                | Stmt::ImportFrom(_)
                | Stmt::FunctionDef(_)
                | Stmt::ClassDef(_) => {
                    for n in bound_by_definition(info.stmt) {
                        bind(&n, None);
                    }
                }
                _ => {}
            }
        }
        Flags(
            bindings
                .into_iter()
                .map(|b| {
                    b.into_iter()
                        .filter_map(|(n, (count, v))| (count == 1).then_some((n, v?)))
                        .collect()
                })
                .collect(),
        )
    }

    /// The value of `e` in `module`, when constant flags decide it.
    fn eval(&self, module: usize, e: &Expr) -> Option<Const> {
        match e {
            Expr::BooleanLiteral(b) => Some(Const::Bool(b.value)),
            Expr::NoneLiteral(_) => Some(Const::None),
            Expr::Name(n) => self.0[module].get(n.id.as_str()).copied(),
            Expr::UnaryOp(u) if u.op == ast::UnaryOp::Not => {
                Some(Const::Bool(!self.eval(module, &u.operand)?.truthy()))
            }
            Expr::BoolOp(b) => {
                let and = b.op == ast::BoolOp::And;
                let mut all_known = true;
                for v in &b.values {
                    match self.eval(module, v) {
                        // `False and ...` / `True or ...` decide the whole test.
                        Some(c) if c.truthy() != and => return Some(Const::Bool(!and)),
                        Some(_) => {}
                        None => all_known = false,
                    }
                }
                all_known.then_some(Const::Bool(and))
            }
            Expr::Compare(c) if c.ops.len() == 1 => {
                let (l, r) = (
                    self.eval(module, &c.left)?,
                    self.eval(module, &c.comparators[0])?,
                );
                let same = l == r;
                match c.ops[0] {
                    CmpOp::Is | CmpOp::Eq => Some(Const::Bool(same)),
                    CmpOp::IsNot | CmpOp::NotEq => Some(Const::Bool(!same)),
                    _ => None,
                }
            }
            _ => None,
        }
    }

    /// Whether the call sits in a branch the run never takes.
    pub fn unreachable(&self, idx: &Index, call: &CallInfo) -> bool {
        let m = call.scope.module;
        let at = call.call.range();
        // Conditional expressions around the call, within its statement.
        let mut dead = false;
        visit_if_exprs(idx.stmts[call.stmt].stmt, &mut |i: &ast::ExprIf| {
            if let Some(c) = self.eval(m, &i.test) {
                let in_body = i.body.range().contains_range(at);
                let in_else = i.orelse.range().contains_range(at);
                dead |= (in_body && !c.truthy()) || (in_else && c.truthy());
            }
        });
        if dead {
            return true;
        }
        // `if` statements around it.
        let mut s = Some(call.stmt);
        while let Some(id) = s {
            let info = &idx.stmts[id];
            if let Some(p) = info.parent
                && let Stmt::If(i) = idx.stmts[p].stmt
                && let Some(c) = self.eval(m, &i.test)
            {
                let inside = |body: &[Stmt]| body.iter().any(|b| b.range().contains_range(at));
                let in_else = i
                    .elif_else_clauses
                    .iter()
                    .any(|e| e.test.is_none() && inside(&e.body));
                if (inside(&i.body) && !c.truthy()) || (in_else && c.truthy()) {
                    return true;
                }
            }
            s = info.parent;
        }
        false
    }
}

fn constant(e: &Expr) -> Option<Const> {
    match e {
        Expr::BooleanLiteral(b) => Some(Const::Bool(b.value)),
        Expr::NoneLiteral(_) => Some(Const::None),
        _ => None,
    }
}

fn names_in(e: &Expr, f: &mut dyn FnMut(&str)) {
    match e {
        Expr::Name(n) => f(n.id.as_str()),
        Expr::Tuple(t) => t.elts.iter().for_each(|x| names_in(x, f)),
        Expr::List(l) => l.elts.iter().for_each(|x| names_in(x, f)),
        Expr::Starred(s) => names_in(&s.value, f),
        _ => {}
    }
}

fn bound_by_definition(s: &Stmt) -> Vec<String> {
    match s {
        Stmt::Import(i) => i
            .names
            .iter()
            .map(|a| {
                a.asname.as_ref().map_or_else(
                    || a.name.as_str().split('.').next().unwrap_or("").to_owned(),
                    |n| n.to_string(),
                )
            })
            .collect(),
        Stmt::ImportFrom(i) => i
            .names
            .iter()
            .map(|a| a.asname.as_ref().unwrap_or(&a.name).to_string())
            .collect(),
        Stmt::FunctionDef(f) => vec![f.name.to_string()],
        Stmt::ClassDef(c) => vec![c.name.to_string()],
        _ => Vec::new(),
    }
}

/// Every conditional expression in the statement's own expressions (not in nested statements).
fn visit_if_exprs<'a>(s: &'a Stmt, f: &mut dyn FnMut(&'a ast::ExprIf)) {
    use ruff_python_ast::visitor::{Visitor, walk_expr};
    struct V<'f, 'a> {
        f: &'f mut dyn FnMut(&'a ast::ExprIf),
    }
    impl<'a> Visitor<'a> for V<'_, 'a> {
        fn visit_stmt(&mut self, _: &'a Stmt) {}
        fn visit_expr(&mut self, e: &'a Expr) {
            if let Expr::If(i) = e {
                (self.f)(i);
            }
            walk_expr(self, e);
        }
    }
    let mut v = V { f };
    ruff_python_ast::visitor::walk_stmt(&mut v, s);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Which optimizer calls of `source` the run can reach (by the text of their first line).
    fn reachable(name: &str, source: &str) -> Vec<String> {
        let dir = std::env::temp_dir().join(format!("ranklift-dead-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("train.py");
        std::fs::write(&path, source).unwrap();
        let project = ranklift_python::Project::load_file(&path, &|_| false);
        let idx = Index::build(&project);
        let flags = Flags::of(&idx);
        idx.calls
            .iter()
            .filter(|c| idx.text(0, &*c.call.func).ends_with("SGD"))
            .filter(|c| !flags.unreachable(&idx, c))
            .map(|c| idx.text(0, &c.call.arguments.args[0]).to_owned())
            .collect()
    }

    #[test]
    fn constant_flags_rule_branches_out_and_anything_else_keeps_them() {
        let src = "import torch\nfine_tune = False\nresume = None\n\
            a = torch.optim.SGD(enc, lr=1) if fine_tune else None\n\
            b = torch.optim.SGD(dec, lr=1) if not fine_tune else None\n\
            if fine_tune is True and resume is None:\n    c = torch.optim.SGD(enc2, lr=1)\n\
            else:\n    d = torch.optim.SGD(dec2, lr=1)\n\
            if resume is not None or fine_tune:\n    e = torch.optim.SGD(enc3, lr=1)\n";
        assert_eq!(reachable("flags", src), ["dec", "dec2"]);
        // A flag a function may rebind, or one bound twice, decides nothing.
        let src = "import torch\nfine_tune = False\ndef main():\n    global fine_tune\n    fine_tune = True\n\
            a = torch.optim.SGD(enc, lr=1) if fine_tune else None\n";
        assert_eq!(reachable("global", src), ["enc"]);
        let src = "import torch\nfine_tune = False\nfine_tune = True\n\
            a = torch.optim.SGD(enc, lr=1) if fine_tune else None\n";
        assert_eq!(reachable("twice", src), ["enc"]);
        // An unknown test (an argument) decides nothing either.
        let src = "import sys, torch\nfine_tune = len(sys.argv) > 1\n\
            a = torch.optim.SGD(enc, lr=1) if fine_tune else None\n";
        assert_eq!(reachable("unknown", src), ["enc"]);
    }
}
