//! Rule `ddp_wrap`: each trained model is wrapped in `DistributedDataParallel`, and code that
//! reads the model's own attributes afterwards goes through `.module`.
//!
//! **Trigger:** each model whose parameters a `torch.optim` optimizer takes (`plan::Model`).
//!
//! **Rewrite:**
//! - a model held by a name: `model = DDP(model, device_ids=...)` right before the first
//!   statement of its scope that trains (reaches `optimizer.step()`), so after `.to(device)` and
//!   after a checkpoint is loaded into it;
//! - a model handed to a library that distributes itself when it gets a DDP module (Opacus'
//!   `make_private`, `crate::torch::adopters`): the same line before that statement;
//! - a model held by `self.model`: the same line at the end of the method that binds it
//!   (`__init__`);
//! - `nn.DataParallel(model, ...)` → `model`, and the wrap above (the migration PyTorch
//!   recommends: one process per GPU instead of one process driving all of them);
//! - after the wrap, `model.X` → `model.module.X` for everything the wrapper does not answer for
//!   the model (its own layers and methods, `state_dict`, `load_state_dict`: `names::ddp_answers`),
//!   and `torch.save(model, ...)` saves `model.module` — in the scope, in functions it is passed
//!   to, and (for `self.model`) in the class's other methods.
//!
//! When every optimizer takes only part of the model (`model.head.parameters()`, a frozen or
//! `no_grad` backbone), or the program discards some of the model's outputs (`validity, _ =
//! discriminator(x)`: the head behind `_` gets no gradient from that loss, as in a GAN whose
//! discriminator has an auxiliary head), or its class builds a submodule that no method uses
//! (`self.label_emb = nn.Embedding(...)` left over in a generator), or its `forward` calls a
//! layer only under a condition on its inputs (`if labels is not None:`, labels dropped at
//! random), the wrap says `find_unused_parameters=True`: DDP otherwise waits for gradients of
//! parameters that never get one and fails at the next iteration.
//!
//! **Why:** DDP broadcasts rank 0's parameters and buffers when it is built and averages
//! gradients in `backward()`, so every rank takes the same step. A checkpoint
//! saved from the wrapper has `module.`-prefixed keys that the undistributed model cannot load
//! (pytorch#3805): saving `model.module.state_dict()` keeps checkpoints interchangeable.
//!
//! ```python
//! # before
//! model = Net().to(device)
//! optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
//! for epoch in range(10):
//!     train(model, loader, optimizer)
//! torch.save(model.state_dict(), "model.pt")
//! # after
//! model = Net().to(device)
//! optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
//! model = DDP(model, device_ids=[LOCAL_RANK] if torch.cuda.is_available() else None)
//! for epoch in range(10):
//!     train(model, loader, optimizer)
//! torch.save(model.module.state_dict(), "model.pt")
//! ```
use ranklift_python::{Edit, Severity};
use ruff_python_ast::visitor::{Visitor, walk_expr};
use ruff_python_ast::{Expr, Stmt};
use ruff_text_size::{Ranged, TextSize};

use crate::index::{Callee, FuncId, Scope, StmtId};
use crate::torch::plan::{Holder, arg_params, call_sites};
use crate::torch::rules::{top_ancestor, top_level};
use crate::torch::{Tx, names};

const RULE: &str = "ddp_wrap";

fn device_ids(tx: &mut Tx, m: usize) -> String {
    let lr = tx.local_rank(m);
    let torch = tx.names[m].torch.clone();
    format!("device_ids=[{lr}] if {torch}.cuda.is_available() else None")
}

pub fn run(tx: &mut Tx) {
    let idx = tx.idx;
    for model in tx.plan.models.clone() {
        if let Some(dp) = model.data_parallel {
            // `nn.DataParallel(model)` → `model`: the one DDP wrap below replaces it, also when
            // the DataParallel line only runs on multi-GPU machines.
            let c = &idx.calls[dp];
            let m = c.scope.module;
            if let Some(doomed) = data_parallel_stmt(tx, dp) {
                // `model = nn.DataParallel(model)` says nothing once DDP wraps the model: the
                // line goes, and so does an `if` that only held it (`if n_gpu > 1:`).
                let range = idx.stmts[doomed].stmt.range();
                let start = tx.ed.line_start(m, range.start());
                let (end, _) = tx.ed.after_line(m, range.end());
                tx.ed.edit(
                    m,
                    RULE,
                    c.call.start(),
                    Edit::delete(ruff_text_size::TextRange::new(start, end)),
                    "nn.DataParallel removed: DistributedDataParallel (one process per GPU) replaces it",
                );
            } else if let Some(first) = c.call.arguments.args.first() {
                let inner = tx.ed.text(m, first).to_owned();
                tx.ed.edit(
                    m,
                    RULE,
                    c.call.start(),
                    Edit::replace(c.call.range(), inner),
                    "nn.DataParallel removed: DistributedDataParallel (one process per GPU) replaces it",
                );
            }
        }
        // Only part of the model trains (`model.head.parameters()`): the other parameters get
        // no gradient, and DDP must not wait for them.
        let callee = match &model.holder {
            Holder::Name { name, .. } => name.clone(),
            Holder::Attr { attr, .. } => format!("self.{attr}"),
        };
        let extra = if model.part
            || discards_outputs(idx, &callee)
            || model_class(idx, &model.holder)
                .is_some_and(|c| has_unused_submodule(idx, c) || calls_layers_on_condition(idx, c))
        {
            ", find_unused_parameters=True"
        } else {
            ""
        };
        match &model.holder {
            Holder::Name { scope, name } => wrap_name(tx, *scope, name, extra),
            Holder::Attr { class, attr } => wrap_attr(tx, *class, attr, extra),
        }
    }
}

