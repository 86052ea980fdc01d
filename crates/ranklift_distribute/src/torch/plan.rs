//! The training pattern of a PyTorch program: what the main script reaches, its optimizers and
//! their `step()` calls, the statements and functions that train (they reach a step), the models
//! whose parameters the optimizers update, and the data loaders the training loops iterate.
//!
//! Flow-insensitive and syntactic, like `crate::index`: names are followed through assignments in
//! their scope, `self.` attributes in their class, the parameters of project functions (through
//! their call sites) and the values project functions return. What cannot be followed is not
//! guessed: the rules report it.

use ruff_python_ast::{self as ast, Expr, Stmt};
use ruff_text_size::Ranged;

use crate::index::{CallId, ClassId, FastSet, FuncId, Index, Scope, StmtId};
use crate::torch::names;

mod calls;
mod loaders;
mod models;
pub mod streams;

use calls::{callee_of, duck_callee, instances, module_factory_arg, unique_methods};
pub use loaders::resolve_loader;
pub use models::{call_sites, is_param};
use models::{find_models, holder_of};

/// Where a model lives: a name in a scope, or an attribute of `self` in a class.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Holder {
    Name { scope: Scope, name: String },
    Attr { class: ClassId, attr: String },
}

impl Holder {
    pub fn text(&self) -> String {
        match self {
            Holder::Name { name, .. } => name.clone(),
            Holder::Attr { attr, .. } => format!("self.{attr}"),
        }
    }
}

#[derive(Debug, Clone)]
pub struct Model {
    pub holder: Holder,
    /// The optimizer constructor that takes its parameters.
    pub optimizer: CallId,
    /// An `nn.DataParallel(model)` call that already wraps it.
    pub data_parallel: Option<CallId>,
    /// Every optimizer takes only a part of it (`model.head.parameters()`): the rest may get no
    /// gradient, which DDP must be told about.
    pub part: bool,
}

#[derive(Debug, Clone)]
pub struct Loader {
    /// The `DataLoader(...)` call.
    pub call: CallId,
    /// The training loops (`for` statements) that iterate it.
    pub loops: Vec<StmtId>,
    /// Statements `it = iter(loader)` (or `it = cycle(loader)`, or a project generator over the
    /// loader) whose iterator a training step draws from with `next(it)`.
    pub iters: Vec<StmtId>,
    /// `for` loops of project generators that make a new pass over the loader each time they
    /// start (`def cycle(dl): while True: for data in dl: yield data`).
    pub passes: Vec<StmtId>,
    /// Statements in a training loop (`for` or `while`) that draw a batch through a project
    /// function or method (`batch = batch_loader.next()`, an "infinite" loader class).
    pub draws: Vec<StmtId>,
    /// Its `sampler=` is a `RandomSampler(..., replacement=True)` (through a name bound in the
    /// same scope): the call. Such a loader is not split by a DistributedSampler; each rank
    /// draws its own stream (rule `replacement_sampler`).
    pub replacement_sampler: Option<CallId>,
    /// Its `sampler=` is a `SubsetRandomSampler(indices)` whose index list can be named twice
    /// without effects (a name, an attribute, a slice of one): the call. Each rank samples its
    /// own share of the indices (rule `subset_sampler`), no DistributedSampler.
    pub subset_sampler: Option<CallId>,
}

pub struct Plan {
    pub main: usize,
    /// The main script and the project modules it imports, transitively.
    pub modules: Vec<usize>,
    /// `modules` as a membership table.
    reached: Vec<bool>,
    /// The project function each reached call runs (a function, or a class's `__init__`).
    callee: Vec<Option<FuncId>>,
    /// The reached calls of each project function.
    sites: crate::index::FastMap<FuncId, Vec<CallId>>,
    /// The qualified name of each reached call's callee (`torch.save`), computed once.
    qual: Vec<Option<std::sync::Arc<str>>>,
    pub optimizers: Vec<CallId>,
    /// Optimizers built through a project factory that instantiates a class of the module it is
    /// given (`config.init_obj("optimizer", torch.optim, params)`): the position of the
    /// argument that takes the parameters.
    pub factory_params: crate::index::FastMap<CallId, usize>,
    /// Source texts naming optimizers: assignment targets of optimizer constructors, and the
    /// parameters of project functions that receive them.
    pub optimizer_names: FastSet<String>,
    /// `optimizer.step()` and `scaler.step(optimizer)` calls.
    pub steps: Vec<CallId>,
    pub training_funcs: FastSet<FuncId>,
    /// Statements that reach a step (the step's statement and every enclosing one, and every
    /// statement that calls a training function).
    pub training_stmts: FastSet<StmtId>,
    pub models: Vec<Model>,
    pub loaders: Vec<Loader>,
    /// Training loops whose iterable could not be followed to a `DataLoader`.
    pub unresolved_loops: Vec<StmtId>,
    /// Optimizer steps that no loop over a loader runs (full-batch training).
    pub unfed_steps: Vec<CallId>,
    /// Tensors that training loops walk by row with their own index (hand-made mini-batches):
    /// each rank takes its share of their rows.
    pub row_streams: Vec<streams::RowStream>,
    /// Why a step loop that counts with `range(...)` or `while i < ...` could not be read as
    /// walking rows (said by DST405).
    pub not_streams: crate::index::FastMap<StmtId, String>,
    /// `for` loops that reach a step.
    pub train_loops: Vec<StmtId>,
    /// Library calls that take the model and its loader and distribute themselves once the
    /// model is DDP-wrapped (Opacus' `make_private`: `crate::torch::adopters`).
    pub adopters: Vec<crate::torch::adopters::Adopter>,
    /// Loaders handed to an adopter (removed from `loaders`: the library shards them), with the
    /// adopting call.
    pub adopted: Vec<(CallId, CallId)>,
    /// Module-level functions of the reached modules (and the functions nested in them) that
    /// nothing the program runs calls or refers to — `def test(): ...` left in a model file —
    /// whose code the rewrite leaves as it is.
    pub never_run: FastSet<FuncId>,
    /// Per statement: in an imported module's `if __name__ == "__main__":` block (never runs).
    pub dormant: Vec<bool>,
}

