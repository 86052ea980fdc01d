//! Imports (modules analysed once, their heaps merged), function and class definitions.

use super::*;

impl<'a> Interp<'a> {
    // ----- imports -----

    pub(super) fn exec_import(&mut self, alias: &ast::Alias, st: &mut State) {
        let full = alias.name.as_str();
        match &alias.asname {
            Some(asname) => {
                let v = self.module_value(full);
                self.merge_module_heap(full, st);
                self.bind(asname.as_str(), v, st);
            }
            None => {
                // `import a.b.c` binds `a` (and runs `a.b.c`).
                let _ = self.module_value(full);
                self.merge_module_heap(full, st);
                let first = full.split('.').next().unwrap_or(full);
                let v = self.module_value(first);
                self.bind(first, v, st);
            }
        }
    }

    /// What the imported module `name` (and, through its own imports, the modules it imported)
    /// left on the heap becomes part of the importer's state: `for x in self.cfg` of a class
    /// defined in that module reads the list its class body made.
    fn merge_module_heap(&mut self, name: &str, st: &mut State) {
        let Some(m) = self.module_named(name) else {
            return;
        };
        let Some(heap) = self.module_heaps[m as usize].clone() else {
            return;
        };
        if Arc::ptr_eq(&heap, &st.heap) {
            return;
        }
        if st.heap.is_empty() {
            st.heap = heap;
        } else {
            Arc::make_mut(&mut st.heap).add_missing(&heap);
        }
    }

    /// The value of a module by absolute dotted name.
    pub(crate) fn module_value(&mut self, name: &str) -> Value {
        if let Some(np) = crate::numpy::module(name) {
            return Value::Module(ModRef::Numpy(np));
        }
        if let Some(t) = crate::torch::module(name) {
            return Value::Module(ModRef::Torch(t));
        }
        match name {
            "pytropos.hints.numpy" | "ranklift.hints" | "ranklift_hints" => {
                return Value::Module(ModRef::Hints);
            }
            "typing" | "typing_extensions" => return Value::Module(ModRef::Typing),
            "jaxtyping" => return Value::Module(ModRef::Jaxtyping),
            "sys" => return Value::Module(ModRef::Sys),
            "platform" => return Value::Module(ModRef::Platform),
            "math" => return Value::Module(ModRef::Math),
            "copy" => return Value::Module(ModRef::Copy),
            "functools" => return Value::Module(ModRef::Functools),
            "threading" => return Value::Module(ModRef::Threading),
            "re" => return Value::Module(ModRef::Re),
            "dataclasses" => return Value::Module(ModRef::Dataclasses),
            "collections" | "collections.abc" => return Value::Module(ModRef::Collections),
            "argparse" => return Value::Module(ModRef::Argparse),
            _ => {}
        }
        match self.module_named(name).map(|i| i as usize) {
            Some(i) if i != 0 => {
                if matches!(self.modules[i].status, crate::interp::ModStatus::NotRun) {
                    self.run_imported(i as u32);
                }
                Value::Module(ModRef::User(i as u32))
            }
            _ => Value::Module(ModRef::Opaque),
        }
    }

    pub(super) fn exec_import_from(&mut self, i: &ast::StmtImportFrom, st: &mut State) {
        let base = match &i.module {
            Some(m) => m.as_str().to_owned(),
            None => String::new(),
        };
        let name = if i.level > 0 {
            // Relative: resolve against the current module's package.
            let cur = &self.modules[self.cur_module as usize].src.name;
            let mut parts: Vec<&str> = cur.split('.').collect();
            // `from .base import *` in `pkg/__init__.py` is `pkg.base`.
            let package = self.modules[self.cur_module as usize].src.is_package;
            for _ in 0..i.level - u32::from(package && i.level > 0) {
                parts.pop();
            }
            if !base.is_empty() {
                parts.push(&base);
            }
            parts.join(".")
        } else {
            base
        };
        let module = self.module_value(&name);
        self.merge_module_heap(&name, st);
        for alias in &i.names {
            let attr = alias.name.as_str();
            if attr == "*" {
                if let Value::Module(ModRef::User(m)) = module
                    && let crate::interp::ModStatus::Done(g) = &self.modules[m as usize].status
                {
                    let g = g.clone();
                    for (k, b) in g.iter() {
                        if !k.starts_with('_') {
                            self.bind(k, b.value.clone(), st);
                        }
                    }
                }
                continue;
            }
            let v = match &module {
                Value::Module(ModRef::Opaque) => {
                    // `from pkg import submodule` of our own project.
                    let sub = format!("{name}.{attr}");
                    if self.module_named(&sub).is_some() {
                        self.module_value(&sub)
                    } else {
                        Value::Top
                    }
                }
                // `from numpy import AxisError` on a NumPy without it raises ImportError (which
                // the usual `try: ... except ImportError:` fallback catches).
                Value::Module(ModRef::Numpy(m))
                    if crate::numpy::module_attr(self.config.numpy, m, attr).is_none()
                        && crate::numpy::module(&format!("{m}.{attr}")).is_none() =>
                {
                    // Under an undecided condition (a version check, an `except` fallback) this
                    // is version-dependent code: possible, not certain.
                    let certainty = if self.undecided > 0 {
                        crate::Certainty::Possible(
                            "under a condition that may select another NumPy version's code".into(),
                        )
                    } else {
                        crate::Certainty::Certain
                    };
                    self.report(
                        alias.range(),
                        "W202",
                        crate::interp::Exc::Import,
                        format!("cannot import name '{attr}' from '{m}'"),
                        certainty,
                    );
                    Value::Top
                }
                m => {
                    let m = m.clone();
                    self.attribute_of(&m, attr, alias.range(), st)
                }
            };
            let bound = alias.asname.as_ref().unwrap_or(&alias.name);
            // Coverage: a library name the analysis does not model is where what flows from
            // it goes dark (`from torch.nn.modules.instancenorm import InstanceNorm2d`).
            if matches!(v, Value::Top)
                && matches!(
                    module,
                    Value::Module(ModRef::Opaque | ModRef::Torch(_) | ModRef::Numpy(_))
                )
            {
                self.coverage
                    .cause(&format!("{name}.{attr}"), self.cur_module, alias.range());
                self.coverage.bind(bound.as_str(), true);
            }
            self.bind(bound.as_str(), v, st);
        }
    }

