//! Which project function a call runs, beyond what the index resolves: methods of instances of
//! project classes, a method name only one project class defines, and factories that build a
//! class of the module they are given.

use ruff_python_ast::{self as ast, Expr, Stmt};
use ruff_text_size::Ranged;

use super::{arg_params, is_param, returns};
use crate::index::{Callee, ClassId, FuncId, Index, Scope};

/// The project function a call runs: what the index resolves (functions, constructors, methods
/// on `self`), else a method of the project class the receiver was built from
/// (`trainer = Trainer(...); trainer.fit()`, `Trainer(...).fit()`), found without value kinds.
pub(super) fn callee_of(
    idx: &Index,
    instances: &Instances,
    scope: Scope,
    call: &ast::ExprCall,
) -> Option<FuncId> {
    match idx.resolve_call(scope, call) {
        Some(Callee::Func(f)) => return Some(f),
        Some(Callee::Class(cl)) => return idx.method(cl, "__init__"),
        None => {}
    }
    let Expr::Attribute(a) = &*call.func else {
        return None;
    };
    let cl = match &*a.value {
        Expr::Call(inner) => match idx.resolve_call(scope, inner) {
            Some(Callee::Class(cl)) => cl,
            _ => return None,
        },
        Expr::Name(n) => {
            let module = Scope {
                module: scope.module,
                func: None,
            };
            let local = instances.get(&(scope, n.id.as_str()));
            (*local.or_else(|| instances.get(&(module, n.id.as_str())))?)?
        }
        _ => return None,
    };
    idx.method(cl, a.attr.as_str())
}

/// Methods of the reached project classes whose name no other reached class (nor a function)
/// defines, by name: `model.configure_optimizers(...)` on a model handed through a trainer's
/// attribute runs the one `configure_optimizers` of the project. Names the wrapper, the
/// optimizer or a tensor answer themselves are left out (`model.train()` is `nn.Module`'s).
pub(super) fn unique_methods<'a>(
    idx: &Index<'a>,
    reached: &[bool],
) -> crate::index::FastMap<&'a str, FuncId> {
    const LIBRARY: &[&str] = &[
        "step",
        "zero_grad",
        "backward",
        "train",
        "eval",
        "to",
        "cuda",
        "cpu",
        "forward",
        "__call__",
        "__init__",
        "state_dict",
        "load_state_dict",
        "parameters",
        "named_parameters",
        "modules",
        "children",
        "apply",
        "item",
        "update",
        "append",
        "get",
        "keys",
        "items",
        "values",
        "save",
        "load",
        "close",
        "write",
        "read",
        "format",
        "half",
        "float",
        "double",
        "register_buffer",
        "add_module",
        "requires_grad_",
    ];
    let mut count: crate::index::FastMap<&'a str, (usize, FuncId)> = Default::default();
    for (f, info) in idx.funcs.iter().enumerate() {
        if !reached[info.module] || info.parent.is_some() {
            continue;
        }
        let name = info.def.name.as_str();
        let e = count.entry(name).or_insert((0, f));
        e.0 += 1;
        if info.class.is_none() {
            e.0 += 1; // a function of the same name makes it ambiguous
        }
    }
    count
        .into_iter()
        .filter(|(name, (n, f))| {
            *n == 1 && idx.funcs[*f].class.is_some() && !LIBRARY.contains(name)
        })
        .map(|(name, (_, f))| (name, f))
        .collect()
}

/// The unique project method a call `recv.name(...)` runs (`unique_methods`), when the receiver
/// is a plain name or attribute (not a module or class the index resolves).
pub(super) fn duck_callee(
    idx: &Index,
    duck: &crate::index::FastMap<&str, FuncId>,
    c: &crate::index::CallInfo,
) -> Option<FuncId> {
    let Expr::Attribute(a) = &*c.call.func else {
        return None;
    };
    if !matches!(&*a.value, Expr::Name(_) | Expr::Attribute(_)) {
        return None;
    }
    if idx.qualify(c.scope.module, &a.value).is_some() {
        return None;
    }
    duck.get(a.attr.as_str()).copied()
}

/// When project function `f` returns `getattr(module, name)(*args, ...)` with `module` one of its
/// parameters (a factory of a class chosen by name), the position of `module`'s argument in
/// `call` (positional only: the arguments after it are the class's).
pub(super) fn module_factory_arg(idx: &Index, f: FuncId, call: &ast::ExprCall) -> Option<usize> {
    let param = returns(idx, f).into_iter().find_map(|r| {
        let Expr::Call(rc) = r else { return None };
        let Expr::Call(g) = &*rc.func else {
            return None;
        };
        if !matches!(&*g.func, Expr::Name(n) if n.id.as_str() == "getattr") {
            return None;
        }
        match g.arguments.args.first() {
            Some(Expr::Name(p)) if is_param(idx, f, p.id.as_str()) => Some(p.id.as_str()),
            _ => None,
        }
    })?;
    arg_params(idx, f, call).into_iter().find_map(|(a, p)| {
        (p == param)
            .then(|| {
                call.arguments
                    .args
                    .iter()
                    .position(|x| x.range() == a.range())
            })
            .flatten()
    })
}

/// Names bound to instances of project classes, per scope (`trainer = Trainer(...)`); None when
/// a name is also bound to something else.
pub(super) type Instances<'a> = crate::index::FastMap<(Scope, &'a str), Option<ClassId>>;

pub(super) fn instances<'a>(idx: &Index<'a>, reached: &[bool]) -> Instances<'a> {
    let mut out: Instances<'a> = Default::default();
    for info in &idx.stmts {
        if !reached[info.scope.module] {
            continue;
        }
        let Stmt::Assign(a) = info.stmt else { continue };
        for t in &a.targets {
            let Expr::Name(n) = t else { continue };
            let class = match &*a.value {
                Expr::Call(c) => match idx.resolve_call(info.scope, c) {
                    Some(Callee::Class(cl)) => Some(cl),
                    _ => None,
                },
                _ => None,
            };
            out.entry((info.scope, n.id.as_str()))
                .and_modify(|e| {
                    if *e != class {
                        *e = None
                    }
                })
                .or_insert(class);
        }
    }
    out
}