impl Plan {
    pub fn in_reach(&self, m: usize) -> bool {
        self.reached[m]
    }
    /// Does statement `s` run when the main script runs (as far as imports and `__main__`
    /// blocks tell)?
    pub fn runs_stmt(&self, idx: &Index, s: StmtId) -> bool {
        self.reached[idx.stmts[s].scope.module] && !self.dormant[s]
    }
    /// The qualified name of call `c`'s callee, for calls of reached modules.
    pub fn qual(&self, c: CallId) -> Option<&str> {
        self.qual[c].as_deref()
    }
}

/// Which module-level functions of the reached modules nothing runs: from the code that runs on
/// import (module level, class bodies) and every method (which dynamic dispatch may run), the
/// functions called or referred to (passed, decorated, assigned), transitively. Conservative: a
/// function named by any reached code, or decorated, counts as run.
fn never_run(idx: &Index, plan: &Plan) -> FastSet<FuncId> {
    let outermost = |mut f: FuncId| {
        while let Some(p) = idx.funcs[f].parent {
            f = p;
        }
        f
    };
    let free = |f: FuncId| {
        let o = outermost(f);
        plan.reached[idx.funcs[o].module]
            && idx.funcs[o].class.is_none()
            && idx.funcs[o].def.decorator_list.is_empty()
    };
    let mut run: FastSet<FuncId> = (0..idx.funcs.len()).filter(|&f| !free(f)).collect();
    let runs = |run: &FastSet<FuncId>, scope: Scope| scope.func.is_none_or(|f| run.contains(&f));
    loop {
        let before = run.len();
        for (id, c) in idx.calls.iter().enumerate() {
            if plan.reached[c.scope.module]
                && runs(&run, c.scope)
                && let Some(f) = plan.callee[id]
            {
                run.insert(f);
            }
        }
        for r in &idx.refs {
            if plan.reached[r.scope.module]
                && runs(&run, r.scope)
                && let Some(f) = idx.resolve_ref(r)
            {
                run.insert(f);
            }
        }
        if run.len() == before {
            break;
        }
    }
    (0..idx.funcs.len()).filter(|f| !run.contains(f)).collect()
}

/// The main module and the project modules it imports, transitively.
pub fn reach_modules(idx: &Index, main: usize) -> Vec<usize> {
    let mut seen = vec![main];
    let mut todo = vec![main];
    while let Some(m) = todo.pop() {
        for &i in &idx.modules[m].imports {
            if !seen.contains(&i) {
                seen.push(i);
                todo.push(i);
            }
        }
    }
    seen.sort_unstable();
    seen
}

/// For every statement: does it sit in the `if __name__ == "__main__":` block of a module other
/// than `main` (code that never runs when `main` is the script)?
fn dormant_stmts(idx: &Index, main: usize) -> Vec<bool> {
    let mut out = vec![false; idx.stmts.len()];
    for (s, info) in idx.stmts.iter().enumerate() {
        let mut cur = Some(s);
        while let Some(p) = cur {
            let pi = &idx.stmts[p];
            if pi.parent.is_none()
                && pi.scope.func.is_none()
                && pi.scope.module != main
                && let Stmt::If(i) = pi.stmt
                && matches!(&*i.test, Expr::Compare(c) if matches!(&*c.left, Expr::Name(n) if n.id.as_str() == "__name__"))
            {
                out[s] = true;
                break;
            }
            cur = pi.parent;
        }
        let _ = info;
    }
    out
}

/// Does the module import `torch` (any form)?
pub fn imports_torch(idx: &Index, m: usize) -> bool {
    idx.modules[m]
        .aliases
        .values()
        .any(|q| q == "torch" || q.starts_with("torch."))
}