    // ----- functions and classes -----

    pub(super) fn define_function(&mut self, f: &'a ast::StmtFunctionDef, st: &mut State) -> Value {
        let mut defaults = Vec::new();
        let mut kw_defaults = Vec::new();
        for p in f.parameters.posonlyargs.iter().chain(&f.parameters.args) {
            defaults.push(p.default.as_ref().map(|d| self.eval(d, st)));
        }
        for p in &f.parameters.kwonlyargs {
            kw_defaults.push(p.default.as_ref().map(|d| self.eval(d, st)));
        }
        let mut kind = None;
        // A decorator ranklift does not know may replace the function by anything (numba's
        // `guvectorize` changes its signature, `contextmanager` makes a factory, `np.vectorize`
        // calls it element by element): the name is then bound to an unknown value, and the
        // body is analysed like an uncalled function's, with unknown arguments.
        let mut opaque = false;
        // The program's own decorators, outermost first, applied innermost first below.
        let mut apply: Vec<u32> = Vec::new();
        // `@x.setter` / `@x.deleter` under `@property def x`: the name stays bound to the
        // property (reads still run the getter; assignments go through the setter).
        let mut keep_property = None;
        for d in &f.decorator_list {
            if let Expr::Attribute(a) = &d.expression
                && matches!(a.attr.as_str(), "setter" | "deleter")
                && let Expr::Name(n) = &*a.value
                && let Some(b) = st.locals.as_ref().and_then(|l| l.get(n.id.as_str()))
                && matches!(&b.value, Value::Method(_, k)
                    if crate::interp::call::property_setter(k).is_some())
            {
                keep_property = Some((b.value.clone(), a.attr.as_str() == "setter"));
            }
            let v = self.eval(&d.expression, st);
            let (head, call) = match &d.expression {
                Expr::Call(c) => (&*c.func, true),
                e => (e, false),
            };
            let name = match head {
                Expr::Name(n) => n.id.as_str(),
                Expr::Attribute(a) => a.attr.as_str(),
                _ => "",
            };
            match name {
                "staticmethod" | "classmethod" | "property" | "cached_property" if !call => {
                    kind = Some(name)
                }
                // numba's CUDA kernels are launched as `kernel[blocks, threads](...)`: not a
                // function any more.
                "jit"
                    if matches!(head, Expr::Attribute(a)
                    if matches!(&*a.value, Expr::Name(n) if n.id.as_str() == "cuda")
                        || matches!(&*a.value, Expr::Attribute(b) if b.attr.as_str() == "cuda")) =>
                {
                    opaque = true;
                }
                // numba's `jit`/`njit` with explicit signatures (`@nb.jit(sig, ...)`, a list of
                // them, or `signature=`) dispatch on the argument types: a badly typed call
                // fails in numba's dispatcher (TypeError), never in the body (PyEMD's `emd`).
                "jit" | "njit"
                    if matches!(&d.expression, Expr::Call(c)
                        if !c.arguments.args.is_empty()
                            || c.arguments.find_keyword("signature").is_some()) =>
                {
                    opaque = true;
                }
                // Wrappers that call the function with the caller's arguments.
                // Runtime type checkers (jaxtyping's `@jaxtyped(typechecker=beartype)`,
                // beartype, typeguard), torch's gradient and precision modes
                // (`@torch.no_grad()`, `@torch.autocast(...)`) and TorchScript's markers
                // (`@torch.jit.ignore`: eager mode calls the function as written) too.
                "abstractmethod" | "lru_cache" | "cache" | "wraps" | "jit" | "njit"
                | "function" | "overload" | "override" | "final" | "no_type_check" | "setter"
                | "getter" | "deleter" | "jaxtyped" | "beartype" | "typechecked" | "no_grad"
                | "inference_mode" | "enable_grad" | "autocast" | "custom_fwd" | "custom_bwd"
                | "ignore" | "unused" | "export" | "script" | "script_method" | "compile" => {}
                // A decorator of the program itself (`def autoshape(func): ... return
                // wrapper`), or what a decorator factory of the program returns
                // (`@register_model()`: `def register_model(name=None): def wrapper(fn): ...`),
                // is run on the function when it is a plain function of a module (not a
                // method): the name is bound to what the decorators return.
                _ if let Value::Func(deco) = v
                    && !self.in_class_body() =>
                {
                    apply.push(deco);
                }
                _ => {
                    let _ = v;
                    opaque = true;
                }
            }
        }
        let closure = st.locals.clone().map(|l| match self.cur_func {
            Some(outer) => match &self.funcs[outer as usize].closure {
                Some(c) => {
                    let mut merged = (**c).clone();
                    merged.extend(l.iter().map(|(k, v)| (k.clone(), v.clone())));
                    Arc::new(merged)
                }
                None => l,
            },
            None => l,
        });
        let nested = self.cur_func.is_some() && !self.in_class_body();
        let context = if nested {
            (self.call_ctx, self.iter_salt)
        } else {
            (0, 0)
        };
        let key = (self.cur_module, u32::from(f.start()), context.0, context.1);
        let id = match self.func_index.get(&key) {
            Some(&id) => {
                let fd = Arc::make_mut(&mut self.funcs[id as usize]);
                fd.defaults = defaults;
                fd.kw_defaults = kw_defaults;
                fd.closure = match (&fd.closure, closure) {
                    (Some(a), Some(b)) => Some(crate::interp::state::combine_env(a, &b, false)),
                    (_, b) => b,
                };
                id
            }
            None => {
                let id = self.funcs.len() as u32;
                let first = self
                    .func_index
                    .get(&(key.0, key.1, 0, 0))
                    .copied()
                    .filter(|_| nested);
                let (scope, canonical) = match first {
                    Some(c) => (self.funcs[c as usize].scope.clone(), c),
                    None => (Arc::new(crate::interp::scope::Scope::of_function(f)), id),
                };
                self.funcs.push(Arc::new(crate::interp::FuncDef {
                    module: self.cur_module,
                    def: f,
                    defaults,
                    kw_defaults,
                    closure: if self.in_class_body() { None } else { closure },
                    scope,
                    class: None,
                    analysed: false,
                    conditional: conditionally_run(f),
                    canonical,
                    // A method of a class defined in a function sees that function's names.
                    parent: if self.in_class_body() {
                        self.class_outer_func
                    } else {
                        self.cur_func
                    },
                }));
                self.func_index.insert(key, id);
                if first.is_none() && nested {
                    // The instance a function nobody called is analysed as.
                    self.func_index.insert((key.0, key.1, 0, 0), id);
                }
                id
            }
        };
        if self.memo_funcs.remove(&id) {
            self.memo.retain(|k, _| k.0 != id);
        }
        if opaque {
            return Value::Top;
        }
        if !apply.is_empty() {
            let mut wrapped = Value::Func(id);
            for deco in apply.into_iter().rev() {
                let args = crate::interp::call::Args {
                    pos: vec![wrapped],
                    ..Default::default()
                };
                wrapped = match self.call_function(deco, None, args, f.range, st) {
                    // A wrapper the analysis can call; anything else (an object, a registry's
                    // return value) is unknown, and the body is analysed on its own.
                    w @ (Value::Func(_) | Value::Method(..)) => w,
                    _ => return Value::Top,
                };
            }
            // What a factory or a stack of decorators returned (a lone `@decorator` of the
            // program stays a function like any other).
            let factory_or_stacked = f.decorator_list.len() > 1
                || f.decorator_list
                    .iter()
                    .any(|d| matches!(d.expression, Expr::Call(_)));
            if let Value::Func(w) = wrapped
                && w != id
                && factory_or_stacked
            {
                self.wrappers.insert(w);
            }
            return wrapped;
        }
        if let Some((p, is_setter)) = keep_property {
            // `@x.setter`: the property now runs this function on assignment.
            return match p {
                Value::Method(getter, _) if is_setter => {
                    Value::Method(getter, crate::interp::call::property_kind(Some(id)))
                }
                p => p,
            };
        }
        match kind {
            Some("staticmethod") => Value::Method(Box::new(Value::Func(id)), "<static>".into()),
            Some("property" | "cached_property") => Value::Method(
                Box::new(Value::Func(id)),
                crate::interp::call::property_kind(None),
            ),
            Some(_) => Value::Method(Box::new(Value::Func(id)), "<classmethod>".into()),
            None => Value::Func(id),
        }
    }

