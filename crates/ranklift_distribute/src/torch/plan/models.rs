//! The models a plan finds: the modules whose parameters an optimizer takes, followed through
//! names, parameter groups, the receivers of a model's own methods, factories that return them,
//! and the trainer classes (and their bases) that store them.

use ruff_python_ast::{Expr, Stmt};
use ruff_text_size::Ranged;

use super::{Holder, Model, Plan, arg_params, assigned_to, bindings, returns};
use crate::index::{CallId, Callee, FuncId, Index, Scope};
use crate::torch::names;

/// Receivers of `.parameters()` / `.named_parameters()` inside an expression.
pub(super) fn parameter_owners<'a>(e: &'a Expr, out: &mut Vec<&'a Expr>) {
    use ruff_python_ast::visitor::{Visitor, walk_expr};
    struct V<'a, 'o> {
        out: &'o mut Vec<&'a Expr>,
    }
    impl<'a> Visitor<'a> for V<'a, '_> {
        fn visit_expr(&mut self, e: &'a Expr) {
            if let Expr::Call(c) = e
                && let Expr::Attribute(a) = &*c.func
                && matches!(a.attr.as_str(), "parameters" | "named_parameters")
            {
                self.out.push(&a.value);
                return;
            }
            walk_expr(self, e);
        }
    }
    V { out }.visit_expr(e);
}

/// `parameter_owners` of `e`, and of the values of the names it mentions (in `scope`), `depth`
/// levels deep.
pub(super) fn owners_through_names<'a>(
    idx: &Index<'a>,
    scope: Scope,
    e: &'a Expr,
    depth: usize,
    out: &mut Vec<&'a Expr>,
) {
    let before = out.len();
    parameter_owners(e, out);
    if out.len() > before || depth == 0 {
        return;
    }
    let mut names: Vec<&'a str> = Vec::new();
    {
        use ruff_python_ast::visitor::{Visitor, walk_expr};
        struct V<'a, 'o>(&'o mut Vec<&'a str>);
        impl<'a> Visitor<'a> for V<'a, '_> {
            fn visit_expr(&mut self, e: &'a Expr) {
                if let Expr::Name(n) = e {
                    self.0.push(n.id.as_str());
                }
                walk_expr(self, e);
            }
        }
        V(&mut names).visit_expr(e);
    }
    names.sort_unstable();
    names.dedup();
    for n in names {
        let (_, vals) = idx.assignments(scope, n);
        for v in vals {
            if v.range() != e.range() {
                owners_through_names(idx, scope, v, depth - 1, out);
            }
        }
    }
}

/// The holder of the model an expression names: `model` (or `model.head`: the whole model),
/// `self.model`.
pub(super) fn holder_of(idx: &Index, scope: Scope, e: &Expr) -> Option<Holder> {
    match e {
        Expr::Name(n) => {
            let name = n.id.to_string();
            let (mut s, _) = idx.assignments(scope, &name);
            // Bound in the function by unpacking (`dataset, model, opt = load()`): local too.
            if s != scope
                && bindings(idx, scope, &name)
                    .iter()
                    .any(|(bs, _, _)| *bs == scope)
            {
                s = scope;
            }
            // A parameter is local to its function even without assignments.
            let is_param = scope.func.is_some_and(|f| is_param(idx, f, &name));
            Some(Holder::Name {
                scope: if is_param { scope } else { s },
                name,
            })
        }
        Expr::Attribute(a) => match &*a.value {
            Expr::Name(n) if n.id.as_str() == "self" => {
                let f = scope.func?;
                let class = idx.funcs[f]
                    .class
                    .or_else(|| idx.funcs[f].parent.and_then(|p| idx.funcs[p].class))?;
                Some(Holder::Attr {
                    class,
                    attr: a.attr.to_string(),
                })
            }
            inner => holder_of(idx, scope, inner),
        },
        _ => None,
    }
}