pub fn build(idx: &Index, main: usize) -> Plan {
    let modules = reach_modules(idx, main);
    let reached_tbl: Vec<bool> = {
        let mut t = vec![false; idx.project.modules.len()];
        for &m in &modules {
            t[m] = true;
        }
        t
    };
    // An imported module's `if __name__ == "__main__":` block (a self-test, a demo) never runs
    // when the main script runs: its code is not judged, nor trained.
    let dormant = dormant_stmts(idx, main);
    let reached = |c: &&crate::index::CallInfo| reached_tbl[c.scope.module] && !dormant[c.stmt];
    let inst = instances(idx, &reached_tbl);
    use rayon::prelude::*;
    let duck = unique_methods(idx, &reached_tbl);
    let callee: Vec<Option<FuncId>> = idx
        .calls
        .par_iter()
        .map(|c| {
            if !reached_tbl[c.scope.module] {
                return None;
            }
            callee_of(idx, &inst, c.scope, c.call).or_else(|| duck_callee(idx, &duck, c))
        })
        .collect();
    let mut sites: crate::index::FastMap<FuncId, Vec<CallId>> = Default::default();
    for (c, f) in callee.iter().enumerate() {
        if let Some(f) = f {
            sites.entry(*f).or_default().push(c);
        }
    }
    // Template methods: `self._train_epoch(epoch)` in a base trainer's `train` runs the
    // override of the subclass the program built, so the override's call sites include it.
    for (g, info) in idx.funcs.iter().enumerate() {
        let Some(d) = info.class else { continue };
        if !reached_tbl[info.module] {
            continue;
        }
        for c in idx.ancestors(d) {
            let Some(&f) = idx.classes[c].methods.get(info.def.name.as_str()) else {
                continue;
            };
            let by_self: Vec<CallId> = sites
                .get(&f)
                .into_iter()
                .flatten()
                .copied()
                .filter(|&cid| {
                    matches!(&*idx.calls[cid].call.func, Expr::Attribute(a)
                        if matches!(&*a.value, Expr::Name(n) if n.id.as_str() == "self"))
                })
                .collect();
            if f != g && !by_self.is_empty() {
                sites.entry(g).or_default().extend(by_self);
            }
        }
    }
    let qual: Vec<Option<std::sync::Arc<str>>> = idx
        .calls
        .par_iter()
        .map(|c| {
            if !reached_tbl[c.scope.module] {
                return None;
            }
            // `getattr(torch.optim, args.optimizer)(...)`: a class of the module chosen by
            // name at run time, `torch.optim.{getattr}`.
            if let Expr::Call(g) = &*c.call.func
                && matches!(&*g.func, Expr::Name(n) if n.id.as_str() == "getattr")
                && let [module, _, ..] = &*g.arguments.args
            {
                return idx
                    .canonical(c.scope.module, module)
                    .map(|q| std::sync::Arc::from(format!("{q}.{{getattr}}")));
            }
            idx.canonical(c.scope.module, &c.call.func)
        })
        .collect();
    let mut plan = Plan {
        main,
        modules: modules.clone(),
        reached: reached_tbl.clone(),
        callee,
        sites,
        qual,
        optimizers: Vec::new(),
        factory_params: Default::default(),
        optimizer_names: FastSet::default(),
        steps: Vec::new(),
        training_funcs: FastSet::default(),
        training_stmts: FastSet::default(),
        models: Vec::new(),
        loaders: Vec::new(),
        unresolved_loops: Vec::new(),
        unfed_steps: Vec::new(),
        row_streams: Vec::new(),
        not_streams: Default::default(),
        train_loops: Vec::new(),
        adopters: Vec::new(),
        adopted: Vec::new(),
        never_run: FastSet::default(),
        dormant: dormant.clone(),
    };
    plan.never_run = never_run(idx, &plan);
    // Optimizers and the names they go by (but one in a branch a constant flag rules out:
    // `dead_branches`).
    let flags = crate::torch::dead_branches::Flags::of(idx);
    for (id, c) in idx.calls.iter().enumerate().filter(|(_, c)| reached(c)) {
        let Some(q) = plan.qual(id) else {
            continue;
        };
        if !names::is_optimizer(q) || flags.unreachable(idx, c) {
            continue;
        }
        plan.optimizers.push(id);
        if let Some(t) = assigned_to(idx, c.stmt, c.call) {
            plan.optimizer_names
                .insert(idx.text(c.scope.module, t).to_owned());
        }
    }
    // Factories that build a class of the module they are given, by name:
    // `def init_obj(self, name, module, *args): return getattr(module, ...)(*args)` called with
    // `torch.optim`.
    for (id, c) in idx.calls.iter().enumerate().filter(|(_, c)| reached(c)) {
        let Some(f) = plan.callee[id] else { continue };
        let Some(k) = module_factory_arg(idx, f, c.call) else {
            continue;
        };
        let is_optim = c.call.arguments.args.get(k).is_some_and(|a| {
            idx.canonical(c.scope.module, a)
                .is_some_and(|q| &*q == "torch.optim")
        });
        if !is_optim || plan.optimizers.contains(&id) {
            continue;
        }
        plan.optimizers.push(id);
        plan.factory_params.insert(id, k + 1);
        if let Some(t) = assigned_to(idx, c.stmt, c.call) {
            plan.optimizer_names
                .insert(idx.text(c.scope.module, t).to_owned());
        }
    }
    // Parameters that receive an optimizer (one level of calls, repeated until nothing changes).
    loop {
        let before = plan.optimizer_names.len();
        for (id, c) in idx.calls.iter().enumerate() {
            let Some(f) = plan.callee[id] else {
                continue;
            };
            for (arg, param) in arg_params(idx, f, c.call) {
                if plan.optimizer_names.contains(idx.text(c.scope.module, arg)) {
                    plan.optimizer_names.insert(param);
                }
            }
        }
        // `optimizer = model.configure_optimizers(...)` with `return optimizer` (or a
        // constructor) in the method: what a project function returns is an optimizer.
        for (id, c) in idx.calls.iter().enumerate() {
            let Some(f) = plan.callee[id] else { continue };
            let Some(t) = assigned_to(idx, c.stmt, c.call) else {
                continue;
            };
            let fm = idx.funcs[f].module;
            let gives = returns(idx, f).iter().any(|r| {
                plan.optimizer_names.contains(idx.text(fm, *r))
                    || matches!(r, Expr::Call(rc) if call_id(idx, fm, rc)
                        .and_then(|rid| plan.qual(rid))
                        .is_some_and(names::is_optimizer))
            });
            if gives {
                plan.optimizer_names
                    .insert(idx.text(c.scope.module, t).to_owned());
            }
        }
        // `self.optimizer = optimizer` in a trainer's `__init__`: the attribute is one too.
        for info in &idx.stmts {
            if let Stmt::Assign(a) = info.stmt
                && reached_tbl[info.scope.module]
                && a.targets.len() == 1
                && matches!(&*a.value, Expr::Name(_))
                && plan
                    .optimizer_names
                    .contains(idx.text(info.scope.module, &*a.value))
            {
                plan.optimizer_names
                    .insert(idx.text(info.scope.module, &a.targets[0]).to_owned());
            }
        }
        if plan.optimizer_names.len() == before {
            break;
        }
    }
    // Steps.
    for (id, c) in idx.calls.iter().enumerate().filter(|(_, c)| reached(c)) {
        let Expr::Attribute(a) = &*c.call.func else {
            continue;
        };
        if a.attr.as_str() != "step" {
            continue;
        }
        let m = c.scope.module;
        let recv = idx.text(m, &*a.value);
        let first_arg = c.call.arguments.args.first().map(|e| idx.text(m, e));
        if plan.optimizer_names.contains(recv)
            || first_arg.is_some_and(|t| plan.optimizer_names.contains(t))
        {
            plan.steps.push(id);
        }
    }
    mark_training(idx, &mut plan);
    find_models(idx, &mut plan);
    find_loaders(idx, &mut plan);
    for i in 0..plan.loaders.len() {
        plan.loaders[i].replacement_sampler = replacement_sampler(idx, &plan, plan.loaders[i].call);
        plan.loaders[i].subset_sampler = subset_sampler(idx, &plan, plan.loaders[i].call);
    }
    plan.adopters = crate::torch::adopters::find(idx, &plan);
    let adopted: Vec<(CallId, CallId)> = plan
        .adopters
        .iter()
        .flat_map(|a| a.loaders.iter().map(move |&l| (l, a.call)))
        .collect();
    plan.loaders
        .retain(|l| !adopted.iter().any(|&(a, _)| a == l.call));
    plan.adopted = adopted;
    for l in &mut plan.loaders {
        for v in [&mut l.loops, &mut l.iters, &mut l.draws] {
            v.sort_unstable();
            v.dedup();
        }
    }
    plan
}