fn wrap_name(tx: &mut Tx, scope: Scope, name: &str, extra: &str) {
    let idx = tx.idx;
    let m = scope.module;
    let body = top_level(idx, scope);
    let Some(t) = wrap_point(tx, scope, name) else {
        let anchor = body
            .first()
            .map(|&s| idx.stmts[s].stmt.range())
            .unwrap_or_default();
        tx.ed.diag(m, anchor, crate::codes::NO_WRAP_POINT, Severity::Error,
            format!("cannot place the DDP wrap of `{name}`: no statement after it is bound in its scope reaches the training step"),
            "bind the model and run the training loop in the same function (or at module level)");
        return;
    };
    if !tx.ed.lines_around_ok(t) {
        tx.ed.diag(m, idx.stmts[t].stmt.range(), crate::codes::NO_WRAP_POINT, Severity::Error,
            format!("cannot place the DDP wrap of `{name}` before this statement: it shares its line with other code"),
            "put the statement on its own line");
        return;
    }
    let ddp = tx.ddp(m);
    let ids = device_ids(tx, m);
    let line = format!("{name} = {ddp}({name}, {ids}{extra})");
    tx.ed.insert_lines_before(
        m,
        RULE,
        idx.stmts[t].stmt,
        &[line],
        format!("`{name}` wrapped in DistributedDataParallel before training (gradients averaged across ranks; rank 0's weights broadcast)"),
    );
    let after = idx.stmts[t].stmt.start();
    // A new object bound to the name after the wrap (`model = Net()` then loading a checkpoint
    // into it, as the PyTorch quickstart ends) is not wrapped: what follows reads it directly.
    let rebound = idx.modules[m]
        .stmts
        .clone()
        .filter(|&s| {
            let info = &idx.stmts[s];
            info.scope == scope && info.stmt.start() > after && binds(info.stmt, name)
        })
        .map(|s| idx.stmts[s].stmt.start())
        .min()
        .unwrap_or(TextSize::new(u32::MAX));
    // Uses in the scope after the wrap (nested functions included: they run later).
    let stmts_after: Vec<StmtId> = idx.modules[m]
        .stmts
        .clone()
        .filter(|&s| {
            let info = &idx.stmts[s];
            info.stmt.start() >= after
                && (info.stmt.start() < rebound || info.scope != scope)
                && (info.scope == scope || nested_in(idx, info.scope, scope))
                && !is_compound(info.stmt)
        })
        .collect();
    let mut stmts_after = stmts_after;
    // Functions also called after the name is bound to a fresh model (the best checkpoint
    // loaded for a last evaluation) see either: `getattr(model, "module", model)`.
    let mut stmts_either: Vec<StmtId> = Vec::new();
    if scope.func.is_none() {
        // Module-level functions that read the global model and only run after the wrap.
        for (f, info) in idx.funcs.iter().enumerate() {
            if info.module != m {
                continue;
            }
            let fs = Scope {
                module: m,
                func: Some(f),
            };
            let local = crate::torch::plan::is_param(idx, f, name)
                || !idx.assignments(fs, name).1.is_empty() && idx.assignments(fs, name).0 == fs;
            if local {
                continue;
            }
            let outer = outermost(idx, f);
            let sites = call_sites(idx, tx.plan, outer);
            if sites.is_empty()
                || sites
                    .iter()
                    .any(|&c| idx.calls[c].call.start() < after && idx.calls[c].scope.module == m)
            {
                continue;
            }
            let late = sites
                .iter()
                .any(|&c| idx.calls[c].call.start() >= rebound && idx.calls[c].scope.module == m);
            let body = idx.modules[m]
                .stmts
                .clone()
                .filter(|&s| idx.stmts[s].scope == fs && !is_compound(idx.stmts[s].stmt));
            if late {
                stmts_either.extend(body);
            } else {
                stmts_after.extend(body);
            }
        }
        stmts_after.sort_unstable();
        stmts_after.dedup();
        stmts_either.sort_unstable();
        stmts_either.dedup();
        stmts_after.retain(|s| !stmts_either.contains(s));
    }
    let is_name = |e: &Expr| matches!(e, Expr::Name(n) if n.id.as_str() == name);
    module_access(tx, m, &stmts_after, &is_name, false);
    module_access(tx, m, &stmts_either, &is_name, true);
    copies_get_module(tx, scope, name, after, rebound);
    // Functions the wrapped model is passed to after the wrap.
    let mut funcs: Vec<(FuncId, String)> = Vec::new();
    for c in &idx.calls {
        if c.scope != scope || c.call.start() < after || c.call.start() >= rebound {
            continue;
        }
        let Some(Callee::Func(f)) = idx.resolve_call(c.scope, c.call) else {
            continue;
        };
        for (arg, p) in arg_params(idx, f, c.call) {
            if matches!(arg, Expr::Name(n) if n.id.as_str() == name)
                && !funcs.contains(&(f, p.clone()))
            {
                funcs.push((f, p));
            }
        }
    }
    for (f, p) in funcs {
        // Every call must pass the wrapped model (none before the wrap).
        let early = call_sites(idx, tx.plan, f).into_iter().find(|&c| {
            let ci = &idx.calls[c];
            ci.scope == scope
                && ci.call.start() < after
                && arg_params(idx, f, ci.call)
                    .iter()
                    .any(|(a, pp)| *pp == p && matches!(a, Expr::Name(n) if n.id.as_str() == name))
        });
        if let Some(c) = early {
            let ci = &idx.calls[c];
            tx.ed.diag(ci.scope.module, ci.call.range(), crate::codes::WRAPPED_AND_NOT, Severity::Warning,
                format!("`{}` is called with `{name}` before the DDP wrap and after it; its attribute reads of `{p}` are left as they are", idx.funcs[f].def.name),
                format!("if `{}` reads the model's own layers or methods, call it with `{name}.module` after the wrap", idx.funcs[f].def.name));
            continue;
        }
        let fs = Scope {
            module: idx.funcs[f].module,
            func: Some(f),
        };
        let stmts: Vec<StmtId> = idx.modules[fs.module]
            .stmts
            .clone()
            .filter(|&s| {
                let sc = idx.stmts[s].scope;
                (sc == fs || nested_in(idx, sc, fs)) && !is_compound(idx.stmts[s].stmt)
            })
            .collect();
        let pn = p.clone();
        module_access(
            tx,
            fs.module,
            &stmts,
            &move |e| matches!(e, Expr::Name(n) if n.id.as_str() == pn),
            false,
        );
    }
}