    fn in_class_body(&self) -> bool {
        self.class_body > 0
    }

    pub(super) fn define_class(&mut self, c: &'a ast::StmtClassDef, mut st: State) -> Out {
        let mut bases = Vec::new();
        let mut meta = false;
        if let Some(args) = &c.arguments {
            for b in args.args.iter() {
                bases.push(self.eval(b, &mut st));
            }
            for k in &args.keywords {
                let v = self.eval(&k.value, &mut st);
                // `abc.ABCMeta` only adds abstract-method checks; any other metaclass of the
                // program (or unknown) may rewrite the class body.
                let abc = matches!(&k.value, Expr::Name(n) if n.id.as_str() == "ABCMeta")
                    || matches!(&k.value, Expr::Attribute(a) if a.attr.as_str() == "ABCMeta");
                if k.arg.as_ref().is_some_and(|a| a.as_str() == "metaclass") && !abc {
                    meta = matches!(v, Value::Class(_) | Value::Top);
                }
            }
        }
        meta |= bases
            .iter()
            .any(|b| matches!(b, Value::Class(b) if self.classes[*b as usize].meta));
        for d in &c.decorator_list {
            self.eval(&d.expression, &mut st);
        }
        // `class P(NamedTuple)`: a named tuple, its fields bound as a dataclass's.
        let tuple = bases
            .iter()
            .any(|b| matches!(b, Value::Builtin(crate::interp::value::Builtin::NamedTuple)));
        bases.retain(|b| !matches!(b, Value::Builtin(crate::interp::value::Builtin::NamedTuple)));
        let fields = (tuple
            || c.decorator_list
                .iter()
                .any(|d| is_dataclass_decorator(&d.expression)))
        .then(|| {
            let mut fields: Vec<Arc<str>> = bases
                .iter()
                .filter_map(|b| match b {
                    Value::Class(b) => self.classes[*b as usize].fields.clone(),
                    _ => None,
                })
                .flatten()
                .collect();
            for s in c.body.iter() {
                if let Stmt::AnnAssign(a) = s
                    && let Expr::Name(n) = &*a.target
                    && !crate::interp::stmt::is_classvar(&a.annotation)
                    && !fields.iter().any(|f| &**f == n.id.as_str())
                {
                    fields.push(n.id.as_str().into());
                }
            }
            fields
        });
        // Run the body in its own namespace.
        let saved_locals = st
            .locals
            .replace(Arc::new(crate::interp::state::Env::default()));
        let saved_func = self.cur_func.take();
        let saved_outer = std::mem::replace(&mut self.class_outer_func, saved_func);
        self.class_body += 1;
        let mut r = self.exec_block(&c.body, st);
        self.class_body -= 1;
        self.class_outer_func = saved_outer;
        self.cur_func = saved_func;
        let mut st = match r.normal.take() {
            Some(s) => s,
            None => return r,
        };
        let attrs = st.locals.take().map(|l| (*l).clone()).unwrap_or_default();
        st.locals = saved_locals;
        let key = (self.cur_module, u32::from(c.start()));
        let id = match self.class_index.get(&key) {
            Some(&id) => {
                let cd = Arc::make_mut(&mut self.classes[id as usize]);
                cd.attrs = attrs;
                cd.bases = bases;
                cd.meta = meta;
                cd.fields = fields;
                cd.tuple = tuple;
                id
            }
            None => {
                let id = self.classes.len() as u32;
                self.classes.push(Arc::new(crate::interp::ClassDef {
                    attrs,
                    bases,
                    meta,
                    fields,
                    tuple,
                }));
                self.class_index.insert(key, id);
                id
            }
        };
        let methods: Vec<u32> = self.classes[id as usize]
            .attrs
            .values()
            .filter_map(|b| match &b.value {
                Value::Func(f) => Some(*f),
                Value::Method(inner, _) => match **inner {
                    Value::Func(f) => Some(f),
                    _ => None,
                },
                _ => None,
            })
            .collect();
        for f in methods {
            Arc::make_mut(&mut self.funcs[f as usize]).class = Some(id);
        }
        self.bind(c.name.as_str(), Value::Class(id), &mut st);
        Out::normal(st)
    }
}