/// The target of `target = <call>` when `call` is the whole value.
pub fn assigned_to<'a>(idx: &Index<'a>, stmt: StmtId, call: &ast::ExprCall) -> Option<&'a Expr> {
    match idx.stmts[stmt].stmt {
        Stmt::Assign(a) if a.value.range() == call.range() && a.targets.len() == 1 => {
            Some(&a.targets[0])
        }
        Stmt::AnnAssign(a) if a.value.as_ref().is_some_and(|v| v.range() == call.range()) => {
            Some(&a.target)
        }
        _ => None,
    }
}

/// (argument, parameter name) pairs of a call to project function `f`; `self` is skipped for
/// methods called through an instance.
pub fn arg_params<'a>(
    idx: &Index<'a>,
    f: FuncId,
    call: &'a ast::ExprCall,
) -> Vec<(&'a Expr, String)> {
    let def = idx.funcs[f].def;
    let mut params: Vec<&str> = def
        .parameters
        .posonlyargs
        .iter()
        .chain(&def.parameters.args)
        .map(|p| p.parameter.name.as_str())
        .collect();
    let is_method_call = idx.funcs[f].class.is_some()
        && matches!(&*call.func, Expr::Attribute(_))
        && params.first() == Some(&"self");
    let is_init = idx.funcs[f].class.is_some() && def.name.as_str() == "__init__";
    if (is_method_call || is_init) && !params.is_empty() {
        params.remove(0);
    }
    let mut out = Vec::new();
    for (i, a) in call.arguments.args.iter().enumerate() {
        if matches!(a, Expr::Starred(_)) {
            break;
        }
        if let Some(p) = params.get(i) {
            out.push((a, (*p).to_owned()));
        }
    }
    for k in &call.arguments.keywords {
        if let Some(n) = &k.arg {
            out.push((&k.value, n.to_string()));
        }
    }
    out
}

