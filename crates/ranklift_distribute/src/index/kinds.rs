//! Value kinds: what each name, `self.` attribute and function return holds (`Kind`), learnt
//! over the whole program in parallel rounds (partial results over chunks, joined in the
//! semilattice), and which functions are traced (`@tf.function`).

use super::*;

impl<'a> Index<'a> {
    pub(super) fn mark_traced(&mut self) {
        let mut traced = Vec::new();
        for (id, f) in self.funcs.iter().enumerate() {
            for d in &f.def.decorator_list {
                let e = match &d.expression {
                    Expr::Call(c) => &*c.func,
                    e => e,
                };
                if self.canonical(f.module, e).as_deref() == Some(tf::TF_FUNCTION) {
                    traced.push(id);
                }
            }
        }
        for c in &self.calls {
            if self.canonical(c.scope.module, &c.call.func).as_deref() == Some(tf::TF_FUNCTION) {
                if let Some(Expr::Name(n)) = c.call.arguments.args.first()
                    && let Some(f) = self.func_by_name(c.scope, n.id.as_str())
                {
                    traced.push(f);
                }
                if let Some(Expr::Attribute(a)) = c.call.arguments.args.first()
                    && let Expr::Name(s) = &*a.value
                    && s.id.as_str() == "self"
                    && let Some(cl) = self.self_class(c.scope)
                    && let Some(f) = self.method(cl, a.attr.as_str())
                {
                    traced.push(f);
                }
            }
        }
        for f in traced {
            self.funcs[f].traced = true;
        }
    }

    /// Kinds of names, attributes, returns and parameters: rounds of flow-insensitive
    /// propagation until nothing changes (each round can only refine unknowns, and a round
    /// carries a kind one step: `model = keras.Model(...)`, `return model`, `return resnet()`,
    /// `m = training_model()` takes four — keras.io's cutmix builds its model so, and its
    /// unguarded `save_weights` was written by both ranks at once). At most 8 rounds.
    pub(super) fn compute_kinds(&mut self) {
        for m in 0..self.modules.len() {
            for s in self.modules[m].stmts.clone() {
                if let Stmt::Expr(e) = self.stmts[s].stmt
                    && let Expr::Call(c) = &*e.value
                    && let Expr::Attribute(a) = &*c.func
                    && a.attr.as_str() == "compile"
                {
                    let t = self.text(m, &*a.value).to_owned();
                    self.compiled.insert((m, t));
                }
            }
        }
        use rayon::prelude::*;
        for round in 0..8 {
            // Both passes only read the index; their partial results are joined (the join is a
            // semilattice, so chunking and merge order do not matter).
            let from_stmts = self
                .stmts
                .par_chunks(2048)
                .map(|chunk| self.kinds_from_stmts(chunk))
                .reduce(Partial::default, Partial::merge);
            let from_calls = self
                .calls
                .par_iter()
                .enumerate()
                .chunks(2048)
                .map(|chunk| self.kinds_from_calls(&chunk))
                .reduce(Partial::default, Partial::merge);
            let Partial {
                env,
                attrs,
                returns,
            } = from_stmts.merge(from_calls);
            for c in &mut self.classes {
                c.attrs.clear();
            }
            for ((c, a), k) in attrs {
                self.classes[c].attrs.insert(a, k);
            }
            let stable = env == self.env && returns == self.returns;
            self.env = env;
            self.returns = returns;
            if stable && round > 0 {
                break;
            }
        }
    }