fn wrap_attr(tx: &mut Tx, class: usize, attr: &str, extra: &str) {
    let idx = tx.idx;
    let m = idx.classes[class].module;
    let is_self_attr = |e: &Expr| {
        matches!(e, Expr::Attribute(a) if a.attr.as_str() == attr
            && matches!(&*a.value, Expr::Name(n) if n.id.as_str() == "self"))
    };
    // The method that binds `self.<attr>` (`__init__` first).
    let mut binder: Option<FuncId> = None;
    for (f, info) in idx.funcs.iter().enumerate() {
        if info.class != Some(class) {
            continue;
        }
        let scope = Scope {
            module: m,
            func: Some(f),
        };
        let binds_here = idx.modules[m].stmts.clone().any(|s| {
            idx.stmts[s].scope == scope
                && matches!(idx.stmts[s].stmt, Stmt::Assign(a) if a.targets.iter().any(is_self_attr))
        });
        if binds_here && (binder.is_none() || info.def.name.as_str() == "__init__") {
            binder = Some(f);
        }
    }
    let Some(b) = binder else {
        return;
    };
    let bscope = Scope {
        module: m,
        func: Some(b),
    };
    let body = top_level(idx, bscope);
    let target = |e: &Expr| format!("self.{attr}") == tx.ed.text(m, e);
    let _ = target;
    let ddp = tx.ddp(m);
    let ids = device_ids(tx, m);
    let line = format!("self.{attr} = {ddp}(self.{attr}, {ids}{extra})");
    let train_at = body
        .iter()
        .copied()
        .find(|s| tx.plan.training_stmts.contains(s));
    let wrap_at: TextSize = match train_at {
        Some(t) => {
            tx.ed.insert_lines_before(
                m,
                RULE,
                idx.stmts[t].stmt,
                &[line],
                format!("`self.{attr}` wrapped in DistributedDataParallel before training"),
            );
            idx.stmts[t].stmt.start()
        }
        None => {
            let Some(&last) = body.last() else { return };
            tx.ed.insert_lines_after(
                m,
                RULE,
                idx.stmts[last].stmt,
                &[line],
                format!(
                    "`self.{attr}` wrapped in DistributedDataParallel at the end of `{}`",
                    idx.funcs[b].def.name
                ),
            );
            idx.stmts[last].stmt.end()
        }
    };
    // Methods the binder calls before the wrap see the bare model: leave them.
    let called_early: Vec<FuncId> = idx
        .calls
        .iter()
        .filter(|c| c.scope == bscope && c.call.start() < wrap_at)
        .filter_map(|c| match idx.resolve_call(c.scope, c.call) {
            Some(Callee::Func(f)) => Some(f),
            _ => None,
        })
        .collect();
    let stmts: Vec<StmtId> = idx.modules[m]
        .stmts
        .clone()
        .filter(|&s| {
            let info = &idx.stmts[s];
            let Some(f) = info.scope.func else {
                return false;
            };
            let method = outermost_method(idx, f);
            idx.funcs[method].class == Some(class)
                && !called_early.contains(&method)
                && (method != b || info.stmt.start() >= wrap_at)
                && !is_compound(info.stmt)
        })
        .collect();
    let a = attr.to_owned();
    module_access(
        tx,
        m,
        &stmts,
        &move |e| {
            matches!(e, Expr::Attribute(x) if x.attr.as_str() == a
            && matches!(&*x.value, Expr::Name(n) if n.id.as_str() == "self"))
        },
        false,
    );
}

