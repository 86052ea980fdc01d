//! Training-pattern identification: which code the main script reaches, and which of the
//! training patterns ranklift rewrites it follows.
//!
//! Starting from the main module's top-level code (including `if __name__ == "__main__":`), the
//! worklist follows calls into project functions and methods, instantiations of project classes
//! (their `__init__`), and functions passed as values (`tf.function(step)`, `app.run(main)`), and
//! it takes in the top-level code of every project module imported on the way. In the reached
//! code it looks for the indicators of each pattern — `tf.GradientTape` with `apply_gradients`,
//! or `Model.fit` — and joins them in a flat lattice: TF1 and TF2 patterns together are
//! ambiguous (DST103); `fit` with a custom loop (pre-training, then fine-tuning) is distributed
//! with the rules of both.

use std::collections::{BTreeSet, HashMap, HashSet};

use ruff_python_ast::{Expr, Stmt};

use crate::index::{CallId, Callee, FastMap, FastSet, FuncId, Index, Kind, Scope, StmtId};
use crate::tf::names as tf;

#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub enum Pattern {
    #[serde(rename = "gradient-tape")]
    GradientTape,
    #[serde(rename = "keras-fit")]
    KerasFit,
    #[serde(rename = "tf1-session")]
    Session,
    #[serde(rename = "tf1-monitored-session")]
    MonitoredSession,
    #[serde(rename = "tf1-estimator")]
    Estimator,
}

impl Pattern {
    pub fn describe(self) -> &'static str {
        match self {
            Pattern::GradientTape => "TF2 GradientTape custom training loop",
            Pattern::KerasFit => "TF2 Keras Model.fit",
            Pattern::Session => "TF1 Session training loop",
            Pattern::MonitoredSession => "TF1 MonitoredTrainingSession",
            Pattern::Estimator => "TF1 Estimator",
        }
    }

    /// The TensorFlow 1 patterns.
    pub fn is_tf1(self) -> bool {
        matches!(
            self,
            Pattern::Session | Pattern::MonitoredSession | Pattern::Estimator
        )
    }
}

/// What the main script reaches.
pub struct Reach {
    pub main: usize,
    /// Modules whose top-level code runs (main and everything it imports, transitively).
    pub modules: BTreeSet<usize>,
    pub funcs: BTreeSet<FuncId>,
    /// Caller scope → callees.
    pub edges: HashMap<Scope, BTreeSet<FuncId>>,
    /// Functions that perform a training step (call `apply_gradients`, directly or through calls).
    pub trains: HashSet<FuncId>,
    pub tapes: Vec<StmtId>,
    pub applies: Vec<CallId>,
    /// A Keras model's own `train_step` methods, run by `fit` on instances of project classes
    /// (their `apply_gradients` belongs to the `Model.fit` pattern, not to a custom loop).
    pub fit_steps: HashSet<FuncId>,
    /// Calls made inside `fit_steps` (directly).
    pub fit_step_calls: HashSet<CallId>,
    pub fits: Vec<CallId>,
    /// Calls to APIs of patterns ranklift does not rewrite, with the pattern's name.
    pub unsupported: Vec<(CallId, &'static str)>,
    /// TF1: `tf.Session(...)`, `MonitoredTrainingSession(...)`, `Estimator(...)` constructions,
    /// `estimator.train(...)` calls, training ops built, and `session.run(...)` of a training op.
    pub sessions: Vec<CallId>,
    pub monitored_sessions: Vec<CallId>,
    pub estimators: Vec<CallId>,
    pub estimator_trains: Vec<CallId>,
    pub train_ops: Vec<CallId>,
    pub session_steps: Vec<CallId>,
}

impl Reach {
    pub fn scope_reached(&self, s: Scope) -> bool {
        match s.func {
            None => self.modules.contains(&s.module),
            Some(f) => self.funcs.contains(&f),
        }
    }

    /// Every pattern whose indicators the reached code contains.
    pub fn patterns(&self) -> Vec<Pattern> {
        let mut p = Vec::new();
        if !self.custom_loop_applies().is_empty() {
            p.push(Pattern::GradientTape);
        }
        if !self.fits.is_empty() {
            p.push(Pattern::KerasFit);
        }
        if !self.estimator_trains.is_empty() {
            p.push(Pattern::Estimator);
        }
        if !self.monitored_sessions.is_empty() && !self.train_ops.is_empty() {
            p.push(Pattern::MonitoredSession);
        } else if !self.sessions.is_empty() && !self.train_ops.is_empty() {
            p.push(Pattern::Session);
        }
        p
    }

    /// `apply_gradients` calls of custom training loops (not inside a model's `train_step`).
    pub fn custom_loop_applies(&self) -> Vec<CallId> {
        self.applies
            .iter()
            .copied()
            .filter(|&c| !self.fit_step_calls.contains(&c))
            .collect()
    }

