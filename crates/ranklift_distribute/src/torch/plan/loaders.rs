//! Following a training loop's iterable back to the `DataLoader(...)` calls it may be: names,
//! parameters (through call sites), `self.` attributes, project functions' returns and
//! generators' yields, progress-bar wrappers, both branches of conditionals, and constant
//! subscripts of the tuples and dicts loaders are returned in (a dict filled per split is
//! narrowed by the `if split == "train":` around each loader's binding).

use ruff_python_ast::{self as ast, Expr, Stmt};
use ruff_text_size::Ranged;

use super::{
    Holder, Plan, arg_params, bindings, call_id, call_sites, holder_of, is_param, loop_source,
    returns, yielded_sources,
};
use crate::index::{CallId, Callee, FuncId, Index, Scope, StmtId};
use crate::torch::names;

/// Follow `e` (in `scope`) to the `DataLoader(...)` calls it may be: through names, parameters,
/// attributes, project functions that return loaders, wrappers (`tqdm`, `enumerate`, ...) and
/// every branch of a conditional expression or `or`.
pub fn resolve_loader(
    idx: &Index,
    plan: &Plan,
    scope: Scope,
    e: &Expr,
    depth: usize,
    out: &mut Vec<CallId>,
) {
    if depth > 8 {
        return;
    }
    let m = scope.module;
    match e {
        Expr::Call(c) => {
            if idx
                .qualify(m, &c.func)
                .is_some_and(|q| names::is_data_loader(&q))
            {
                if let Some(id) = call_id(idx, m, c) {
                    out.push(id);
                }
                return;
            }
            // `enumerate(loader)`, `tqdm(loader)`, `iter(loader)`, ...
            let peeled = loop_source(e);
            if !std::ptr::eq(peeled, e) {
                resolve_loader(idx, plan, scope, peeled, depth + 1, out);
                return;
            }
            // A project function that returns loaders, or a method of a project class's
            // instance (`batch_loader.next()`, found through `plan.callee`).
            if let Some((f, fs)) = project_callee(idx, plan, scope, c) {
                for r in returns(idx, f) {
                    resolve_loader(idx, plan, fs, r, depth + 1, out);
                }
                // A generator yields the batches of what it iterates (`for data in dl: yield
                // data`, `yield from dl`): drawing from it draws from that loader.
                for (_, src) in yielded_sources(idx, f) {
                    resolve_loader(idx, plan, fs, src, depth + 1, out);
                }
            }
        }
        Expr::Name(n) => {
            let name = n.id.as_str();
            if let Some(f) = scope.func
                && is_param(idx, f, name)
            {
                for (s, arg) in passed_as(idx, plan, f, name) {
                    resolve_loader(idx, plan, s, arg, depth + 1, out);
                }
                return;
            }
            for (s, v, pos) in bindings(idx, scope, name) {
                match pos {
                    None => resolve_loader(idx, plan, s, v, depth + 1, out),
                    Some(i) => {
                        // `train_loader, val_loader = make_loaders(...)`.
                        if let Expr::Tuple(t) = v
                            && let Some(el) = t.elts.get(i)
                        {
                            resolve_loader(idx, plan, s, el, depth + 1, out);
                        } else if let Expr::Call(c) = v
                            && let Some(Callee::Func(f)) = idx.resolve_call(s, c)
                        {
                            let fs = Scope {
                                module: idx.funcs[f].module,
                                func: Some(f),
                            };
                            for r in returns(idx, f) {
                                if let Expr::Tuple(t) = r
                                    && let Some(el) = t.elts.get(i)
                                {
                                    resolve_loader(idx, plan, fs, el, depth + 1, out);
                                }
                            }
                        }
                    }
                }
            }
        }
        Expr::Attribute(a) => {
            if let Some(Holder::Attr { class, attr }) = holder_of(idx, scope, e)
                && matches!(&*a.value, Expr::Name(n) if n.id.as_str() == "self")
            {
                for (s, info) in idx.stmts.iter().enumerate() {
                    let Some(f) = info.scope.func else { continue };
                    if idx.funcs[f].class != Some(class) {
                        continue;
                    }
                    if let Stmt::Assign(asg) = info.stmt
                        && asg.targets.iter().any(|t| {
                            matches!(t, Expr::Attribute(ta) if ta.attr.as_str() == attr
                                && matches!(&*ta.value, Expr::Name(n) if n.id.as_str() == "self"))
                        })
                    {
                        let _ = s;
                        resolve_loader(idx, plan, info.scope, &asg.value, depth + 1, out);
                    }
                }
            }
        }
        // `tqdm(loader) if show else loader`, `wrapped or loader`, `(it := loader)`: the loader
        // of every branch (the same one, seen through a progress bar or not).
        Expr::If(i) => {
            resolve_loader(idx, plan, scope, &i.body, depth + 1, out);
            resolve_loader(idx, plan, scope, &i.orelse, depth + 1, out);
        }
        Expr::BoolOp(b) => {
            for v in &b.values {
                resolve_loader(idx, plan, scope, v, depth + 1, out);
            }
        }
        Expr::Named(n) => resolve_loader(idx, plan, scope, &n.value, depth + 1, out),
        // `data_loader[0]` of a `(train_loader, valid_loader)` a project function returned,
        // `loaders["train"]` of a dict literal.
        Expr::Subscript(sub) => {
            let key = match &*sub.slice {
                Expr::NumberLiteral(n) => match &n.value {
                    ast::Number::Int(i) => i.as_usize().map(Key::Index),
                    _ => None,
                },
                Expr::StringLiteral(st) => Some(Key::Str(st.value.to_str())),
                _ => None,
            };
            if let Some(key) = key {
                element(idx, plan, scope, &sub.value, &key, depth + 1, out);
            }
        }
        _ => {}
    }
}