fn outermost(idx: &crate::index::Index, f: FuncId) -> FuncId {
    let mut cur = f;
    while let Some(p) = idx.funcs[cur].parent {
        cur = p;
    }
    cur
}

fn outermost_method(idx: &crate::index::Index, f: FuncId) -> FuncId {
    let mut cur = f;
    while idx.funcs[cur].class.is_none() {
        match idx.funcs[cur].parent {
            Some(p) => cur = p,
            None => break,
        }
    }
    cur
}

fn nested_in(idx: &crate::index::Index, inner: Scope, outer: Scope) -> bool {
    if inner.module != outer.module {
        return false;
    }
    let mut f = inner.func;
    while let Some(id) = f {
        let p = idx.funcs[id].parent;
        if p == outer.func && p.is_some() {
            return true;
        }
        f = p;
    }
    false
}

/// Compound statements are visited through their own child statements (the index has them), so
/// only their headers are looked at here.
fn is_compound(s: &Stmt) -> bool {
    matches!(
        s,
        Stmt::For(_)
            | Stmt::While(_)
            | Stmt::If(_)
            | Stmt::With(_)
            | Stmt::Try(_)
            | Stmt::FunctionDef(_)
            | Stmt::ClassDef(_)
            | Stmt::Match(_)
    )
}

/// The statement the wrap of `name` goes before: the first statement that reaches the training
/// step after the name is bound, in the innermost block that holds both — so a model bound and
/// trained inside `if __name__ == "__main__":` (or a `with`, `try`, ...) is wrapped inside that
/// block, where it exists, and one bound in both branches of an `if` is wrapped after the `if`.
/// A name bound nowhere in the scope (a parameter) is wrapped before the scope's first
/// training statement.
fn wrap_point(tx: &Tx, scope: Scope, name: &str) -> Option<StmtId> {
    let idx = tx.idx;
    let m = scope.module;
    let def_stmt = scope.func.map(|f| idx.funcs[f].stmt);
    // A statement that trains, or that hands the model to a library that distributes itself
    // only when it gets the DDP wrapper (Opacus' `make_private`: `crate::torch::adopters`).
    let adopts = |s: StmtId| {
        let r = idx.stmts[s].stmt.range();
        tx.plan.adopters.iter().any(|a| {
            a.model.as_deref() == Some(name)
                && idx.stmts[a.stmt].scope == scope
                && r.contains_range(idx.stmts[a.stmt].stmt.range())
        })
    };
    // A `def` that trains runs nothing where it stands: the wrap goes before the code that
    // calls it (not between the definitions).
    let training = |s: StmtId| {
        !matches!(idx.stmts[s].stmt, Stmt::FunctionDef(_) | Stmt::ClassDef(_))
            && (tx.plan.training_stmts.contains(&s) || adopts(s))
    };
    // The first binding in source order, in the scope's own code (not a class body).
    let binding = idx.modules[m]
        .stmts
        .clone()
        .filter(|&s| {
            idx.stmts[s].scope == scope
                && binds(idx.stmts[s].stmt, name)
                && !in_class_body(idx, s, def_stmt)
        })
        .min_by_key(|&s| idx.stmts[s].stmt.start());
    let Some(b) = binding else {
        // A parameter: wrapped where the function starts training. A module-level name that
        // no module-level statement binds (it lives in a function) cannot be wrapped there.
        scope.func?;
        return top_level(idx, scope).into_iter().find(|&s| training(s));
    };
    // From the binding's block outwards: the first training statement after it (or after the
    // compound statement that holds it) in the same block.
    let mut cur = b;
    loop {
        let info = &idx.stmts[cur];
        let found = idx.modules[m]
            .stmts
            .clone()
            .filter(|&s| {
                let si = &idx.stmts[s];
                si.body == info.body && si.index_in_body > info.index_in_body && training(s)
            })
            .min_by_key(|&s| idx.stmts[s].index_in_body);
        if found.is_some() {
            return found;
        }
        match info.parent {
            Some(p) if Some(p) != def_stmt => cur = p,
            _ => return None,
        }
    }
}