/// The function a statement belongs to, if its scope is one.
fn func_of(idx: &Index, s: StmtId) -> Option<FuncId> {
    idx.stmts[s].scope.func
}

fn mark_training(idx: &Index, plan: &mut Plan) {
    let mut seeds: Vec<StmtId> = plan.steps.iter().map(|&c| idx.calls[c].stmt).collect();
    loop {
        let mut new_funcs = Vec::new();
        for s in seeds.drain(..) {
            let mut cur = Some(s);
            while let Some(st) = cur {
                if !plan.training_stmts.insert(st) {
                    break;
                }
                if let Some(&f) = idx.func_of_stmt.get(&st) {
                    new_funcs.push(f);
                    break;
                }
                cur = idx.stmts[st].parent;
            }
            if let Some(f) = func_of(idx, s)
                && plan.training_funcs.insert(f)
            {
                new_funcs.push(f);
            }
        }
        for f in new_funcs {
            plan.training_funcs.insert(f);
        }
        for (id, c) in idx.calls.iter().enumerate() {
            if plan.training_stmts.contains(&c.stmt) {
                continue;
            }
            if plan.callee[id].is_some_and(|f| plan.training_funcs.contains(&f)) {
                seeds.push(c.stmt);
            }
        }
        if seeds.is_empty() {
            break;
        }
    }
    for (s, info) in idx.stmts.iter().enumerate() {
        if matches!(info.stmt, Stmt::For(_)) && plan.training_stmts.contains(&s) {
            plan.train_loops.push(s);
        }
    }
}

/// The expression a `for` loop iterates, seen through `enumerate`, `tqdm`, `zip` (its first
/// argument), `iter` and `islice`.
pub fn loop_source(e: &Expr) -> &Expr {
    if let Expr::Call(c) = e {
        let callee = match &*c.func {
            Expr::Name(n) => n.id.as_str(),
            Expr::Attribute(a) => a.attr.as_str(),
            _ => "",
        };
        if matches!(
            callee,
            "enumerate" | "tqdm" | "zip" | "iter" | "next" | "islice" | "trange" | "cycle"
        ) && let Some(first) = c.arguments.args.first()
        {
            return loop_source(first);
        }
    }
    e
}

/// The plan's entry for loader `call`, made empty on first use.
fn loader_entry(plan: &mut Plan, call: CallId) -> &mut Loader {
    match plan.loaders.iter().position(|l| l.call == call) {
        Some(i) => &mut plan.loaders[i],
        None => {
            plan.loaders.push(Loader {
                call,
                loops: Vec::new(),
                iters: Vec::new(),
                passes: Vec::new(),
                draws: Vec::new(),
                replacement_sampler: None,
                subset_sampler: None,
            });
            plan.loaders.last_mut().expect("just pushed")
        }
    }
}