pub(super) fn find_models(idx: &Index, plan: &mut Plan) {
    for &oc in &plan.optimizers {
        let c = &idx.calls[oc];
        let k = plan.factory_params.get(&oc).copied().unwrap_or(0);
        let mut arg: Option<&Expr> = c.call.arguments.args.get(k);
        if arg.is_none() {
            arg = c
                .call
                .arguments
                .keywords
                .iter()
                .find(|k| k.arg.as_ref().is_some_and(|a| a.as_str() == "params"))
                .map(|k| &k.value);
        }
        let Some(arg) = arg else { continue };
        let mut owners = Vec::new();
        // `params = list(model.parameters())` then `SGD(params, ...)`, and parameter groups
        // built from named lists (`[{"params": decay}, {"params": no_decay}]`): names are
        // followed to their values in the scope, a few levels deep.
        owners_through_names(idx, c.scope, arg, 3, &mut owners);
        for o in owners {
            let Some(h) = holder_of(idx, c.scope, o) else {
                continue;
            };
            // `model.head.parameters()`: the optimizer trains part of the model.
            let part = match (o, &h) {
                (Expr::Attribute(_), Holder::Name { .. }) => true,
                (Expr::Attribute(a), Holder::Attr { .. }) => {
                    matches!(&*a.value, Expr::Attribute(_))
                }
                _ => false,
            };
            // `self.parameters()` in a method of the model's class (`configure_optimizers`):
            // the model is the receiver of the method's calls.
            let mut cands = vec![h];
            if let Holder::Name { scope, name } = &cands[0]
                && name == "self"
                && let Some(f) = scope.func
                && idx.funcs[f].class.is_some()
            {
                cands = call_sites(idx, plan, f)
                    .into_iter()
                    .filter_map(|site| {
                        let ci = &idx.calls[site];
                        match &*ci.call.func {
                            Expr::Attribute(a) => holder_of(idx, ci.scope, &a.value),
                            _ => None,
                        }
                    })
                    .collect();
            }
            for mut h in cands {
                // A model handed to the function that builds the optimizer: the caller's holder.
                if let Holder::Name { scope, name } = &h
                    && let Some(f) = scope.func
                    && is_param(idx, f, name)
                    && let Some(outer) = caller_holder(idx, plan, f, name)
                {
                    h = outer;
                }
                let holders: Vec<Holder> = returned_holders(idx, plan, h)
                    .into_iter()
                    .map(|h| stored_holder(idx, plan, h))
                    .collect();
                for h in holders {
                    if let Some(existing) = plan.models.iter_mut().find(|m| m.holder == h) {
                        existing.part &= part;
                    } else {
                        plan.models.push(Model {
                            holder: h,
                            optimizer: oc,
                            part,
                            data_parallel: None,
                        });
                    }
                }
            }
        }
    }
    // `model = nn.DataParallel(model)`.
    for (id, c) in idx.calls.iter().enumerate() {
        if !plan.in_reach(c.scope.module) {
            continue;
        }
        if !idx
            .qualify(c.scope.module, &c.call.func)
            .is_some_and(|q| names::is_data_parallel(&q))
        {
            continue;
        }
        let Some(t) = assigned_to(idx, c.stmt, c.call) else {
            continue;
        };
        let Some(h) = holder_of(idx, c.scope, t) else {
            continue;
        };
        if let Some(m) = plan.models.iter_mut().find(|m| m.holder == h) {
            m.data_parallel = Some(id);
        }
    }
}

/// A model built in a function that returns it (`def build(): ...; return model, optimizer`)
/// lives where the function's callers bind the result (`model, opt = build()`): one holder per
/// call site. Other holders are themselves.
pub(super) fn returned_holders(idx: &Index, plan: &Plan, h: Holder) -> Vec<Holder> {
    let Holder::Name { scope, name } = &h else {
        return vec![h];
    };
    let Some(f) = scope.func else { return vec![h] };
    // The model's position in what the function returns (None: returned alone).
    let mut pos: Option<Option<usize>> = None;
    for r in returns(idx, f) {
        match r {
            Expr::Name(n) if n.id.as_str() == name => pos = Some(None),
            Expr::Tuple(t) => {
                if let Some(i) = t
                    .elts
                    .iter()
                    .position(|e| matches!(e, Expr::Name(n) if n.id.as_str() == name))
                {
                    pos = Some(Some(i));
                }
            }
            _ => {}
        }
    }
    let Some(pos) = pos else { return vec![h] };
    let mut out = Vec::new();
    for c in call_sites(idx, plan, f) {
        let ci = &idx.calls[c];
        let Some(t) = assigned_to(idx, ci.stmt, ci.call) else {
            continue;
        };
        let target = match (t, pos) {
            (Expr::Name(_), None) => Some(t),
            (Expr::Tuple(tt), Some(i)) => tt.elts.get(i),
            _ => None,
        };
        if let Some(target) = target
            && let Some(holder) = holder_of(idx, ci.scope, target)
        {
            out.push(holder);
        }
    }
    if out.is_empty() { vec![h] } else { out }
}