/// The statement to delete for `X = nn.DataParallel(X, ...)`: the assignment itself, or the `if`
/// (without `elif`/`else`) whose only statement it is. None when the call is part of a larger
/// expression (`nn.DataParallel(model).to(device)`: the call is replaced by its model instead).
fn data_parallel_stmt(tx: &Tx, dp: usize) -> Option<StmtId> {
    let idx = tx.idx;
    let c = &idx.calls[dp];
    let m = c.scope.module;
    let s = c.stmt;
    let Stmt::Assign(a) = idx.stmts[s].stmt else {
        return None;
    };
    let first = c.call.arguments.args.first()?;
    let same = a.targets.len() == 1
        && a.value.range() == c.call.range()
        && tx.ed.text(m, &a.targets[0]) == tx.ed.text(m, first);
    if !same || !tx.ed.stmt_alone(m, idx.stmts[s].stmt) {
        return None;
    }
    let info = &idx.stmts[s];
    if info.body_len == 1
        && let Some(p) = info.parent
        && let Stmt::If(i) = idx.stmts[p].stmt
        && i.elif_else_clauses.is_empty()
        && idx.stmts[p].body_len > 1
        && tx.ed.stmt_alone(m, idx.stmts[p].stmt)
    {
        return Some(p);
    }
    // The only statement of a block: it cannot go without leaving the block empty.
    (info.body_len > 1).then_some(s)
}

/// Whether statement `s` lies in a class body (below the scope's own `def`, if any).
fn in_class_body(idx: &crate::index::Index, s: StmtId, def_stmt: Option<StmtId>) -> bool {
    let mut cur = idx.stmts[s].parent;
    while let Some(p) = cur {
        if Some(p) == def_stmt {
            return false;
        }
        if matches!(idx.stmts[p].stmt, Stmt::ClassDef(_) | Stmt::FunctionDef(_)) {
            return true;
        }
        cur = idx.stmts[p].parent;
    }
    false
}

fn binds(s: &Stmt, name: &str) -> bool {
    match s {
        Stmt::Assign(a) => a.targets.iter().any(|t| match t {
            Expr::Name(n) => n.id.as_str() == name,
            Expr::Tuple(tt) => tt
                .elts
                .iter()
                .any(|e| matches!(e, Expr::Name(n) if n.id.as_str() == name)),
            _ => false,
        }),
        Stmt::AnnAssign(a) => matches!(&*a.target, Expr::Name(n) if n.id.as_str() == name),
        Stmt::With(w) => w.items.iter().any(|i| {
            i.optional_vars
                .as_deref()
                .is_some_and(|v| matches!(v, Expr::Name(n) if n.id.as_str() == name))
        }),
        _ => false,
    }
}