/// The loaders a dict `name` holds at key `k`, stored item by item (`loaders[split] = dl`, in
/// a loop over the splits): the stored value, and for a name, only its bindings that an
/// `if split == "train":` / `else:` around them allows for `k`.
fn stored_items(
    idx: &Index,
    plan: &Plan,
    scope: Scope,
    name: &str,
    k: &str,
    depth: usize,
    out: &mut Vec<CallId>,
) {
    let m = scope.module;
    let home = bindings(idx, scope, name)
        .first()
        .map_or(scope, |(s, _, _)| *s);
    for st in idx.modules[m].stmts.clone() {
        let info = &idx.stmts[st];
        let Stmt::Assign(a) = info.stmt else { continue };
        if info.scope != home {
            continue;
        }
        let Some(Expr::Subscript(sub)) = a.targets.first() else {
            continue;
        };
        if !matches!(&*sub.value, Expr::Name(n) if n.id.as_str() == name) {
            continue;
        }
        match (&*sub.slice, &*a.value) {
            (Expr::StringLiteral(lit), v) => {
                if lit.value.to_str() == k {
                    resolve_loader(idx, plan, home, v, depth + 1, out);
                }
            }
            (Expr::Name(var), Expr::Name(v)) => {
                for b in idx.modules[m].stmts.clone() {
                    let bi = &idx.stmts[b];
                    if bi.scope == home
                        && let Stmt::Assign(ba) = bi.stmt
                        && ba
                            .targets
                            .iter()
                            .any(|t| matches!(t, Expr::Name(n) if n.id == v.id))
                        && allows(idx, b, var.id.as_str(), k)
                    {
                        resolve_loader(idx, plan, home, &ba.value, depth + 1, out);
                    }
                }
            }
            (_, v) => resolve_loader(idx, plan, home, v, depth + 1, out),
        }
    }
}