fn find_loaders(idx: &Index, plan: &mut Plan) {
    let mut range_step_loops: Vec<StmtId> = Vec::new();
    for &s in &plan.train_loops.clone() {
        let Stmt::For(f) = idx.stmts[s].stmt else {
            continue;
        };
        // Only loops whose body itself reaches a step (not an epoch loop around one).
        let m = idx.stmts[s].scope.module;
        let direct = idx.modules[m].stmts.clone().any(|i| {
            idx.stmts[i].parent == Some(s)
                && plan.training_stmts.contains(&i)
                && f.body
                    .iter()
                    .any(|b| b.range() == idx.stmts[i].stmt.range())
        });
        if !direct {
            continue;
        }
        let src = loop_source(&f.iter);
        let scope = idx.stmts[s].scope;
        let mut found = Vec::new();
        resolve_loader(idx, plan, scope, src, 0, &mut found);
        if found.is_empty() {
            // An epoch loop (`for epoch in range(n)`) around a function that iterates the data
            // is not a data loop.
            if !matches!(src, Expr::Call(c) if matches!(&*c.func, Expr::Name(n) if n.id.as_str() == "range"))
            {
                plan.unresolved_loops.push(s);
            } else if plan
                .steps
                .iter()
                .any(|&c| nearest_for(idx, idx.calls[c].stmt) == Some(s))
            {
                // `for step in range(n)` that steps itself: it must draw its batches from a
                // loader (checked once the loaders' iterators are known).
                range_step_loops.push(s);
            }
            continue;
        }
        for call in found {
            loader_entry(plan, call).loops.push(s);
        }
    }
    // `batch = next(it)` in a training statement, with `it = iter(loader)`.
    for c in idx.calls.iter() {
        if !plan.in_reach(c.scope.module)
            || !matches!(&*c.call.func, Expr::Name(n) if n.id.as_str() == "next")
        {
            continue;
        }
        // Drawn inside a training loop (`for`, or a `while True:` that steps until a budget).
        let mut cur = Some(c.stmt);
        let mut in_loop = false;
        while let Some(st) = cur {
            if plan.train_loops.contains(&st)
                || (matches!(idx.stmts[st].stmt, Stmt::While(_))
                    && plan.training_stmts.contains(&st))
            {
                in_loop = true;
                break;
            }
            cur = idx.stmts[st].parent;
        }
        if !in_loop {
            continue;
        }
        let Some(Expr::Name(it)) = c.call.arguments.args.first() else {
            continue;
        };
        let m = c.scope.module;
        for st in idx.modules[m].stmts.clone() {
            let info = &idx.stmts[st];
            let Stmt::Assign(a) = info.stmt else { continue };
            if info.scope != c.scope
                || !a
                    .targets
                    .iter()
                    .any(|t| matches!(t, Expr::Name(n) if n.id == it.id))
            {
                continue;
            }
            // `iter(loader)`, `cycle(loader)`, a project generator over the loader, ...
            if !matches!(&*a.value, Expr::Call(_)) {
                continue;
            }
            let mut found = Vec::new();
            resolve_loader(idx, plan, c.scope, &a.value, 0, &mut found);
            for call in found {
                let l = loader_entry(plan, call);
                l.iters.push(st);
                // The `next(it)` itself draws a batch in its loop (the iterator may be made
                // outside any loop: `it = cycle(loader)` at module level).
                if !l.draws.contains(&c.stmt) {
                    l.draws.push(c.stmt);
                }
            }
        }
    }
    // `batch = batch_loader.next()` in a training loop (`for` or `while`): a batch drawn through
    // a project function or method whose result is a loader's batch.
    for (id, c) in idx.calls.iter().enumerate() {
        if !plan.in_reach(c.scope.module) || plan.callee[id].is_none() {
            continue;
        }
        let st = c.stmt;
        let Stmt::Assign(a) = idx.stmts[st].stmt else {
            continue;
        };
        if a.value.range() != c.call.range() {
            continue;
        }
        let Some(lp) = crate::editor::nearest_loop(idx, st) else {
            continue;
        };
        if !plan.training_stmts.contains(&lp) {
            continue;
        }
        let mut found = Vec::new();
        resolve_loader(idx, plan, c.scope, &a.value, 0, &mut found);
        for call in found {
            loader_entry(plan, call).draws.push(st);
        }
    }
    // A step loop over `range(n)` that draws no batch from a loader's iterator trains every rank
    // on the same data (full-batch training, tensors sliced by index): nothing splits it.
    for s in range_step_loops {
        let r = idx.stmts[s].stmt.range();
        let m = idx.stmts[s].scope.module;
        let draws = plan.loaders.iter().flat_map(|l| l.iters.iter()).any(|&it| {
            let Stmt::Assign(a) = idx.stmts[it].stmt else { return false };
            let Some(Expr::Name(name)) = a.targets.first() else { return false };
            idx.calls.iter().any(|c| {
                c.scope.module == m
                    && r.contains_range(c.call.range())
                    && matches!(&*c.call.func, Expr::Name(n) if n.id.as_str() == "next")
                    && matches!(c.call.arguments.args.first(), Some(Expr::Name(a)) if a.id == name.id)
            })
        });
        if !draws {
            match streams::find(idx, plan, s) {
                Ok(found) => plan.row_streams.extend(found),
                Err(why) => {
                    if let Some(why) = why {
                        plan.not_streams.insert(s, why);
                    }
                    plan.unresolved_loops.push(s);
                }
            }
        }
    }
    // `while i < data.size(0) - 1:` that steps: a walk over hand-made mini-batches too.
    for &c in &plan.steps.clone() {
        let Some(lp) = crate::editor::nearest_loop(idx, idx.calls[c].stmt) else {
            continue;
        };
        if !matches!(idx.stmts[lp].stmt, Stmt::While(_))
            || plan.row_streams.iter().any(|r| r.walked_by == lp)
            || plan.not_streams.contains_key(&lp)
        {
            continue;
        }
        match streams::find(idx, plan, lp) {
            Ok(found) => plan.row_streams.extend(found),
            Err(Some(why)) => {
                plan.not_streams.insert(lp, why);
            }
            Err(None) => {}
        }
    }
    // Steps that no data loop feeds (full-graph training called once per epoch, ...).
    let fed_loops: Vec<StmtId> = plan
        .loaders
        .iter()
        .flat_map(|l| {
            l.loops
                .iter()
                .copied()
                .chain(l.iters.iter().filter_map(|&it| nearest_for(idx, it)))
                .chain(
                    l.draws
                        .iter()
                        .filter_map(|&d| crate::editor::nearest_loop(idx, d)),
                )
        })
        .chain(plan.row_streams.iter().map(|r| r.walked_by))
        .collect();
    for &c in &plan.steps.clone() {
        if !fed(idx, plan, &fed_loops, idx.calls[c].stmt, 0) {
            let st = idx.calls[c].stmt;
            if !plan.unresolved_loops.iter().any(|&u| {
                idx.stmts[u]
                    .stmt
                    .range()
                    .contains_range(idx.stmts[st].stmt.range())
            }) {
                plan.unfed_steps.push(c);
            }
        }
    }
    // The loops of project generators that pass over a training loader (a new pass, a new epoch).
    for f in 0..idx.funcs.len() {
        if !plan.in_reach(idx.funcs[f].module) {
            continue;
        }
        let scope = Scope {
            module: idx.funcs[f].module,
            func: Some(f),
        };
        for (st, src) in yielded_sources(idx, f) {
            let Some(st) = st else { continue };
            let mut found = Vec::new();
            resolve_loader(idx, plan, scope, loop_source(src), 0, &mut found);
            for call in found {
                if let Some(l) = plan.loaders.iter_mut().find(|l| l.call == call)
                    && !l.passes.contains(&st)
                {
                    l.passes.push(st);
                }
            }
        }
    }
    // Inner loops only: an epoch loop whose body reaches a data loop is not itself one.
    let inner: FastSet<StmtId> = plan.loaders.iter().flat_map(|l| l.loops.clone()).collect();
    plan.unresolved_loops.retain(|s| {
        !inner.iter().any(|i| {
            idx.stmts[*s]
                .stmt
                .range()
                .contains_range(idx.stmts[*i].stmt.range())
        })
    });
}

