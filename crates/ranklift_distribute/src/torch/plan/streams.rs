//! Hand-made mini-batches: a training loop that walks the rows of tensors by its own index
//! (`for i in range(0, len(data) - 1, bptt): x, y = get_batch(data, i)`, or `while i <
//! data.size(0) - 2:`), with no DataLoader — the word-language-model shape (`batchify` +
//! `get_batch`), and `xb = X[i:i + bs]` loops over arrays.
//!
//! Such data splits like a loader's: each rank takes a contiguous share of the rows of every
//! tensor the loop indexes (`rules::split_rows`), the loop's bound (`len(data)`) shrinking with
//! it. Found only when that is sure to be right:
//! - the loop's bound is `len(T)`, `T.size(0)` or `T.shape[0]` of a tensor it indexes;
//! - every tensor indexed by the loop's index — `T[... i ...]` in the loop, or passed with `i` to
//!   a project function that indexes its parameter so — is a name bound once before the loop in
//!   its scope (or at module level, or a parameter of the loop's function), not rebound inside
//!   the loop;
//! - nothing else reads it (an evaluation on the same tensor would see only a share).
//!
//! Otherwise the reason is returned and the loop stays unresolved (DST405 says why).

use ruff_python_ast::visitor::{self, Visitor};
use ruff_python_ast::{self as ast, Expr, Stmt};
use ruff_text_size::Ranged;

use crate::index::{FuncId, Index, Scope, StmtId};
use crate::torch::plan::{Plan, is_param, loop_source};

/// Where a share of a tensor's rows is taken.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Place {
    /// After the statement that binds it.
    After(StmtId),
    /// At the start of the function whose parameter it is.
    FuncStart(FuncId),
}

/// A tensor a training loop walks by row, to be cut to this rank's rows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RowStream {
    pub module: usize,
    pub name: String,
    pub place: Place,
    /// The training loop that walks it.
    pub walked_by: StmtId,
}

/// The index variable and the bound of a loop that walks rows: `for i in range(a, B, s)` (seen
/// through `enumerate`/`tqdm`), or `while i < B`.
fn index_and_bound(stmt: &Stmt) -> Option<(&str, &Expr)> {
    match stmt {
        Stmt::For(f) => {
            let Expr::Call(r) = loop_source(&f.iter) else {
                return None;
            };
            if !matches!(&*r.func, Expr::Name(n) if matches!(n.id.as_str(), "range" | "trange")) {
                return None;
            }
            let bound = match &*r.arguments.args {
                [one] => one,
                [_, stop, ..] => stop,
                _ => return None,
            };
            let enumerated = matches!(&*f.iter, Expr::Call(c)
                if matches!(&*c.func, Expr::Name(n) if n.id.as_str() == "enumerate"));
            let var = match (&*f.target, enumerated) {
                (Expr::Name(n), false) => n.id.as_str(),
                (Expr::Tuple(t), true) => match &*t.elts {
                    [_, Expr::Name(n)] => n.id.as_str(),
                    _ => return None,
                },
                _ => return None,
            };
            Some((var, bound))
        }
        Stmt::While(w) => {
            let Expr::Compare(c) = &*w.test else {
                return None;
            };
            let (Expr::Name(n), [op], [bound]) = (&*c.left, &*c.ops, &*c.comparators) else {
                return None;
            };
            matches!(op, ast::CmpOp::Lt | ast::CmpOp::LtE).then_some((n.id.as_str(), bound))
        }
        _ => None,
    }
}

/// The tensors whose row count `e` reads: `len(T)`, `T.size(0)`, `T.size()[0]`, `T.shape[0]`.
fn row_counts(e: &Expr) -> Vec<&str> {
    struct V<'a>(Vec<&'a str>);
    impl<'a> Visitor<'a> for V<'a> {
        fn visit_expr(&mut self, e: &'a Expr) {
            match e {
                Expr::Call(c) => match (&*c.func, &*c.arguments.args) {
                    (Expr::Name(f), [Expr::Name(t)]) if f.id.as_str() == "len" => {
                        self.0.push(t.id.as_str());
                    }
                    (Expr::Attribute(a), [Expr::NumberLiteral(z)])
                        if a.attr.as_str() == "size" && is_zero(z) =>
                    {
                        if let Expr::Name(t) = &*a.value {
                            self.0.push(t.id.as_str());
                        }
                    }
                    _ => {}
                },
                Expr::Subscript(s) if matches!(&*s.slice, Expr::NumberLiteral(z) if is_zero(z)) => {
                    let base = match &*s.value {
                        Expr::Attribute(a) if a.attr.as_str() == "shape" => Some(&*a.value),
                        Expr::Call(c) if c.arguments.is_empty() => match &*c.func {
                            Expr::Attribute(a) if a.attr.as_str() == "size" => Some(&*a.value),
                            _ => None,
                        },
                        _ => None,
                    };
                    if let Some(Expr::Name(t)) = base {
                        self.0.push(t.id.as_str());
                    }
                }
                _ => {}
            }
            visitor::walk_expr(self, e);
        }
    }
    let mut v = V(Vec::new());
    v.visit_expr(e);
    v.0
}