/// Can statement `s` run when `var == k`, as far as the `if var == "lit":` / `elif` / `else`
/// branches around it say?
fn allows(idx: &Index, s: StmtId, var: &str, k: &str) -> bool {
    // `var == "lit"`: Some(lit); any other test: None.
    let literal = |e: &Expr| -> Option<String> {
        let Expr::Compare(c) = e else { return None };
        let ([ast::CmpOp::Eq], [right]) = (&*c.ops, &*c.comparators) else {
            return None;
        };
        match (&*c.left, right) {
            (Expr::Name(n), Expr::StringLiteral(l)) | (Expr::StringLiteral(l), Expr::Name(n))
                if n.id.as_str() == var =>
            {
                Some(l.value.to_str().to_owned())
            }
            _ => None,
        }
    };
    let r = idx.stmts[s].stmt.range();
    let mut cur = idx.stmts[s].parent;
    while let Some(p) = cur {
        if let Stmt::If(i) = idx.stmts[p].stmt {
            let mut tests: Vec<Option<String>> = vec![literal(&i.test)];
            let in_body = i.body.iter().any(|b| b.range().contains_range(r));
            if in_body {
                if tests[0].as_deref().is_some_and(|l| l != k) {
                    return false;
                }
            } else {
                for clause in &i.elif_else_clauses {
                    let inside = clause.body.iter().any(|b| b.range().contains_range(r));
                    if inside {
                        // Every earlier test failed; this clause's own test (if any) held.
                        if tests.iter().any(|t| t.as_deref() == Some(k)) {
                            return false;
                        }
                        if let Some(t) = &clause.test
                            && literal(t).is_some_and(|l| l != k)
                        {
                            return false;
                        }
                        break;
                    }
                    tests.push(clause.test.as_ref().and_then(literal));
                }
            }
        }
        if matches!(idx.stmts[p].stmt, Stmt::FunctionDef(_)) {
            break;
        }
        cur = idx.stmts[p].parent;
    }
    true
}

/// What the call sites of `f` pass as its parameter `name`, each in its caller's scope.
fn passed_as<'a>(idx: &Index<'a>, plan: &Plan, f: FuncId, name: &str) -> Vec<(Scope, &'a Expr)> {
    let mut out = Vec::new();
    for c in call_sites(idx, plan, f) {
        let ci = &idx.calls[c];
        for (arg, p) in arg_params(idx, f, ci.call) {
            if p == name {
                out.push((ci.scope, arg));
            }
        }
    }
    out
}

/// The project function a call runs (the index's callee, else the plan's: methods of project
/// instances), with its scope.
fn project_callee(
    idx: &Index,
    plan: &Plan,
    scope: Scope,
    c: &ast::ExprCall,
) -> Option<(FuncId, Scope)> {
    let f = match idx.resolve_call(scope, c) {
        Some(Callee::Func(f)) => f,
        _ => call_id(idx, scope.module, c).and_then(|id| plan.callee[id])?,
    };
    let fs = Scope {
        module: idx.funcs[f].module,
        func: Some(f),
    };
    Some((f, fs))
}

/// A subscript's constant key.
enum Key<'k> {
    Index(usize),
    Str(&'k str),
}

/// The loaders at `key` of the tuples, lists and dicts `e` may be (followed as
/// [`resolve_loader`] follows a loader).
fn element(
    idx: &Index,
    plan: &Plan,
    scope: Scope,
    e: &Expr,
    key: &Key,
    depth: usize,
    out: &mut Vec<CallId>,
) {
    if depth > 8 {
        return;
    }
    match (e, key) {
        (Expr::Tuple(t), Key::Index(k)) => {
            if let Some(el) = t.elts.get(*k) {
                resolve_loader(idx, plan, scope, el, depth + 1, out);
            }
        }
        (Expr::List(l), Key::Index(k)) => {
            if let Some(el) = l.elts.get(*k) {
                resolve_loader(idx, plan, scope, el, depth + 1, out);
            }
        }
        (Expr::Dict(d), Key::Str(k)) => {
            for item in &d.items {
                if matches!(&item.key, Some(Expr::StringLiteral(s)) if s.value.to_str() == *k) {
                    resolve_loader(idx, plan, scope, &item.value, depth + 1, out);
                }
            }
        }
        (Expr::Name(n), _) => {
            let name = n.id.as_str();
            if let Some(f) = scope.func
                && is_param(idx, f, name)
            {
                for (s, arg) in passed_as(idx, plan, f, name) {
                    element(idx, plan, s, arg, key, depth + 1, out);
                }
                return;
            }
            for (s, v, pos) in bindings(idx, scope, name) {
                if pos.is_none() {
                    element(idx, plan, s, v, key, depth + 1, out);
                }
            }
            if let Key::Str(k) = key {
                stored_items(idx, plan, scope, name, k, depth + 1, out);
            }
        }
        (Expr::Call(c), _) => {
            if let Some((f, fs)) = project_callee(idx, plan, scope, c) {
                for r in returns(idx, f) {
                    element(idx, plan, fs, r, key, depth + 1, out);
                }
            }
        }
        _ => {}
    }
}