    /// True if code in `scope` performs a training step, directly or through a call.
    pub fn scope_trains(&self, idx: &Index, scope: Scope) -> bool {
        if let Some(f) = scope.func
            && self.trains.contains(&f)
        {
            return true;
        }
        if self.applies.iter().any(|&a| idx.calls[a].scope == scope) {
            return true;
        }
        self.edges
            .get(&scope)
            .is_some_and(|cs| cs.iter().any(|c| self.trains.contains(c)))
    }
}

/// Compute what `main` reaches.
pub fn reach(idx: &Index, main: usize) -> Reach {
    let mut r = Reach {
        main,
        modules: BTreeSet::new(),
        funcs: BTreeSet::new(),
        edges: HashMap::new(),
        trains: HashSet::new(),
        fit_steps: HashSet::new(),
        fit_step_calls: HashSet::new(),
        tapes: Vec::new(),
        applies: Vec::new(),
        fits: Vec::new(),
        unsupported: Vec::new(),
        sessions: Vec::new(),
        monitored_sessions: Vec::new(),
        estimators: Vec::new(),
        estimator_trains: Vec::new(),
        train_ops: Vec::new(),
        session_steps: Vec::new(),
    };
    // Calls and name references grouped by scope.
    let mut calls_in: FastMap<Scope, Vec<CallId>> = FastMap::default();
    for (i, c) in idx.calls.iter().enumerate() {
        calls_in.entry(c.scope).or_default().push(i);
    }
    let mut refs_in: FastMap<Scope, Vec<usize>> = FastMap::default();
    for (i, n) in idx.refs.iter().enumerate() {
        refs_in.entry(n.scope).or_default().push(i);
    }
    // Functions redefined in the same block (`def step` twice in a row): a call may run either
    // one, so reaching one reaches all.
    type BlockKey<'n> = (usize, Option<FuncId>, Option<usize>, usize, &'n str);
    let mut same_block: FastMap<BlockKey, Vec<FuncId>> = FastMap::default();
    for (id, f) in idx.funcs.iter().enumerate() {
        same_block
            .entry((
                f.module,
                f.parent,
                f.class,
                idx.stmts[f.stmt].body,
                f.def.name.as_str(),
            ))
            .or_default()
            .push(id);
    }
    let mut todo: Vec<Scope> = vec![Scope {
        module: main,
        func: None,
    }];
    let mut seen: FastSet<Scope> = FastSet::default();
    while let Some(scope) = todo.pop() {
        if !seen.insert(scope) {
            continue;
        }
        match scope.func {
            None => {
                r.modules.insert(scope.module);
                for &m in &idx.modules[scope.module].imports {
                    todo.push(Scope {
                        module: m,
                        func: None,
                    });
                }
            }
            Some(f) => {
                r.funcs.insert(f);
                // A method's module-level code has run by the time it is called; nothing to add.
            }
        }
        let mut out = BTreeSet::new();
        for &c in calls_in.get(&scope).map(Vec::as_slice).unwrap_or(&[]) {
            match idx.resolve_call(scope, idx.calls[c].call) {
                Some(Callee::Func(f)) => {
                    out.insert(f);
                }
                Some(Callee::Class(cl)) => {
                    for m in ["__init__", "call", "__call__", "build"] {
                        if let Some(f) = idx.method(cl, m) {
                            out.insert(f);
                        }
                    }
                }
                None => {}
            }
        }
        for &n in refs_in.get(&scope).map(Vec::as_slice).unwrap_or(&[]) {
            if let Some(f) = idx.resolve_ref(&idx.refs[n]) {
                out.insert(f);
            }
        }
        // `model.fit(...)` on an instance of a project model class runs its own `train_step`.
        for &c in calls_in.get(&scope).map(Vec::as_slice).unwrap_or(&[]) {
            if let Expr::Attribute(a) = &*idx.calls[c].call.func
                && matches!(a.attr.as_str(), "fit" | "fit_generator")
                && let Some(cl) = idx.instance_class(scope, &a.value)
                && idx.is_model_class(cl)
                && idx.method(cl, a.attr.as_str()).is_none()
            {
                for name in ["train_step", "test_step"] {
                    if let Some(f) = idx.method(cl, name) {
                        out.insert(f);
                        if name == "train_step" {
                            r.fit_steps.insert(f);
                        }
                    }
                }
            }
        }
        // `tf.compat.v1.app.run()` / `absl.app.run()` without a function call `__main__.main`.
        for &c in calls_in.get(&scope).map(Vec::as_slice).unwrap_or(&[]) {
            let call = idx.calls[c].call;
            if call.arguments.args.is_empty()
                && call.arguments.find_keyword("main").is_none()
                && idx
                    .canonical(scope.module, &call.func)
                    .as_deref()
                    .is_some_and(tf::is_entry_runner)
                && let Some(&f) = idx.modules[main].funcs.get("main")
            {
                out.insert(f);
            }
        }
        // `self.method` passed as a value (`tf.function(self.step)`).
        for &c in calls_in.get(&scope).map(Vec::as_slice).unwrap_or(&[]) {
            for a in idx.calls[c].call.arguments.args.iter() {
                if let Expr::Attribute(at) = a
                    && let Expr::Name(s) = &*at.value
                    && s.id.as_str() == "self"
                    && let Some(Callee::Func(f)) = idx.resolve_call(scope, &fake_call(at))
                {
                    out.insert(f);
                }
            }
        }
        let redefined: Vec<FuncId> = out
            .iter()
            .flat_map(|&f| {
                let fi = &idx.funcs[f];
                same_block
                    .get(&(
                        fi.module,
                        fi.parent,
                        fi.class,
                        idx.stmts[fi.stmt].body,
                        fi.def.name.as_str(),
                    ))
                    .cloned()
                    .unwrap_or_default()
            })
            .collect();
        out.extend(redefined);
        // Calling a model instance runs its `call`; Keras runs `train_step` inside `fit`.
        for &f in &out {
            todo.push(Scope {
                module: idx.funcs[f].module,
                func: Some(f),
            });
            // Nested functions of a reached function are reached through their references.
        }
        r.edges.insert(scope, out);
    }
    // Indicators in reached code.
    for (i, c) in idx.calls.iter().enumerate() {
        if !r.scope_reached(c.scope) {
            continue;
        }
        let canon = idx.canonical(c.scope.module, &c.call.func);
        if let Some(name) = canon.as_deref().and_then(tf::unsupported_pattern) {
            r.unsupported.push((i, name));
        }
        match canon.as_deref() {
            Some(tf::SESSION) => r.sessions.push(i),
            Some(tf::MONITORED_SESSION) => r.monitored_sessions.push(i),
            Some(tf::ESTIMATOR) => r.estimators.push(i),
            _ => {}
        }
        if let Expr::Attribute(a) = &*c.call.func {
            let recv = idx.kind_of(c.scope, &a.value);
            match (a.attr.as_str(), recv) {
                ("minimize" | "apply_gradients", Kind::Tf1Optimizer) => {
                    r.train_ops.push(i);
                    continue;
                }
                ("train", Kind::Estimator) => r.estimator_trains.push(i),
                // A session passed in as a parameter (`def train(self, sess, x, y)`) is not
                // known as one: running a training op is what makes it one.
                ("run", Kind::Session | Kind::MonitoredSession | Kind::Unknown)
                    if c.call
                        .arguments
                        .args
                        .first()
                        .is_some_and(|f| mentions_train_op(idx, c.scope, f)) =>
                {
                    r.session_steps.push(i);
                }
                _ => {}
            }
            match a.attr.as_str() {
                "apply_gradients" => r.applies.push(i),
                // Keras 3's `optimizer.apply(grads, trainable_variables)`: the same step.
                "apply"
                    if matches!(recv, Kind::Optimizer { .. })
                        && !c.call.arguments.args.is_empty() =>
                {
                    r.applies.push(i)
                }
                "fit" | "fit_generator" if idx.is_model_receiver(c.scope, &a.value) => {
                    r.fits.push(i)
                }
                "train_on_batch" if idx.is_model_receiver(c.scope, &a.value) => {
                    r.unsupported.push((i, "Keras train_on_batch loop"))
                }
                "minimize" if matches!(idx.kind_of(c.scope, &a.value), Kind::Optimizer { .. }) => {
                    r.unsupported.push((i, "TF2 optimizer.minimize"))
                }
                _ => {}
            }
        }
    }
    for (i, c) in idx.calls.iter().enumerate() {
        if c.scope.func.is_some_and(|f| r.fit_steps.contains(&f)) {
            r.fit_step_calls.insert(i);
        }
    }
    for (i, s) in idx.stmts.iter().enumerate() {
        if let Stmt::With(w) = s.stmt
            && r.scope_reached(s.scope)
            && w.items.iter().any(|it| {
                idx.canonical(s.scope.module, call_func(&it.context_expr))
                    .as_deref()
                    == Some(tf::GRADIENT_TAPE)
            })
        {
            r.tapes.push(i);
        }
    }
    // TF1 eager (`tf.compat.v1.enable_eager_execution()`, a `tf.train.*Optimizer` applying a
    // tape's gradients, `global_step=`): its `apply_gradients` is a step of a GradientTape loop.
    if !r.tapes.is_empty() && r.sessions.is_empty() && r.monitored_sessions.is_empty() {
        for &t in &r.train_ops {
            if matches!(&*idx.calls[t].call.func, Expr::Attribute(a) if a.attr.as_str() == "apply_gradients")
                && !r.applies.contains(&t)
            {
                r.applies.push(t);
            }
        }
    }
    // Functions that train: contain apply_gradients or run a TF1 training op (a model class's
    // `train(sess, x, y)` method), or call one that does.
    for &a in r.applies.iter().chain(&r.session_steps) {
        if let Some(f) = idx.calls[a].scope.func {
            r.trains.insert(f);
        }
    }
    loop {
        let mut changed = false;
        for (scope, callees) in &r.edges {
            if let Some(f) = scope.func
                && !r.trains.contains(&f)
                && callees.iter().any(|c| r.trains.contains(c))
            {
                r.trains.insert(f);
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    r
}

/// Does a `session.run` fetch mention a training op (`train_op`, `[train_op, loss]`,
/// `opt.minimize(loss)`)?
fn mentions_train_op(idx: &Index, scope: Scope, fetches: &Expr) -> bool {
    use ruff_python_ast::visitor::{self, Visitor};
    struct V<'i, 'a> {
        idx: &'i Index<'a>,
        scope: Scope,
        found: bool,
    }
    impl<'e> Visitor<'e> for V<'_, '_> {
        fn visit_expr(&mut self, e: &'e Expr) {
            if !self.found
                && matches!(e, Expr::Name(_) | Expr::Call(_) | Expr::Attribute(_))
                && self.idx.kind_of(self.scope, e) == Kind::TrainOp
            {
                self.found = true;
            }
            visitor::walk_expr(self, e);
        }
    }
    let mut v = V {
        idx,
        scope,
        found: false,
    };
    v.visit_expr(fetches);
    v.found
}

fn call_func(e: &Expr) -> &Expr {
    match e {
        Expr::Call(c) => &c.func,
        e => e,
    }
}

/// A zero-argument call of `attr`, to reuse method resolution for `self.method` references.
fn fake_call(attr: &ruff_python_ast::ExprAttribute) -> ruff_python_ast::ExprCall {
    ruff_python_ast::ExprCall {
        node_index: Default::default(),
        range_start: attr.range.start(),
        func: Box::new(Expr::Attribute(attr.clone())),
        arguments: ruff_python_ast::Arguments {
            range: ruff_text_size::TextRange::empty(attr.range.end()),
            node_index: Default::default(),
            args: Box::new([]),
            keywords: Default::default(),
        },
    }
}

/// True if the module mentions TensorFlow at all (imports it, or Keras).
pub fn imports_tensorflow(idx: &Index, m: usize) -> bool {
    idx.modules[m].aliases.values().any(|q| {
        let c = tf::canonical(q);
        c == "tensorflow" || c.starts_with("tensorflow.")
    })
}

/// The Keras 3 backend a module selects before importing Keras, when it is not TensorFlow:
/// `os.environ["KERAS_BACKEND"] = "torch"` or `os.environ.setdefault("KERAS_BACKEND", "jax")`
/// at module level. Such a program is not a TensorFlow program, whatever `keras` imports say.
pub fn non_tf_keras_backend(idx: &Index, m: usize) -> Option<(ruff_text_size::TextRange, String)> {
    use ruff_text_size::Ranged;
    fn is_environ(e: &Expr) -> bool {
        matches!(e, Expr::Attribute(a) if a.attr.as_str() == "environ")
            || matches!(e, Expr::Name(n) if n.id.as_str() == "environ")
    }
    fn str_of(e: &Expr) -> Option<String> {
        match e {
            Expr::StringLiteral(s) => Some(s.value.to_str().to_owned()),
            _ => None,
        }
    }
    let body = &idx.project.modules[m].parsed.parsed.syntax().body;
    for stmt in body {
        let found = match stmt {
            Stmt::Assign(a) => a.targets.iter().find_map(|t| match t {
                Expr::Subscript(s)
                    if is_environ(&s.value)
                        && str_of(&s.slice).as_deref() == Some("KERAS_BACKEND") =>
                {
                    str_of(&a.value)
                }
                _ => None,
            }),
            Stmt::Expr(e) => match &*e.value {
                Expr::Call(c)
                    if matches!(&*c.func, Expr::Attribute(a)
                        if a.attr.as_str() == "setdefault" && is_environ(&a.value))
                        && c.arguments.args.len() == 2
                        && str_of(&c.arguments.args[0]).as_deref() == Some("KERAS_BACKEND") =>
                {
                    str_of(&c.arguments.args[1])
                }
                _ => None,
            },
            _ => None,
        };
        if let Some(b) = found
            && b != "tensorflow"
        {
            return Some((stmt.range(), b));
        }
    }
    None
}