/// In the given statements (headers of compound statements included), `M.attr` → `M.module.attr`
/// for attributes the wrapper does not answer, and `torch.save(M, ...)` → `torch.save(M.module,
/// ...)`, where `is_model` recognises `M`.
/// `model.attr` → `model.module.attr` in `stmts` (and a whole-model `torch.save(model)` saves
/// `model.module`); with `either`, for code that also runs on the unwrapped model,
/// `getattr(model, "module", model).attr`.
fn module_access(
    tx: &mut Tx,
    m: usize,
    stmts: &[StmtId],
    is_model: &dyn Fn(&Expr) -> bool,
    either: bool,
) {
    let idx = tx.idx;
    struct V<'a, 'f> {
        is_model: &'f dyn Fn(&Expr) -> bool,
        hits: Vec<(&'a Expr, String)>,
        saves: Vec<&'a Expr>,
        /// Names of what `torch.save` saves (`state`, bound to a dict that holds the model).
        saved_names: Vec<&'a str>,
        torch_save: &'f dyn Fn(&Expr) -> bool,
    }
    impl<'a> Visitor<'a> for V<'a, '_> {
        fn visit_stmt(&mut self, _s: &'a Stmt) {}
        fn visit_expr(&mut self, e: &'a Expr) {
            if let Expr::Attribute(a) = e
                && (self.is_model)(&a.value)
            {
                if !names::ddp_answers(a.attr.as_str()) {
                    self.hits.push((&a.value, a.attr.to_string()));
                }
                return;
            }
            if let Expr::Call(c) = e
                && (self.torch_save)(&c.func)
                && let Some(first) = c.arguments.args.first()
            {
                if (self.is_model)(first) {
                    self.saves.push(first);
                } else if let Expr::Name(n) = first {
                    self.saved_names.push(n.id.as_str());
                } else {
                    bare_models(first, self.is_model, &mut self.saves);
                }
            }
            walk_expr(self, e);
        }
    }
    let torch_save = |f: &Expr| idx.qualify(m, f).is_some_and(|q| &*q == "torch.save");
    let mut v = V {
        is_model,
        hits: Vec::new(),
        saves: Vec::new(),
        saved_names: Vec::new(),
        torch_save: &torch_save,
    };
    for &s in stmts {
        for e in header_exprs(idx.stmts[s].stmt) {
            v.visit_expr(e);
        }
    }
    // `state = {"net": net, ...}` then `torch.save(state, path)`: the model in the saved dict.
    for &s in stmts {
        if let Stmt::Assign(a) = idx.stmts[s].stmt
            && a.targets
                .iter()
                .any(|t| matches!(t, Expr::Name(n) if v.saved_names.contains(&n.id.as_str())))
        {
            bare_models(&a.value, is_model, &mut v.saves);
        }
    }
    // Compound statements' headers (`for x in model.blocks:`, `if model.flag:`).
    let compound_headers: Vec<&Expr> = idx.modules[m]
        .stmts
        .clone()
        .filter(|&s| is_compound(idx.stmts[s].stmt))
        .filter(|&s| stmts.iter().any(|&o| idx.stmts[o].parent == Some(s)))
        .flat_map(|s| compound_header_exprs(idx.stmts[s].stmt))
        .collect();
    for e in compound_headers {
        v.visit_expr(e);
    }
    let mut done: Vec<TextSize> = Vec::new();
    for (recv, attr) in v.hits {
        if done.contains(&recv.end()) {
            continue;
        }
        done.push(recv.end());
        let text = tx.ed.text(m, recv);
        let (edit, how) = unwrap_edit(tx, m, recv, either);
        tx.ed.edit(
            m,
            RULE,
            recv.start(),
            edit,
            format!("`{text}.{attr}` read through {how} (the wrapped model's own attribute)"),
        );
    }
    for e in v.saves {
        if done.contains(&e.end()) {
            continue;
        }
        done.push(e.end());
        let (edit, _) = unwrap_edit(tx, m, e, either);
        tx.ed.edit(
            m,
            RULE,
            e.start(),
            edit,
            "the whole model is saved without its DDP wrapper",
        );
    }
    let _ = top_ancestor;
}

/// After the wrap, what copies the model — `copy.deepcopy(model)`, `AveragedModel(model)`, a
/// project class whose `__init__` deep-copies the argument (an EMA helper) — is given
/// `model.module`: a copy of the wrapper would be a second DDP over the same process group,
/// and its averaged weights would sit behind `.module` where the program reads them directly.
fn copies_get_module(tx: &mut Tx, scope: Scope, name: &str, after: TextSize, rebound: TextSize) {
    let idx = tx.idx;
    let m = scope.module;
    let mut edits = Vec::new();
    for (cid, c) in idx.calls.iter().enumerate() {
        if c.scope != scope || c.call.start() < after || c.call.start() >= rebound {
            continue;
        }
        let Some(arg) = c.call.arguments.args.first() else {
            continue;
        };
        if !matches!(arg, Expr::Name(n) if n.id.as_str() == name) {
            continue;
        }
        let copies = match tx.plan.qual(cid) {
            Some("copy.deepcopy" | "torch.optim.swa_utils.AveragedModel") => true,
            _ => match idx.resolve_call(c.scope, c.call) {
                Some(Callee::Class(cl)) => idx.method(cl, "__init__").is_some_and(|f| {
                    let first = arg_params(idx, f, c.call)
                        .into_iter()
                        .find(|(a, _)| a.range() == arg.range())
                        .map(|(_, p)| p);
                    first.is_some_and(|p| {
                        let text = idx.text(idx.funcs[f].module, idx.funcs[f].def);
                        text.contains(&format!("deepcopy({p})"))
                    })
                }),
                _ => false,
            },
        };
        if copies {
            edits.push(arg.end());
        }
    }
    for at in edits {
        tx.ed.edit(
            m,
            RULE,
            at,
            Edit::insert(at, ".module"),
            format!("the copy of `{name}` is made of the model, not of its DDP wrapper"),
        );
    }
}

/// The model itself (not one of its attributes) among the values of a saved container: a dict's
/// values, a list's or tuple's items, either branch of a conditional expression.
fn bare_models<'a>(e: &'a Expr, is_model: &dyn Fn(&Expr) -> bool, out: &mut Vec<&'a Expr>) {
    if is_model(e) {
        out.push(e);
        return;
    }
    match e {
        Expr::Dict(d) => {
            for item in &d.items {
                bare_models(&item.value, is_model, out);
            }
        }
        Expr::List(l) => l.elts.iter().for_each(|x| bare_models(x, is_model, out)),
        Expr::Tuple(t) => t.elts.iter().for_each(|x| bare_models(x, is_model, out)),
        Expr::If(i) => {
            bare_models(&i.body, is_model, out);
            bare_models(&i.orelse, is_model, out);
        }
        _ => {}
    }
}

/// `model` → `model.module`, or `getattr(model, "module", model)` for code that also runs on
/// the unwrapped model; and how that reads, for `--explain`.
fn unwrap_edit(tx: &Tx, m: usize, recv: &Expr, either: bool) -> (Edit, &'static str) {
    if either {
        let text = tx.ed.text(m, recv);
        let module = tx.ed.quoted(m, "module");
        (
            Edit::replace(recv.range(), format!("getattr({text}, {module}, {text})")),
            "`getattr(..., \"module\", ...)`, as the function also runs after the name is bound to an unwrapped model",
        )
    } else {
        (Edit::insert(recv.end(), ".module"), "`.module`")
    }
}

/// The expressions of a simple statement.
fn header_exprs(s: &Stmt) -> Vec<&Expr> {
    match s {
        Stmt::Expr(e) => vec![&e.value],
        Stmt::Assign(a) => {
            let mut v: Vec<&Expr> = vec![&a.value];
            v.extend(a.targets.iter());
            v
        }
        Stmt::AugAssign(a) => vec![&a.value, &a.target],
        Stmt::AnnAssign(a) => a.value.as_deref().into_iter().collect(),
        Stmt::Return(r) => r.value.as_deref().into_iter().collect(),
        Stmt::Assert(a) => vec![&a.test],
        Stmt::Delete(d) => d.targets.iter().collect(),
        _ => Vec::new(),
    }
}

fn compound_header_exprs(s: &Stmt) -> Vec<&Expr> {
    match s {
        Stmt::For(f) => vec![&f.iter],
        Stmt::While(w) => vec![&w.test],
        Stmt::If(i) => {
            let mut v: Vec<&Expr> = vec![&i.test];
            v.extend(i.elif_else_clauses.iter().filter_map(|c| c.test.as_ref()));
            v
        }
        Stmt::With(w) => w.items.iter().map(|i| &i.context_expr).collect(),
        _ => Vec::new(),
    }
}

/// Does the program unpack a call of `callee` (`discriminator`, `self.net`) into a tuple that
/// throws an output away (`validity, _ = discriminator(x)`)? The parameters that produce it get
/// no gradient from the loss built on the others.
fn discards_outputs(idx: &crate::index::Index, callee: &str) -> bool {
    idx.stmts.iter().any(|info| {
        let Stmt::Assign(a) = info.stmt else {
            return false;
        };
        let [Expr::Tuple(_) | Expr::List(_)] = a.targets.as_slice() else {
            return false;
        };
        let elts = match &a.targets[0] {
            Expr::Tuple(t) => &t.elts,
            Expr::List(l) => &l.elts,
            _ => return false,
        };
        let discards = elts.iter().any(|e| match e {
            Expr::Name(n) => n.id.as_str() == "_",
            Expr::Starred(st) => matches!(&*st.value, Expr::Name(n) if n.id.as_str() == "_"),
            _ => false,
        });
        let Expr::Call(c) = &*a.value else {
            return false;
        };
        let src = &idx.project.modules[info.scope.module].parsed.text;
        discards && &src[c.func.range()] == callee
    })
}

/// The project class a model is an instance of (`model = Net()`, `self.net = Net()`).
fn model_class(idx: &crate::index::Index, holder: &Holder) -> Option<crate::index::ClassId> {
    let (scope, value): (Scope, Option<&Expr>) = match holder {
        Holder::Name { scope, name } => {
            let (s, values) = idx.assignments(*scope, name);
            (s, values.first().copied())
        }
        Holder::Attr { .. } => return None,
    };
    let Some(Expr::Call(c)) = value else {
        return None;
    };
    // `Net().to(device)`: the class is the innermost call's.
    let mut call = c;
    while let Expr::Attribute(a) = &*call.func
        && let Expr::Call(inner) = &*a.value
    {
        call = inner;
    }
    match idx.resolve_call(scope, call) {
        Some(Callee::Class(k)) => Some(k),
        _ => None,
    }
}

/// Does the class build a submodule (`self.x = nn.Something(...)` in `__init__`) that nothing
/// in the class reads again (`self.x` appears once)? Its parameters never get a gradient. A class
/// that reaches its submodules dynamically (`getattr(self, ...)`, `self.children()`) is not judged.
/// Does the model's `forward` call one of its layers only under a condition on its inputs
/// (`if y is not None: h = h + self.label_emb(y)`, a class label dropped at random for
/// classifier-free guidance)? Then a step can leave that layer without a gradient, and DDP, which
/// waits for every parameter's gradient, fails at the next step. A condition on the model's own
/// attributes (`if self.downsample is not None:`) is the same at every step and does not count.
fn calls_layers_on_condition(idx: &crate::index::Index, class: crate::index::ClassId) -> bool {
    use ruff_python_ast::visitor::{Visitor, walk_expr, walk_stmt};
    let Some(f) = idx.method(class, "forward") else {
        return false;
    };
    let def = idx.funcs[f].def;
    let params: Vec<&str> = def
        .parameters
        .iter_non_variadic_params()
        .map(|p| p.parameter.name.as_str())
        .filter(|n| *n != "self")
        .collect();
    struct Names<'p>(&'p [&'p str], bool);
    impl<'a> Visitor<'a> for Names<'_> {
        fn visit_expr(&mut self, e: &'a Expr) {
            if let Expr::Name(n) = e
                && self.0.contains(&n.id.as_str())
            {
                self.1 = true;
            }
            walk_expr(self, e);
        }
    }
    struct LayerCalls(bool);
    impl<'a> Visitor<'a> for LayerCalls {
        fn visit_expr(&mut self, e: &'a Expr) {
            if let Expr::Call(c) = e
                && let Expr::Attribute(a) = &*c.func
                && matches!(&*a.value, Expr::Name(n) if n.id.as_str() == "self")
            {
                self.0 = true;
            }
            walk_expr(self, e);
        }
    }
    struct V<'p> {
        params: &'p [&'p str],
        found: bool,
    }
    impl<'a> Visitor<'a> for V<'_> {
        fn visit_stmt(&mut self, s: &'a Stmt) {
            if let Stmt::If(i) = s {
                let mut on_input = Names(self.params, false);
                on_input.visit_expr(&i.test);
                if on_input.1 {
                    let mut calls = LayerCalls(false);
                    for b in &i.body {
                        calls.visit_stmt(b);
                    }
                    for c in &i.elif_else_clauses {
                        for b in &c.body {
                            calls.visit_stmt(b);
                        }
                    }
                    self.found |= calls.0;
                }
            }
            walk_stmt(self, s);
        }
        fn visit_expr(&mut self, e: &'a Expr) {
            if let Expr::If(x) = e {
                let mut on_input = Names(self.params, false);
                on_input.visit_expr(&x.test);
                if on_input.1 {
                    let mut calls = LayerCalls(false);
                    calls.visit_expr(&x.body);
                    calls.visit_expr(&x.orelse);
                    self.found |= calls.0;
                }
            }
            walk_expr(self, e);
        }
    }
    let mut v = V {
        params: &params,
        found: false,
    };
    for st in &def.body {
        v.visit_stmt(st);
    }
    v.found
}