    /// Kinds bound by assignments, `with ... as`, and returns.
    fn kinds_from_stmts(&self, stmts: &[StmtInfo<'a>]) -> Partial<'a> {
        let mut p = Partial::default();
        for s in stmts {
            let scope = s.scope;
            match s.stmt {
                Stmt::Assign(a) => {
                    let k = self.kind_of(scope, &a.value);
                    for t in &a.targets {
                        if let Expr::Tuple(ast::ExprTuple { elts, .. })
                        | Expr::List(ast::ExprList { elts, .. }) = t
                        {
                            // `train_ds, val_ds = make_datasets()`: each name the kind of its
                            // element of the tuple unpacked.
                            for (index, elt) in elts.iter().enumerate() {
                                let u = super::Unpacked {
                                    value: &a.value,
                                    index,
                                    len: elts.len(),
                                };
                                if let Some((es, e)) = self.unpacked_element(scope, &u) {
                                    let k = self.kind_of(es, e);
                                    self.bind(&mut p, scope, elt, k);
                                }
                            }
                        } else {
                            self.bind(&mut p, scope, t, k);
                        }
                    }
                }
                Stmt::AnnAssign(a) => {
                    if let Some(v) = &a.value {
                        let k = self.kind_of(scope, v);
                        self.bind(&mut p, scope, &a.target, k);
                    }
                }
                Stmt::With(w) => {
                    for item in &w.items {
                        if let Some(v) = &item.optional_vars {
                            let k = self.kind_of(scope, &item.context_expr);
                            if matches!(k, Kind::Tape | Kind::Session | Kind::MonitoredSession) {
                                self.bind(&mut p, scope, v, k);
                            }
                        }
                    }
                }
                Stmt::Return(r) => {
                    if let (Some(v), Some(f)) = (&r.value, scope.func) {
                        let k = self.kind_of(scope, v);
                        let e = p.returns.entry(f).or_insert(Kind::Unknown);
                        *e = e.join(k);
                    }
                }
                _ => {}
            }
        }
        p
    }

    fn bind(&self, p: &mut Partial<'a>, scope: Scope, target: &'a Expr, k: Kind) {
        match target {
            Expr::Name(n) => {
                let e = p
                    .env
                    .entry(scope)
                    .or_default()
                    .entry(n.id.as_str())
                    .or_insert(Kind::Unknown);
                *e = e.join(k);
            }
            Expr::Attribute(a) => {
                if let Expr::Name(r) = &*a.value
                    && r.id.as_str() == "self"
                    && let Some(c) = self.self_class(scope)
                {
                    let e = p.attrs.entry((c, a.attr.as_str())).or_insert(Kind::Unknown);
                    *e = e.join(k);
                } else if let Some(key) = self.module_attr_key(scope.module, target) {
                    // `tf.model = tf.keras.Sequential()`: a global kept on a module.
                    let module_scope = Scope {
                        module: scope.module,
                        func: None,
                    };
                    let e = p
                        .env
                        .entry(module_scope)
                        .or_default()
                        .entry(key)
                        .or_insert(Kind::Unknown);
                    *e = e.join(k);
                }
            }
            _ => {}
        }
    }

    /// Parameters take the kinds of the arguments at their call sites.
    /// The arguments given for parameter `name` of function `f` at each of its call sites:
    /// (caller scope, argument). None when a call passes it through `*args`/`**kwargs`.
    pub fn arguments_for(&self, f: FuncId, name: &str) -> Option<Vec<(Scope, &'a Expr)>> {
        let def = self.funcs[f].def;
        let mut params: Vec<&str> = def
            .parameters
            .posonlyargs
            .iter()
            .chain(def.parameters.args.iter())
            .map(|p| p.parameter.name.as_str())
            .collect();
        if self.funcs[f].class.is_some() && !params.is_empty() {
            params.remove(0);
        }
        let pos = params.iter().position(|p| *p == name);
        let mut out = Vec::new();
        for c in &self.calls {
            if !matches!(self.resolve_call(c.scope, c.call), Some(Callee::Func(g)) if g == f) {
                continue;
            }
            let args = &c.call.arguments;
            if args.args.iter().any(|a| matches!(a, Expr::Starred(_)))
                || args.keywords.iter().any(|k| k.arg.is_none())
            {
                return None;
            }
            let given = args
                .keywords
                .iter()
                .find(|k| k.arg.as_ref().is_some_and(|a| a.as_str() == name))
                .map(|k| &k.value)
                .or_else(|| pos.and_then(|i| args.args.get(i)));
            if let Some(a) = given {
                out.push((c.scope, a));
            }
        }
        Some(out)
    }

    fn kinds_from_calls(&self, calls: &[(usize, &CallInfo<'a>)]) -> Partial<'a> {
        let mut p = Partial::default();
        for &(ci, c) in calls {
            let callee = match self.static_callees.get(ci) {
                Some(Some(known)) => *known,
                _ => self.resolve_call_uncached(c.scope, c.call),
            };
            let Some(Callee::Func(f)) = callee else {
                continue;
            };
            let def = self.funcs[f].def;
            let callee_scope = Scope {
                module: self.funcs[f].module,
                func: Some(f),
            };
            let mut params: Vec<&ast::ParameterWithDefault> = def
                .parameters
                .posonlyargs
                .iter()
                .chain(def.parameters.args.iter())
                .collect();
            if self.funcs[f].class.is_some() && !params.is_empty() {
                let is_static = def.decorator_list.iter().any(
                    |d| matches!(&d.expression, Expr::Name(n) if n.id.as_str() == "staticmethod"),
                );
                if !is_static {
                    params.remove(0);
                }
            }
            let mut join = |name: &'a str, k: Kind| {
                let e = p
                    .env
                    .entry(callee_scope)
                    .or_default()
                    .entry(name)
                    .or_insert(Kind::Unknown);
                *e = e.join(k);
            };
            for (i, arg) in c.call.arguments.args.iter().enumerate() {
                if matches!(arg, Expr::Starred(_)) {
                    break;
                }
                if let Some(param) = params.get(i) {
                    join(param.parameter.name.as_str(), self.kind_of(c.scope, arg));
                }
            }
            for kw in &c.call.arguments.keywords {
                if let Some(name) = &kw.arg {
                    join(name.as_str(), self.kind_of(c.scope, &kw.value));
                }
            }
        }
        p
    }
}

/// Kinds learnt in one pass over part of the program.
#[derive(Default)]
struct Partial<'a> {
    env: FastMap<Scope, FastMap<&'a str, Kind>>,
    attrs: FastMap<(ClassId, &'a str), Kind>,
    returns: FastMap<FuncId, Kind>,
}

impl<'a> Partial<'a> {
    fn merge(mut self, other: Partial<'a>) -> Partial<'a> {
        for (scope, names) in other.env {
            let mine = self.env.entry(scope).or_default();
            for (n, k) in names {
                let e = mine.entry(n).or_insert(Kind::Unknown);
                *e = e.join(k);
            }
        }
        for (key, k) in other.attrs {
            let e = self.attrs.entry(key).or_insert(Kind::Unknown);
            *e = e.join(k);
        }
        for (f, k) in other.returns {
            let e = self.returns.entry(f).or_insert(Kind::Unknown);
            *e = e.join(k);
        }
        self
    }
}