/// A model handed to the constructor of a project class that keeps it (`trainer =
/// Trainer(model, ...)` with `self.model = model.to(gpu_id)` in `__init__`) and trains it in its
/// methods lives in that attribute: the wrap belongs at the end of `__init__` (after `.to()`),
/// where the trainer's own copy is the one that trains — PyTorch's DDP tutorial
/// (`single_gpu.py` → `multigpu_torchrun.py`) moves it there. Other holders are themselves.
pub(super) fn stored_holder(idx: &Index, plan: &Plan, h: Holder) -> Holder {
    let Holder::Name { scope, name } = &h else {
        return h;
    };
    for c in idx.calls.iter() {
        if c.scope != *scope {
            continue;
        }
        let Some(Callee::Class(cl)) = idx.resolve_call(c.scope, c.call) else {
            continue;
        };
        let Some(init) = idx.method(cl, "__init__") else {
            continue;
        };
        let trains = idx
            .funcs
            .iter()
            .enumerate()
            .any(|(f, info)| info.class == Some(cl) && plan.training_funcs.contains(&f));
        if !trains {
            continue;
        }
        for (arg, param) in arg_params(idx, init, c.call) {
            if !matches!(arg, Expr::Name(n) if n.id.as_str() == name) {
                continue;
            }
            if let Some(held) = stored_attr(idx, init, &param, 3) {
                return held;
            }
        }
    }
    h
}

/// The `self.` attribute constructor `init` stores its parameter `param` in: `self.X = param`
/// or `self.X = param.to(...)` (method chains on it), or, through
/// `super().__init__(..., param, ...)`, where the base class's constructor stores it (`depth`
/// levels up).
pub(super) fn stored_attr(idx: &Index, init: FuncId, param: &str, depth: usize) -> Option<Holder> {
    let class = idx.funcs[init].class?;
    for info in &idx.stmts {
        if info.scope.func != Some(init) {
            continue;
        }
        let Stmt::Assign(a) = info.stmt else { continue };
        let [Expr::Attribute(t)] = a.targets.as_slice() else {
            continue;
        };
        if !matches!(&*t.value, Expr::Name(n) if n.id.as_str() == "self") {
            continue;
        }
        let mut v: &Expr = &a.value;
        while let Expr::Call(vc) = v
            && let Expr::Attribute(va) = &*vc.func
        {
            v = &va.value;
        }
        if matches!(v, Expr::Name(n) if n.id.as_str() == param) {
            return Some(Holder::Attr {
                class,
                attr: t.attr.to_string(),
            });
        }
    }
    if depth == 0 {
        return None;
    }
    // `super().__init__(model, ...)`: the base class's constructor, with the parameter it binds.
    for c in idx.calls.iter() {
        if c.scope.func != Some(init) {
            continue;
        }
        let Expr::Attribute(a) = &*c.call.func else {
            continue;
        };
        let is_super = a.attr.as_str() == "__init__"
            && matches!(&*a.value, Expr::Call(sc) if matches!(&*sc.func, Expr::Name(n) if n.id.as_str() == "super"));
        if !is_super {
            continue;
        }
        for base in idx.ancestors(class) {
            let Some(&base_init) = idx.classes[base].methods.get("__init__") else {
                continue;
            };
            // The bound arguments, as a call through an instance binds them (no `self`).
            for (arg, p) in arg_params(idx, base_init, c.call) {
                if matches!(arg, Expr::Name(n) if n.id.as_str() == param)
                    && let Some(h) = stored_attr(idx, base_init, &p, depth - 1)
                {
                    return Some(h);
                }
            }
            break;
        }
    }
    None
}

pub fn is_param(idx: &Index, f: FuncId, name: &str) -> bool {
    let p = &idx.funcs[f].def.parameters;
    p.posonlyargs
        .iter()
        .chain(&p.args)
        .chain(&p.kwonlyargs)
        .any(|a| a.parameter.name.as_str() == name)
}

/// The call sites of project function `f` in reached modules.
pub fn call_sites(_idx: &Index, plan: &Plan, f: FuncId) -> Vec<CallId> {
    plan.sites.get(&f).cloned().unwrap_or_default()
}

/// The holder a parameter's argument names at the (first resolvable) call site of `f`.
pub(super) fn caller_holder(idx: &Index, plan: &Plan, f: FuncId, param: &str) -> Option<Holder> {
    for c in call_sites(idx, plan, f) {
        let ci = &idx.calls[c];
        for (arg, p) in arg_params(idx, f, ci.call) {
            if p == param
                && let Some(h) = holder_of(idx, ci.scope, arg)
            {
                return Some(h);
            }
        }
    }
    None
}