fn is_zero(n: &ast::ExprNumberLiteral) -> bool {
    matches!(&n.value, ast::Number::Int(i) if i.as_u8() == Some(0))
}

/// Does `e` read the name `var`?
fn mentions(e: &Expr, var: &str) -> bool {
    struct V<'v>(&'v str, bool);
    impl Visitor<'_> for V<'_> {
        fn visit_expr(&mut self, e: &Expr) {
            if matches!(e, Expr::Name(n) if n.id.as_str() == self.0) {
                self.1 = true;
            }
            visitor::walk_expr(self, e);
        }
    }
    let mut v = V(var, false);
    v.visit_expr(e);
    v.1
}

/// Names subscripted by an expression that reads `var` (`T[i:i + n]`), and the calls in `body`.
struct Indexed<'a> {
    var: &'a str,
    names: Vec<&'a str>,
    calls: Vec<&'a ast::ExprCall>,
}

impl<'a> Visitor<'a> for Indexed<'a> {
    fn visit_expr(&mut self, e: &'a Expr) {
        match e {
            Expr::Subscript(s) if mentions(&s.slice, self.var) => {
                if let Expr::Name(t) = &*s.value
                    && !self.names.contains(&t.id.as_str())
                {
                    self.names.push(t.id.as_str());
                }
            }
            Expr::Call(c) => self.calls.push(c),
            _ => {}
        }
        visitor::walk_expr(self, e);
    }
}

/// The parameters of project function `f` that its body indexes by parameter `index`.
fn indexed_params<'a>(idx: &Index<'a>, f: FuncId, index: &'a str) -> Vec<&'a str> {
    let mut v = Indexed {
        var: index,
        names: Vec::new(),
        calls: Vec::new(),
    };
    for s in &idx.funcs[f].def.body {
        v.visit_stmt(s);
    }
    v.names.retain(|n| is_param(idx, f, n));
    v.names
}

/// The name of parameter `pos` (positional) of `f`.
fn param_at<'a>(idx: &Index<'a>, f: FuncId, pos: usize) -> Option<&'a str> {
    let p = &idx.funcs[f].def.parameters;
    p.posonlyargs
        .iter()
        .chain(&p.args)
        .nth(pos)
        .map(|a| a.parameter.name.as_str())
}

/// The row streams training loop `lp` walks; or why they cannot be split (`None`: the loop
/// indexes nothing by its counter, so it is no walk over rows — full-batch training).
pub fn find(idx: &Index, plan: &Plan, lp: StmtId) -> Result<Vec<RowStream>, Option<String>> {
    let info = &idx.stmts[lp];
    let (scope, m) = (info.scope, info.scope.module);
    let Some((var, bound)) = index_and_bound(info.stmt) else {
        return Err(None);
    };
    let body: &[Stmt] = match info.stmt {
        Stmt::For(f) => &f.body,
        Stmt::While(w) => &w.body,
        _ => &[],
    };
    let mut v = Indexed {
        var,
        names: Vec::new(),
        calls: Vec::new(),
    };
    for s in body {
        v.visit_stmt(s);
    }
    let mut tensors = v.names.clone();
    // `get_batch(train_data, i)`: the arguments a project function indexes by the parameter `i`
    // is passed to.
    for c in &v.calls {
        let Some(cid) = super::call_id(idx, m, c) else {
            continue;
        };
        let Some(f) = plan.callee[cid] else { continue };
        let Some(pos) = c
            .arguments
            .args
            .iter()
            .position(|a| matches!(a, Expr::Name(n) if n.id.as_str() == var))
        else {
            continue;
        };
        let Some(index_param) = param_at(idx, f, pos) else {
            continue;
        };
        for p in indexed_params(idx, f, index_param) {
            let arg = (0..c.arguments.args.len())
                .find(|&k| param_at(idx, f, k) == Some(p))
                .and_then(|k| c.arguments.args.get(k))
                .or_else(|| c.arguments.find_keyword(p).map(|k| &k.value));
            if let Some(Expr::Name(t)) = arg
                && !tensors.contains(&t.id.as_str())
            {
                tensors.push(t.id.as_str());
            }
        }
    }
    if tensors.is_empty() {
        return Err(None);
    }
    let counted = row_counts(bound);
    if counted.is_empty() {
        return Err(Some(format!(
            "its bound `{}` is not the row count of a tensor it indexes (`len(data)`, `data.size(0)`)",
            idx.text(m, bound)
        )));
    }
    match counted.iter().find(|c| !tensors.contains(c)) {
        None => bind_all(idx, scope, lp, &tensors).map_err(Some),
        Some(unindexed) => Err(Some(format!(
            "its bound counts the rows of `{unindexed}`, which the loop does not index by `{var}`"
        ))),
    }
}