/// Does a loop over a loader (or a loop drawing from a loader's iterator) run statement `s`,
/// in its function or around a call of it?
fn fed(idx: &Index, plan: &Plan, loops: &[StmtId], s: StmtId, depth: usize) -> bool {
    let mut cur = Some(s);
    while let Some(p) = cur {
        if loops.contains(&p) || plan.unresolved_loops.contains(&p) {
            return true;
        }
        if matches!(idx.stmts[p].stmt, Stmt::FunctionDef(_)) {
            break;
        }
        cur = idx.stmts[p].parent;
    }
    if depth > 4 {
        return false;
    }
    let Some(f) = idx.stmts[s].scope.func else {
        return false;
    };
    call_sites(idx, plan, f)
        .iter()
        .any(|&c| fed(idx, plan, loops, idx.calls[c].stmt, depth + 1))
}

/// The call a loader's `sampler=` is, directly or through a name bound in the loader's scope.
fn sampler_call<'a>(idx: &Index<'a>, loader: CallId) -> Option<(&'a ast::ExprCall, CallId)> {
    let c = &idx.calls[loader];
    let v = &c.call.arguments.find_keyword("sampler")?.value;
    let (scope, call) = match v {
        Expr::Call(sc) => (c.scope, sc),
        Expr::Name(n) => {
            let (s, vals) = idx.assignments(c.scope, n.id.as_str());
            match vals.as_slice() {
                [Expr::Call(sc)] => (s, sc),
                _ => return None,
            }
        }
        _ => return None,
    };
    Some((call, call_id(idx, scope.module, call)?))
}

/// The sampler a loader draws with replacement from: `RandomSampler(..., replacement=True)`, or a
/// `WeightedRandomSampler` not told `replacement=False`.
fn replacement_sampler(idx: &Index, plan: &Plan, loader: CallId) -> Option<CallId> {
    let (call, id) = sampler_call(idx, loader)?;
    let replacement = call.arguments.find_keyword("replacement").map(|k| &k.value);
    let q = plan.qual(id)?;
    let draws = match replacement {
        Some(Expr::BooleanLiteral(b)) => b.value,
        Some(_) => false,
        None => names::is_weighted_sampler(q),
    };
    (draws && (names::is_random_sampler(q) || names::is_weighted_sampler(q))).then_some(id)
}

/// The `SubsetRandomSampler(indices)` a loader samples with, when `indices` can be named twice
/// without effects.
fn subset_sampler(idx: &Index, plan: &Plan, loader: CallId) -> Option<CallId> {
    let (call, id) = sampler_call(idx, loader)?;
    if !plan.qual(id).is_some_and(names::is_subset_sampler) {
        return None;
    }
    let indices = call
        .arguments
        .args
        .first()
        .or_else(|| call.arguments.find_keyword("indices").map(|k| &k.value))?;
    pure(indices).then_some(id)
}