fn has_unused_submodule(idx: &crate::index::Index, class: crate::index::ClassId) -> bool {
    let info = &idx.classes[class];
    let m = info.module;
    let src = &idx.project.modules[m].parsed.text;
    let body = &src[info.def.range()];
    if [
        "getattr(self",
        "self.children(",
        "self.modules(",
        "self._modules",
        "self.named_",
    ]
    .iter()
    .any(|d| body.contains(d))
    {
        return false;
    }
    let Some(&init) = info.methods.get("__init__") else {
        return false;
    };
    let init_def = idx.funcs[init].def;
    init_def.body.iter().any(|st| {
        let Stmt::Assign(a) = st else { return false };
        let [Expr::Attribute(t)] = a.targets.as_slice() else {
            return false;
        };
        if !matches!(&*t.value, Expr::Name(n) if n.id.as_str() == "self") {
            return false;
        }
        let Expr::Call(c) = &*a.value else {
            return false;
        };
        if !idx.qualify(m, &c.func).is_some_and(|q| {
            q.starts_with("torch.nn.") && q[9..].chars().next().is_some_and(char::is_uppercase)
        }) {
            return false;
        }
        let needle = format!("self.{}", t.attr.as_str());
        let uses = body
            .match_indices(&needle)
            .filter(|(i, _)| {
                !body[i + needle.len()..]
                    .chars()
                    .next()
                    .is_some_and(|ch| ch.is_alphanumeric() || ch == '_')
            })
            .count();
        uses == 1
    })
}