/// Where each of `names` is bound and where its share is taken: after the last binding of all
/// of them in their scope (so that code deriving one from another, `y = f(X)`, sees the whole
/// data), checking that nothing but loop `lp` reads them after that.
fn bind_all(
    idx: &Index,
    scope: Scope,
    lp: StmtId,
    names: &[&str],
) -> Result<Vec<RowStream>, String> {
    let m = scope.module;
    let loop_range = idx.stmts[lp].stmt.range();
    let assigns = |s: Scope, name: &str| -> Vec<StmtId> {
        idx.modules[m]
            .stmts
            .clone()
            .filter(|&st| {
                let i = &idx.stmts[st];
                i.scope == s && binds(i.stmt, name)
            })
            .collect()
    };
    // Each name's home scope and the binding statements there (none: a parameter).
    let mut homes: Vec<(&str, Scope, Vec<StmtId>)> = Vec::new();
    for &name in names {
        let local = assigns(scope, name);
        if local
            .iter()
            .any(|&st| loop_range.contains_range(idx.stmts[st].stmt.range()))
        {
            return Err(format!("`{name}` is rebound inside the loop"));
        }
        let before: Vec<StmtId> = local
            .iter()
            .copied()
            .filter(|&st| idx.stmts[st].stmt.start() < loop_range.start())
            .collect();
        if !before.is_empty() {
            homes.push((name, scope, before));
        } else if let Some(f) = scope.func
            && local.is_empty()
            && is_param(idx, f, name)
        {
            homes.push((name, scope, Vec::new()));
        } else if scope.func.is_some() && local.is_empty() {
            let module_scope = Scope {
                module: m,
                func: None,
            };
            let at = assigns(module_scope, name);
            if at.is_empty() {
                return Err(format!("`{name}` is not bound where ranklift can see it"));
            }
            homes.push((name, module_scope, at));
        } else {
            return Err(format!("`{name}` is not bound before the loop"));
        }
    }
    let mut out = Vec::new();
    for &(name, home, _) in &homes {
        // One place per scope: after the last binding of any of its names.
        let last = homes
            .iter()
            .filter(|h| h.1 == home)
            .flat_map(|h| h.2.iter().copied())
            .max_by_key(|&st| idx.stmts[st].stmt.start());
        let place = match (last, home.func) {
            (Some(st), _) => Place::After(st),
            (None, Some(f)) => Place::FuncStart(f),
            (None, None) => return Err(format!("`{name}` is not bound before the loop")),
        };
        let from = last.map_or(0.into(), |st| idx.stmts[st].stmt.end());
        // Every later read of the name — in its scope, or in a function that reads the global —
        // is the loop's.
        let stray = idx.refs.iter().find(|r| {
            r.scope.module == m
                && r.name.id.as_str() == name
                && !loop_range.contains_range(r.name.range())
                && ((r.scope == home && r.name.start() >= from)
                    || (home.func.is_none()
                        && r.scope.func.is_some_and(|f| {
                            !is_param(idx, f, name) && assigns(r.scope, name).is_empty()
                        })))
        });
        if let Some(r) = stray {
            return Err(format!(
                "`{name}` is also read outside the training loop (line {}), which would see only this rank's rows",
                idx.project.modules[m]
                    .parsed
                    .index
                    .line_index(r.name.start())
                    .get()
            ));
        }
        out.push(RowStream {
            module: m,
            name: name.to_owned(),
            place,
            walked_by: lp,
        });
    }
    Ok(out)
}

/// Does statement `s` bind `name` (`name = ...`, `a, name = ...`, `name: T = ...`)?
fn binds(s: &Stmt, name: &str) -> bool {
    let is = |t: &Expr| match t {
        Expr::Name(n) => n.id.as_str() == name,
        Expr::Tuple(tu) => tu
            .elts
            .iter()
            .any(|e| matches!(e, Expr::Name(n) if n.id.as_str() == name)),
        _ => false,
    };
    match s {
        Stmt::Assign(a) => a.targets.iter().any(is),
        Stmt::AnnAssign(a) => is(&a.target),
        Stmt::AugAssign(a) => is(&a.target),
        _ => false,
    }
}