/// An expression that reads the same value every time it is evaluated, with no effect: a name, an
/// attribute of one, a subscript or slice of one by such expressions or literals.
pub fn pure(e: &Expr) -> bool {
    match e {
        Expr::Name(_) | Expr::NumberLiteral(_) | Expr::NoneLiteral(_) => true,
        Expr::Attribute(a) => pure(&a.value),
        Expr::Subscript(s) => pure(&s.value) && pure(&s.slice),
        Expr::Slice(sl) => [&sl.lower, &sl.upper, &sl.step]
            .iter()
            .all(|b| b.as_deref().is_none_or(pure)),
        Expr::UnaryOp(u) => pure(&u.operand),
        Expr::BinOp(b) => pure(&b.left) && pure(&b.right),
        _ => false,
    }
}

/// The nearest `for` statement around statement `s` (itself included), within its function.
fn nearest_for(idx: &Index, s: StmtId) -> Option<StmtId> {
    let mut cur = Some(s);
    while let Some(p) = cur {
        match idx.stmts[p].stmt {
            Stmt::For(_) => return Some(p),
            Stmt::FunctionDef(_) | Stmt::ClassDef(_) => return None,
            _ => cur = idx.stmts[p].parent,
        }
    }
    None
}

/// The call id of a call expression of module `m`.
pub fn call_id(idx: &Index, m: usize, c: &ast::ExprCall) -> Option<CallId> {
    idx.calls
        .iter()
        .position(|ci| ci.scope.module == m && ci.call.range() == c.range())
}

/// Values `return` gives in function `f` (not in nested functions).
pub fn returns<'a>(idx: &Index<'a>, f: FuncId) -> Vec<&'a Expr> {
    let m = idx.funcs[f].module;
    idx.modules[m]
        .stmts
        .clone()
        .filter_map(|s| {
            let info = &idx.stmts[s];
            match info.stmt {
                Stmt::Return(r) if info.scope.func == Some(f) => r.value.as_deref(),
                _ => None,
            }
        })
        .collect()
}

/// What generator `f` yields from (not in nested functions): `(Some(loop), iter)` for each `for`
/// loop whose body yields, `(None, x)` for each `yield from x`. Empty for a plain function.
pub fn yielded_sources<'a>(idx: &Index<'a>, f: FuncId) -> Vec<(Option<StmtId>, &'a Expr)> {
    let m = idx.funcs[f].module;
    let is_yield = |st: StmtId| match idx.stmts[st].stmt {
        Stmt::Expr(e) => matches!(&*e.value, Expr::Yield(_) | Expr::YieldFrom(_)),
        Stmt::Assign(a) => matches!(&*a.value, Expr::Yield(_)),
        _ => false,
    };
    let mut out = Vec::new();
    for st in idx.modules[m].stmts.clone() {
        if idx.stmts[st].scope.func != Some(f) {
            continue;
        }
        match idx.stmts[st].stmt {
            Stmt::Expr(e) => {
                if let Expr::YieldFrom(y) = &*e.value {
                    out.push((None, &*y.value));
                }
            }
            Stmt::For(fr) => {
                let yields = idx.modules[m].stmts.clone().any(|inner| {
                    idx.stmts[inner].scope.func == Some(f) && is_yield(inner) && {
                        let mut cur = idx.stmts[inner].parent;
                        let mut inside = false;
                        while let Some(p) = cur {
                            if p == st {
                                inside = true;
                                break;
                            }
                            cur = idx.stmts[p].parent;
                        }
                        inside
                    }
                });
                if yields {
                    out.push((Some(st), &*fr.iter));
                }
            }
            _ => {}
        }
    }
    out
}

/// Assignments binding `name` in `scope` (or at module level): (scope, value, position in a
/// tuple target).
fn bindings<'a>(
    idx: &Index<'a>,
    scope: Scope,
    name: &str,
) -> Vec<(Scope, &'a Expr, Option<usize>)> {
    let module_scope = Scope {
        module: scope.module,
        func: None,
    };
    for s in [scope, module_scope] {
        let mut out = Vec::new();
        for st in idx.modules[s.module].stmts.clone() {
            let info = &idx.stmts[st];
            if info.scope != s {
                continue;
            }
            let (targets, value): (Vec<&Expr>, &Expr) = match info.stmt {
                Stmt::Assign(a) => (a.targets.iter().collect(), &a.value),
                Stmt::AnnAssign(a) => match &a.value {
                    Some(v) => (vec![&*a.target], v),
                    None => continue,
                },
                _ => continue,
            };
            for t in targets {
                match t {
                    Expr::Name(n) if n.id.as_str() == name => out.push((s, value, None)),
                    Expr::Tuple(tt) => {
                        for (i, el) in tt.elts.iter().enumerate() {
                            if matches!(el, Expr::Name(n) if n.id.as_str() == name) {
                                out.push((s, value, Some(i)));
                            }
                        }
                    }
                    _ => {}
                }
            }
        }
        if !out.is_empty() || s == module_scope {
            return out;
        }
    }
    Vec::new()
}
