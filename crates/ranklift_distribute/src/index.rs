//! The project index: every function, class, statement and call of every module, with the facts
//! the rules and checks share — how names resolve, what kind of value an expression holds, which
//! code the main script reaches, and which functions train.
//!
//! Training-loop identification by per-function summaries (`summary_*`): summaries are
//! joined across modules through real import resolution, `if __name__ == "__main__":` is looked
//! into, and calls are followed through functions, methods (`self.train_step(...)`), instances
//! of project classes and functions passed as values.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use ranklift_python::Project;
use ruff_python_ast::visitor::{self, Visitor};
use ruff_python_ast::{self as ast, Expr, Stmt};
use ruff_text_size::{Ranged, TextRange};

use crate::tf::names as tf;

mod classes;
mod kinds;
mod unpack;
pub use unpack::Unpacked;

/// The qualified name of a Name/Attribute chain under `aliases`, built with one allocation.
fn qualify_in(aliases: &FastMap<String, String>, expr: &Expr) -> Option<String> {
    let mut segments: Vec<&str> = Vec::new();
    let mut cur = expr;
    loop {
        match cur {
            Expr::Name(n) => {
                let head = aliases.get(n.id.as_str())?;
                let mut out = String::with_capacity(
                    head.len() + segments.iter().map(|s| s.len() + 1).sum::<usize>(),
                );
                out.push_str(head);
                for seg in segments.iter().rev() {
                    out.push('.');
                    out.push_str(seg);
                }
                return Some(out);
            }
            Expr::Attribute(a) => {
                segments.push(a.attr.as_str());
                cur = &a.value;
            }
            _ => return None,
        }
    }
}

/// What the collector finds in one module, with ids local to it (merged into the index with
/// offsets), so that modules can be collected in parallel.
struct Parts<'a> {
    project: &'a Project,
    module_info: ModuleInfo,
    funcs: Vec<FuncInfo<'a>>,
    classes: Vec<ClassInfo<'a>>,
    stmts: Vec<StmtInfo<'a>>,
    calls: Vec<CallInfo<'a>>,
    refs: Vec<NameRef<'a>>,
    local_funcs: FastMap<FuncId, FastMap<String, FuncId>>,
    func_of_stmt: HashMap<StmtId, FuncId>,
}

impl ModuleInfo {
    fn empty() -> ModuleInfo {
        ModuleInfo {
            aliases: FastMap::default(),
            funcs: HashMap::new(),
            classes: HashMap::new(),
            imports: Vec::new(),
            star_imports: Vec::new(),
            imports_horovod: None,
            import_bound: FastSet::default(),
            tf_imports: Vec::new(),
            stmts: 0..0,
        }
    }
}

fn empty_parts(project: &Project) -> Parts<'_> {
    Parts {
        project,
        module_info: ModuleInfo::empty(),
        funcs: Vec::new(),
        classes: Vec::new(),
        stmts: Vec::new(),
        calls: Vec::new(),
        refs: Vec::new(),
        local_funcs: FastMap::default(),
        func_of_stmt: HashMap::new(),
    }
}

fn collect_parts(project: &Project, m: usize) -> Parts<'_> {
    let mut info = ModuleInfo::empty();
    let suite: &[Stmt] = project.modules[m].parsed.suite();
    // Imports anywhere in the module bind names module-wide (a simplification that is exact for
    // the usual top-of-file imports).
    collect_imports(project, m, suite, &mut info);
    let mut parts = Parts {
        project,
        module_info: info,
        funcs: Vec::new(),
        classes: Vec::new(),
        stmts: Vec::new(),
        calls: Vec::new(),
        refs: Vec::new(),
        local_funcs: FastMap::default(),
        func_of_stmt: HashMap::new(),
    };
    let mut c = Collector {
        idx: &mut parts,
        module: m,
        func_stack: Vec::new(),
        class_stack: Vec::new(),
        stmt_stack: Vec::new(),
        pending: None,
    };
    c.visit_body(suite);
    parts.module_info.stmts = 0..parts.stmts.len();
    // Module-level defs are names too.
    let modname = &project.modules[m].name;
    let info = &mut parts.module_info;
    let names: Vec<(String, String)> = info
        .funcs
        .keys()
        .chain(info.classes.keys())
        .map(|n| (n.clone(), format!("{modname}.{n}")))
        .collect();
    for (n, q) in names {
        info.aliases.entry(n).or_insert(q);
    }
    // Module-level aliases of TensorFlow members: `Adam = tf.keras.optimizers.Adam`.
    for s in suite {
        if let Stmt::Assign(a) = s
            && let ([Expr::Name(t)], Expr::Attribute(_)) = (a.targets.as_slice(), &*a.value)
            && let Some(q) = qualify_in(&info.aliases, &a.value)
            && tf::canonical(&q).starts_with("tensorflow.")
        {
            info.aliases.insert(t.id.to_string(), q);
        }
    }
    parts
}

pub use ranklift_python::fxhash::{FastHasher, FastMap, FastSet};

/// (module, start, end) of an expression.
type RangeKey = (usize, u32, u32);

pub type FuncId = usize;
pub type ClassId = usize;
pub type StmtId = usize;
pub type CallId = usize;

/// A scope: a module's top level (class bodies included) or a function.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Scope {
    pub module: usize,
    pub func: Option<FuncId>,
}

pub struct FuncInfo<'a> {
    pub module: usize,
    pub def: &'a ast::StmtFunctionDef,
    pub stmt: StmtId,
    pub class: Option<ClassId>,
    pub parent: Option<FuncId>,
    pub qual: String,
    /// Decorated with `@tf.function` (or wrapped by a `tf.function(f)` call).
    pub traced: bool,
}

pub struct ClassInfo<'a> {
    pub module: usize,
    pub def: &'a ast::StmtClassDef,
    pub bases: Vec<Expr>,
    pub methods: HashMap<String, FuncId>,
    pub attrs: FastMap<&'a str, Kind>,
}

pub struct StmtInfo<'a> {
    pub stmt: &'a Stmt,
    pub scope: Scope,
    pub parent: Option<StmtId>,
    /// Identifies the body (statement list) this statement is in.
    pub body: usize,
    pub index_in_body: usize,
    pub body_len: usize,
}

pub struct CallInfo<'a> {
    pub call: &'a ast::ExprCall,
    pub stmt: StmtId,
    pub scope: Scope,
}

/// A name that is read (not called), for functions passed as values.
pub struct NameRef<'a> {
    pub name: &'a ast::ExprName,
    pub scope: Scope,
    pub stmt: StmtId,
}

/// What kind of TensorFlow object a value is, as far as the rewrite cares.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Kind {
    /// Nothing known (the lattice's bottom).
    Unknown,
    /// Bound to values of different kinds (the lattice's top): treated as unknown by the rules.
    Conflict,
    Optimizer {
        legacy: bool,
    },
    Schedule,
    Dataset,
    Checkpoint,
    CheckpointManager,
    Model,
    SummaryWriter,
    Tape,
    Callback {
        rank0: bool,
    },
    Instance(ClassId),
    /// A zip iterator (`zip(grads, vars)`), which `apply_gradients` exhausts.
    Zip,
    /// TF1 (`tf.compat.v1`) objects.
    Tf1Optimizer,
    /// The op returned by a TF1 optimizer's `minimize`/`apply_gradients`.
    TrainOp,
    Session,
    MonitoredSession,
    Estimator,
    ConfigProto,
    RunConfig,
    Saver,
    FileWriterV1,
    /// `tf.global_variables_initializer()`.
    Initializer,
    /// A PIL image (`Image.fromarray(a)`, `keras.utils.array_to_img(x)`, and what its
    /// `resize`/`convert`/... return): its `save` writes a file.
    Image,
}

impl Kind {
    /// Flow-insensitive join of a flat lattice: unknown is the identity, conflict absorbs, two
    /// different kinds conflict. Commutative and associative, so the order in which bindings are
    /// joined (sequentially or in parallel) does not change the result.
    pub fn join(self, other: Kind) -> Kind {
        match (self, other) {
            (Kind::Unknown, k) | (k, Kind::Unknown) => k,
            (Kind::Conflict, _) | (_, Kind::Conflict) => Kind::Conflict,
            (a, b) if a == b => a,
            (Kind::Optimizer { legacy: a }, Kind::Optimizer { legacy: b }) => {
                Kind::Optimizer { legacy: a && b }
            }
            _ => Kind::Conflict,
        }
    }

    /// What rules see: a conflict is as good as unknown.
    pub fn known(self) -> Kind {
        if self == Kind::Conflict {
            Kind::Unknown
        } else {
            self
        }
    }
    pub fn describe(self) -> &'static str {
        match self {
            Kind::Unknown | Kind::Conflict => "value",
            Kind::Optimizer { .. } => "optimizer",
            Kind::Schedule => "learning-rate schedule",
            Kind::Dataset => "dataset",
            Kind::Checkpoint => "checkpoint",
            Kind::CheckpointManager => "checkpoint manager",
            Kind::Model => "model",
            Kind::SummaryWriter => "summary writer",
            Kind::Tape => "gradient tape",
            Kind::Callback { .. } => "callback",
            Kind::Instance(_) => "object",
            Kind::Zip => "zip iterator",
            Kind::Tf1Optimizer => "TF1 optimizer",
            Kind::TrainOp => "training op",
            Kind::Session => "session",
            Kind::MonitoredSession => "monitored session",
            Kind::Estimator => "estimator",
            Kind::ConfigProto => "ConfigProto",
            Kind::RunConfig => "RunConfig",
            Kind::Saver => "saver",
            Kind::FileWriterV1 => "summary FileWriter",
            Kind::Initializer => "variable initializer",
            Kind::Image => "image",
        }
    }
}

pub struct ModuleInfo {
    /// Local name → qualified name, from imports (anywhere in the module), module-level `def`s
    /// and `class`es, and module-level aliases of TensorFlow members (`Adam = tf...Adam`).
    pub aliases: FastMap<String, String>,
    /// Module-level functions and classes by name.
    pub funcs: HashMap<String, FuncId>,
    pub classes: HashMap<String, ClassId>,
    /// Project modules this module imports.
    pub imports: Vec<usize>,
    /// Project modules this one star-imports (`from utils import *`).
    pub star_imports: Vec<usize>,
    pub imports_horovod: Option<ruff_text_size::TextRange>,
    /// Names bound by import statements (as opposed to module-level member aliases).
    pub import_bound: FastSet<String>,
    /// Top-level import statements binding `tensorflow` or a part of it.
    pub tf_imports: Vec<StmtId>,
    pub stmts: std::ops::Range<StmtId>,
}

pub struct Index<'a> {
    pub project: &'a Project,
    pub modules: Vec<ModuleInfo>,
    pub funcs: Vec<FuncInfo<'a>>,
    pub classes: Vec<ClassInfo<'a>>,
    pub stmts: Vec<StmtInfo<'a>>,
    pub calls: Vec<CallInfo<'a>>,
    pub refs: Vec<NameRef<'a>>,
    /// Nested functions: (enclosing function, name) → function.
    local_funcs: FastMap<FuncId, FastMap<String, FuncId>>,
    /// Kinds of names per scope (flow-insensitive, joined over all bindings).
    pub env: FastMap<Scope, FastMap<&'a str, Kind>>,
    pub returns: FastMap<FuncId, Kind>,
    /// Statement id of a function definition → function.
    pub func_of_stmt: HashMap<StmtId, FuncId>,
    /// Receivers (source text) of `.compile(...)` calls, per module: they are models.
    compiled: HashSet<(usize, String)>,
    /// Calls by (module, range of their callee expression).
    func_key: FastMap<RangeKey, CallId>,
    /// Canonical name of each call's callee, filled once aliases are final.
    call_canon: Vec<Option<Arc<str>>>,
    /// Each call's callee, filled once kinds are final.
    callees: Vec<Option<Callee>>,
    callees_ready: bool,
    /// First segments of the project's module names (`pkg` for `pkg.sub.mod`).
    project_roots: FastSet<String>,
    /// Every name that can denote a project function: `def` names and imported aliases of
    /// project symbols. Other names are skipped quickly when looking for functions used as values.
    callable_names: FastSet<String>,
    /// Names of methods that project Keras model classes define (`compile`, `train_step`, ...).
    model_methods: FastSet<String>,
    /// Module-level functions defined more than once, in source order: (module, name) → defs.
    redefined: FastMap<(usize, String), Vec<FuncId>>,
    /// For each call, its callee when that does not depend on value kinds (see `compute_kinds`).
    static_callees: Vec<Option<Option<Callee>>>,
}

impl<'a> Index<'a> {
    pub fn build(project: &'a Project) -> Index<'a> {
        Self::build_within(project, None)
    }

    /// The index of the modules `keep` marks (all when None); the others are present with no
    /// names, statements or calls, so module ids stay the project's.
    pub fn build_within(project: &'a Project, keep: Option<&[bool]>) -> Index<'a> {
        let mut idx = Self::build_names(project, keep);
        idx.complete_kinds();
        idx
    }

    /// [`Self::build_within`] without the value kinds (TensorFlow's optimizers, datasets, models,
    /// ... and instances of project classes): names, scopes, statements, calls and the callees
    /// that do not depend on kinds. [`Self::complete_kinds`] adds the rest. The PyTorch target
    /// needs no kinds, and on a 50,000-line project they are half the index's time.
    pub fn build_names(project: &'a Project, keep: Option<&[bool]>) -> Index<'a> {
        let mut idx = Index {
            project,
            modules: Vec::new(),
            funcs: Vec::new(),
            classes: Vec::new(),
            stmts: Vec::new(),
            calls: Vec::new(),
            refs: Vec::new(),
            local_funcs: FastMap::default(),
            env: FastMap::default(),
            returns: FastMap::default(),
            func_of_stmt: HashMap::new(),
            compiled: HashSet::new(),
            func_key: FastMap::default(),
            call_canon: Vec::new(),
            callees: Vec::new(),
            callees_ready: false,
            project_roots: project
                .modules
                .iter()
                .map(|m| m.name.split('.').next().unwrap_or("").to_owned())
                .collect(),
            callable_names: FastSet::default(),
            model_methods: FastSet::default(),
            redefined: FastMap::default(),
            static_callees: Vec::new(),
        };
        use rayon::prelude::*;
        let parts: Vec<Parts> = (0..project.modules.len())
            .into_par_iter()
            .map(|m| {
                if keep.is_none_or(|k| k[m]) {
                    collect_parts(project, m)
                } else {
                    empty_parts(project)
                }
            })
            .collect();
        // One allocation per table: growing them by doubling touches (and the kernel zeroes) about
        // twice the memory, which on a 50,000-line project was most of the run time.
        idx.modules.reserve(parts.len());
        idx.funcs.reserve(parts.iter().map(|p| p.funcs.len()).sum());
        idx.classes
            .reserve(parts.iter().map(|p| p.classes.len()).sum());
        idx.stmts.reserve(parts.iter().map(|p| p.stmts.len()).sum());
        idx.calls.reserve(parts.iter().map(|p| p.calls.len()).sum());
        idx.refs.reserve(parts.iter().map(|p| p.refs.len()).sum());
        idx.func_of_stmt
            .reserve(parts.iter().map(|p| p.func_of_stmt.len()).sum());
        for p in parts {
            idx.merge(p);
        }
        crate::star_imports::bind(&mut idx);
        idx.func_key = idx
            .calls
            .iter()
            .enumerate()
            .map(|(i, c)| {
                let r = c.call.func.range();
                (
                    (c.scope.module, u32::from(r.start()), u32::from(r.end())),
                    i,
                )
            })
            .collect();
        idx.call_canon = idx
            .calls
            .par_iter()
            .map(|c| {
                idx.canonical_uncached(c.scope.module, &c.call.func)
                    .map(Arc::from)
            })
            .collect();
        let mut names: FastSet<String> = idx.funcs.iter().map(|f| f.def.name.to_string()).collect();
        for m in &idx.modules {
            for (local, q) in &m.aliases {
                if idx
                    .project_roots
                    .contains(q.split('.').next().unwrap_or(""))
                {
                    names.insert(local.clone());
                }
            }
        }
        idx.callable_names = names;
        let mut defs: FastMap<(usize, String), Vec<FuncId>> = FastMap::default();
        for (id, f) in idx.funcs.iter().enumerate() {
            if f.parent.is_none() && f.class.is_none() {
                defs.entry((f.module, f.def.name.to_string()))
                    .or_default()
                    .push(id);
            }
        }
        defs.retain(|_, v| v.len() > 1);
        for v in defs.values_mut() {
            v.sort_by_key(|&f| idx.funcs[f].def.range().start());
        }
        idx.redefined = defs;
        idx.model_methods = (0..idx.classes.len())
            .filter(|&c| idx.is_model_class(c))
            .flat_map(|c| idx.classes[c].methods.keys().cloned().collect::<Vec<_>>())
            .collect();
        idx.static_callees = idx
            .calls
            .par_iter()
            .map(|c| {
                if idx.is_external(c.scope, &c.call.func) {
                    Some(None)
                } else if idx.kind_dependent_local(c.scope, c.call) {
                    None
                } else {
                    Some(idx.resolve_local(c.scope, c.call))
                }
            })
            .collect();
        // Until kinds are known, a call's callee is what does not depend on them (`obj.m()` on
        // anything but `self` stays unresolved).
        idx.callees = idx
            .static_callees
            .iter()
            .map(|s| s.unwrap_or(None))
            .collect();
        idx.callees_ready = true;
        idx
    }

    /// The value kinds, and every call's callee cached (see [`Self::build_names`]).
    pub fn complete_kinds(&mut self) {
        use rayon::prelude::*;
        self.callees_ready = false;
        self.mark_traced();
        self.compute_kinds();
        let callees = self
            .calls
            .par_iter()
            .map(|c| self.resolve_call_uncached(c.scope, c.call))
            .collect();
        self.callees = callees;
        self.callees_ready = true;
    }

    pub fn source(&self, module: usize) -> &'a str {
        &self.project.modules[module].parsed.text
    }

    pub fn text(&self, module: usize, node: &impl Ranged) -> &'a str {
        &self.source(module)[node.range()]
    }

    /// Append one module's parts, shifting its local ids.
    fn merge(&mut self, p: Parts<'a>) {
        let (fo, co, so) = (self.funcs.len(), self.classes.len(), self.stmts.len());
        let sh = |s: Scope| Scope {
            module: s.module,
            func: s.func.map(|f| f + fo),
        };
        let mut info = p.module_info;
        info.funcs.values_mut().for_each(|f| *f += fo);
        info.classes.values_mut().for_each(|c| *c += co);
        info.tf_imports.iter_mut().for_each(|s| *s += so);
        info.stmts = info.stmts.start + so..info.stmts.end + so;
        self.modules.push(info);
        self.funcs.extend(p.funcs.into_iter().map(|mut f| {
            f.stmt += so;
            f.class = f.class.map(|c| c + co);
            f.parent = f.parent.map(|x| x + fo);
            f
        }));
        self.classes.extend(p.classes.into_iter().map(|mut c| {
            c.methods.values_mut().for_each(|f| *f += fo);
            c
        }));
        self.stmts.extend(p.stmts.into_iter().map(|mut s| {
            s.scope = sh(s.scope);
            s.parent = s.parent.map(|x| x + so);
            s
        }));
        self.calls.extend(p.calls.into_iter().map(|mut c| {
            c.scope = sh(c.scope);
            c.stmt += so;
            c
        }));
        self.refs.extend(p.refs.into_iter().map(|mut r| {
            r.scope = sh(r.scope);
            r.stmt += so;
            r
        }));
        for (f, names) in p.local_funcs {
            self.local_funcs.insert(
                f + fo,
                names.into_iter().map(|(n, g)| (n, g + fo)).collect(),
            );
        }
        for (s, f) in p.func_of_stmt {
            self.func_of_stmt.insert(s + so, f + fo);
        }
    }

    /// The qualified name an expression refers to, through imports and aliases
    /// (`tf.keras.optimizers.Adam` → `tensorflow.keras.optimizers.Adam`).
    pub fn qualify(&self, module: usize, expr: &Expr) -> Option<String> {
        qualify_in(&self.modules[module].aliases, expr)
    }

    /// [`Self::qualify`], canonicalised for TensorFlow lookups.
    pub fn canonical(&self, module: usize, expr: &Expr) -> Option<Arc<str>> {
        if !matches!(expr, Expr::Name(_) | Expr::Attribute(_)) {
            return None;
        }
        let r = expr.range();
        if let Some(&c) = self
            .func_key
            .get(&(module, u32::from(r.start()), u32::from(r.end())))
            && let Some(v) = self.call_canon.get(c)
        {
            return v.clone();
        }
        self.canonical_uncached(module, expr).map(Arc::from)
    }

    fn canonical_uncached(&self, module: usize, expr: &Expr) -> Option<String> {
        self.qualify(module, expr).map(|q| tf::canonical(&q))
    }

    /// The values plain assignments give `name` in `scope`, in source order, with the scope they
    /// were found in: the function's own assignments if it has any (then the name is local),
    /// else the module's.
    pub fn assignments(&self, scope: Scope, name: &str) -> (Scope, Vec<&'a Expr>) {
        let module_scope = Scope {
            module: scope.module,
            func: None,
        };
        for s in [scope, module_scope] {
            let vals: Vec<&'a Expr> = self.modules[s.module]
                .stmts
                .clone()
                .filter_map(|st| {
                    let info = &self.stmts[st];
                    match info.stmt {
                        Stmt::Assign(a)
                            if info.scope == s
                                && a.targets.iter().any(
                                    |t| matches!(t, Expr::Name(tn) if tn.id.as_str() == name),
                                ) =>
                        {
                            Some(&*a.value)
                        }
                        _ => None,
                    }
                })
                .collect();
            if !vals.is_empty() || s == module_scope {
                return (s, vals);
            }
        }
        (module_scope, Vec::new())
    }

    /// The project class a name was instantiated from (`model = Regressor()` in this scope or
    /// at module level; Keras model classes included, whose `Kind` is just `Model`).
    pub fn instance_class(&self, scope: Scope, e: &Expr) -> Option<ClassId> {
        let class_of = |s: Scope, v: &Expr| match v {
            Expr::Call(c) => match self.resolve_call(s, c) {
                Some(Callee::Class(cl)) => Some(cl),
                _ => None,
            },
            _ => None,
        };
        if let Expr::Call(_) = e {
            return class_of(scope, e);
        }
        let Expr::Name(n) = e else { return None };
        let (s, vals) = self.assignments(scope, n.id.as_str());
        let first = class_of(s, vals.first()?)?;
        vals.iter()
            .all(|v| class_of(s, v) == Some(first))
            .then_some(first)
    }

    /// The function a name resolves to in a scope (nested functions first).
    fn func_by_name(&self, scope: Scope, name: &str) -> Option<FuncId> {
        let mut f = scope.func;
        while let Some(id) = f {
            if let Some(&g) = self.local_funcs.get(&id).and_then(|names| names.get(name)) {
                return Some(g);
            }
            f = self.funcs[id].parent;
        }
        let q = self.modules[scope.module].aliases.get(name)?;
        match self.project_symbol(q)? {
            Symbol::Func(g) => Some(g),
            Symbol::Class(_) => None,
        }
    }

    /// The class a method's `self` belongs to.
    fn self_class(&self, scope: Scope) -> Option<ClassId> {
        let mut f = scope.func;
        while let Some(id) = f {
            if let Some(c) = self.funcs[id].class {
                return Some(c);
            }
            f = self.funcs[id].parent;
        }
        None
    }

    /// What a call invokes among the project's own code.
    pub fn resolve_call(&self, scope: Scope, call: &ast::ExprCall) -> Option<Callee> {
        if self.callees_ready {
            let r = call.func.range();
            if let Some(&c) =
                self.func_key
                    .get(&(scope.module, u32::from(r.start()), u32::from(r.end())))
                && self.calls[c].scope == scope
            {
                return self.callees[c];
            }
        }
        self.resolve_call_uncached(scope, call)
    }

    /// True if `expr`'s head name is imported from a module outside the project (`tf.x.y`,
    /// `np.sum`): such a call can never reach project code.
    fn is_external(&self, scope: Scope, expr: &Expr) -> bool {
        let mut cur = expr;
        while let Expr::Attribute(a) = cur {
            cur = &a.value;
        }
        let Expr::Name(head) = cur else { return false };
        let info = &self.modules[scope.module];
        if head.id.as_str() == "self" || !info.import_bound.contains(head.id.as_str()) {
            return false;
        }
        match info.aliases.get(head.id.as_str()) {
            Some(q) => !self
                .project_roots
                .contains(q.split('.').next().unwrap_or("")),
            None => false,
        }
    }

    fn resolve_call_uncached(&self, scope: Scope, call: &ast::ExprCall) -> Option<Callee> {
        if self.is_external(scope, &call.func) {
            return None;
        }
        self.resolve_local(scope, call)
    }

    /// `obj.method(...)` on something other than `self`: its callee may change as kinds are learnt
    /// (the caller has already ruled out calls into external modules).
    fn kind_dependent_local(&self, scope: Scope, call: &ast::ExprCall) -> bool {
        let Expr::Attribute(a) = &*call.func else {
            return false;
        };
        match &*a.value {
            Expr::Name(n) if n.id.as_str() == "self" => false,
            // `data_loader.get_loaders(...)` with `import data_loader`, a project module: a
            // function of that module whatever the kinds.
            Expr::Name(n) => {
                let info = &self.modules[scope.module];
                !(info.import_bound.contains(n.id.as_str())
                    && info
                        .aliases
                        .get(n.id.as_str())
                        .is_some_and(|q| self.project.module(q).is_some()))
            }
            _ => true,
        }
    }

    /// [`Self::resolve_call`] for a call already known not to go to an external module.
    fn resolve_local(&self, scope: Scope, call: &ast::ExprCall) -> Option<Callee> {
        match &*call.func {
            Expr::Name(n) => {
                // Module-level code calls the definition that precedes it (`def step` twice).
                if scope.func.is_none()
                    && !self.redefined.is_empty()
                    && let Some(defs) = self.redefined.get(&(scope.module, n.id.to_string()))
                {
                    let before = defs
                        .iter()
                        .rev()
                        .find(|&&f| self.funcs[f].def.range.end() <= call.range().start());
                    if let Some(&f) = before.or(defs.last()) {
                        return Some(Callee::Func(f));
                    }
                }
                if let Some(f) = self.func_by_name(scope, n.id.as_str()) {
                    return Some(Callee::Func(f));
                }
                let q = self.qualify(scope.module, &call.func)?;
                match self.project_symbol(&q)? {
                    Symbol::Func(f) => Some(Callee::Func(f)),
                    Symbol::Class(c) => Some(Callee::Class(c)),
                }
            }
            Expr::Attribute(a) => {
                if let Expr::Name(recv) = &*a.value
                    && recv.id.as_str() == "self"
                    && let Some(c) = self.self_class(scope)
                {
                    return self.method(c, a.attr.as_str()).map(Callee::Func);
                }
                match self.kind_of(scope, &a.value) {
                    Kind::Instance(c) => return self.method(c, a.attr.as_str()).map(Callee::Func),
                    // A Keras model of a project class (`gan = GAN(...)`; its kind is `Model`):
                    // its own methods, such as a custom `compile`, are project code.
                    Kind::Model if self.model_methods.contains(a.attr.as_str()) => {
                        if let Some(c) = self.instance_class(scope, &a.value) {
                            return self.method(c, a.attr.as_str()).map(Callee::Func);
                        }
                    }
                    _ => {}
                }
                let q = self.qualify(scope.module, &call.func)?;
                match self.project_symbol(&q)? {
                    Symbol::Func(f) => Some(Callee::Func(f)),
                    Symbol::Class(c) => Some(Callee::Class(c)),
                }
            }
            _ => None,
        }
    }

    /// The project function a name read (not called) refers to.
    pub fn resolve_ref(&self, r: &NameRef) -> Option<FuncId> {
        if !self.callable_names.contains(r.name.id.as_str()) {
            return None;
        }
        self.func_by_name(r.scope, r.name.id.as_str())
    }

    /// The kind of value an expression evaluates to.
    pub fn kind_of(&self, scope: Scope, expr: &Expr) -> Kind {
        self.kind_of_depth(scope, expr, 0)
    }

    fn kind_of_depth(&self, scope: Scope, expr: &Expr, depth: u32) -> Kind {
        if depth > 24 {
            return Kind::Unknown;
        }
        match expr {
            Expr::Call(call) => self.call_kind(scope, call, depth),
            Expr::Name(n) => self.name_kind(scope, n.id.as_str()),
            Expr::Attribute(a) => {
                if let Expr::Name(recv) = &*a.value
                    && recv.id.as_str() == "self"
                    && let Some(c) = self.self_class(scope)
                {
                    return self.attr_kind(c, a.attr.as_str());
                }
                if let Some(key) = self.module_attr_key(scope.module, expr) {
                    let module_scope = Scope {
                        module: scope.module,
                        func: None,
                    };
                    return self.name_kind(module_scope, key);
                }
                match self.kind_of_depth(scope, &a.value, depth + 1) {
                    Kind::Instance(c) => self.attr_kind(c, a.attr.as_str()),
                    _ => Kind::Unknown,
                }
            }
            Expr::Named(n) => self.kind_of_depth(scope, &n.value, depth + 1),
            _ => Kind::Unknown,
        }
    }

    /// `tf.model` (an attribute set on an imported module: some tutorials keep their model
    /// there): its source text, the key its kind is kept under in the module's names.
    fn module_attr_key(&self, m: usize, e: &Expr) -> Option<&'a str> {
        let Expr::Attribute(a) = e else { return None };
        let Expr::Name(r) = &*a.value else {
            return None;
        };
        self.modules[m].aliases.get(r.id.as_str())?;
        let project: &'a Project = self.project;
        Some(&project.modules[m].parsed.text[e.range()])
    }

    fn attr_kind(&self, class: ClassId, attr: &str) -> Kind {
        self.in_hierarchy(class, |c| c.attrs.get(attr).copied())
            .map_or(Kind::Unknown, Kind::known)
    }

    pub fn name_kind(&self, scope: Scope, name: &str) -> Kind {
        let mut s = scope;
        loop {
            if let Some(&k) = self.env.get(&s).and_then(|names| names.get(name))
                && k != Kind::Unknown
            {
                return k.known();
            }
            match s.func {
                Some(f) => {
                    s = Scope {
                        module: s.module,
                        func: self.funcs[f].parent,
                    }
                }
                None => return Kind::Unknown,
            }
        }
    }

    fn call_kind(&self, scope: Scope, call: &ast::ExprCall, depth: u32) -> Kind {
        let m = scope.module;
        if let Some(q) = self.canonical(m, &call.func) {
            if let Some(o) = tf::optimizer_class(&q) {
                return Kind::Optimizer { legacy: o.legacy };
            }
            if tf::schedule_class(&q).is_some() || tf::tf1_lr_decay(&q) {
                return Kind::Schedule;
            }
            if tf::is_dataset_constructor(&q) {
                return Kind::Dataset;
            }
            if tf::returns_model(&q) {
                return Kind::Model;
            }
            if tf::is_rank0_callback(&q) {
                return Kind::Callback { rank0: true };
            }
            if q.starts_with("tensorflow.keras.callbacks.") {
                return Kind::Callback { rank0: false };
            }
            if tf::tf1_optimizer(&q).is_some() {
                return Kind::Tf1Optimizer;
            }
            if tf::is_global_initializer(&q) {
                return Kind::Initializer;
            }
            if crate::writers::makes_pil_image(&q) {
                return Kind::Image;
            }
            match &*q {
                tf::SESSION => return Kind::Session,
                tf::MONITORED_SESSION => return Kind::MonitoredSession,
                tf::ESTIMATOR => return Kind::Estimator,
                tf::CONFIG_PROTO => return Kind::ConfigProto,
                tf::RUN_CONFIG => return Kind::RunConfig,
                tf::SAVER => return Kind::Saver,
                tf::FILE_WRITER_V1 => return Kind::FileWriterV1,
                tf::CHECKPOINT => return Kind::Checkpoint,
                tf::CHECKPOINT_MANAGER => return Kind::CheckpointManager,
                tf::FILE_WRITER => return Kind::SummaryWriter,
                tf::GRADIENT_TAPE => return Kind::Tape,
                _ => {}
            }
        }
        if let Expr::Name(n) = &*call.func
            && n.id.as_str() == "zip"
            && !self.modules[m].aliases.contains_key("zip")
        {
            return Kind::Zip;
        }
        match self.resolve_call(scope, call) {
            Some(Callee::Func(f)) => {
                return self
                    .returns
                    .get(&f)
                    .copied()
                    .unwrap_or(Kind::Unknown)
                    .known();
            }
            Some(Callee::Class(c)) => {
                return if self.is_model_class(c) {
                    Kind::Model
                } else {
                    Kind::Instance(c)
                };
            }
            None => {}
        }
        if let Expr::Attribute(a) = &*call.func {
            let recv = self.kind_of_depth(scope, &a.value, depth + 1);
            if recv == Kind::Dataset && tf::dataset_method_returns_dataset(a.attr.as_str()) {
                return Kind::Dataset;
            }
            if recv == Kind::Tf1Optimizer
                && matches!(a.attr.as_str(), "minimize" | "apply_gradients")
            {
                return Kind::TrainOp;
            }
            if recv == Kind::Image && crate::writers::image_method_returns_image(a.attr.as_str()) {
                return Kind::Image;
            }
        }
        Kind::Unknown
    }

    /// Is this receiver a Keras model: a model-kind value, or something `.compile(...)`d?
    pub fn is_model_receiver(&self, scope: Scope, recv: &Expr) -> bool {
        self.kind_of(scope, recv) == Kind::Model
            || self
                .compiled
                .contains(&(scope.module, self.text(scope.module, recv).to_owned()))
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Callee {
    Func(FuncId),
    /// Instantiation of a project class (its `__init__` runs).
    Class(ClassId),
}

enum Symbol {
    Func(FuncId),
    Class(ClassId),
}

/// The project modules an import statement of module `m` loads: `import a.b` → `a.b`;
/// `from .x import y` → `.x`, and `.x.y` when `y` is a submodule.
fn import_targets(project: &Project, m: usize, stmt: &Stmt, out: &mut Vec<usize>) {
    match stmt {
        Stmt::Import(imp) => {
            for a in &imp.names {
                out.extend(project.resolve_import(m, 0, a.name.as_str()));
            }
        }
        Stmt::ImportFrom(imp) => {
            let modname = imp.module.as_ref().map(|i| i.as_str()).unwrap_or("");
            let target = project.resolve_import(m, imp.level, modname);
            out.extend(target);
            if target.is_none() && imp.level > 0 {
                return;
            }
            let base = from_base(project, target, modname);
            for a in &imp.names {
                if a.name.as_str() != "*" {
                    out.extend(project.module(&joined(&base, a.name.as_str())));
                }
            }
        }
        _ => {}
    }
}

/// The module a `from X import ...` names: the project module it resolved to, else `X` itself.
fn from_base(project: &Project, target: Option<usize>, modname: &str) -> String {
    target.map_or_else(|| modname.to_owned(), |t| project.modules[t].name.clone())
}

/// `base.name` (just `name` when `base` is empty).
fn joined(base: &str, name: &str) -> String {
    if base.is_empty() {
        name.to_owned()
    } else {
        format!("{base}.{name}")
    }
}

/// The project modules that module `m` imports (anywhere in it).
pub fn module_imports(project: &Project, m: usize) -> Vec<usize> {
    use ruff_python_ast::statement_visitor::{StatementVisitor, walk_stmt};
    struct V<'p> {
        project: &'p Project,
        m: usize,
        out: Vec<usize>,
    }
    impl<'b> StatementVisitor<'b> for V<'_> {
        fn visit_stmt(&mut self, stmt: &'b Stmt) {
            match stmt {
                Stmt::Import(_) | Stmt::ImportFrom(_) => {
                    import_targets(self.project, self.m, stmt, &mut self.out)
                }
                _ => walk_stmt(self, stmt),
            }
        }
    }
    let mut v = V {
        project,
        m,
        out: Vec::new(),
    };
    v.visit_body(project.modules[m].parsed.suite());
    v.out.sort_unstable();
    v.out.dedup();
    v.out
}

fn collect_imports(project: &Project, m: usize, suite: &[Stmt], info: &mut ModuleInfo) {
    use ruff_python_ast::statement_visitor::{StatementVisitor, walk_stmt};
    struct V<'p> {
        project: &'p Project,
        m: usize,
        aliases: Vec<(String, String)>,
        imports: Vec<usize>,
        stars: Vec<usize>,
        horovod: Option<ruff_text_size::TextRange>,
    }
    impl<'b> StatementVisitor<'b> for V<'_> {
        fn visit_stmt(&mut self, stmt: &'b Stmt) {
            match stmt {
                Stmt::Import(imp) => {
                    import_targets(self.project, self.m, stmt, &mut self.imports);
                    for a in &imp.names {
                        let full = a.name.as_str();
                        // `ranklift_tf` is Horovod's API over TensorFlow's collectives (the
                        // engine for TensorFlow >= 2.16): a program importing it is distributed.
                        if full == "horovod"
                            || full.starts_with("horovod.")
                            || full == "ranklift_tf"
                        {
                            self.horovod.get_or_insert(stmt.range());
                        }
                        match &a.asname {
                            Some(asname) => {
                                self.aliases.push((asname.to_string(), full.to_owned()))
                            }
                            None => {
                                let head = full.split('.').next().unwrap_or(full);
                                self.aliases.push((head.to_owned(), head.to_owned()));
                            }
                        }
                    }
                }
                Stmt::ImportFrom(imp) => {
                    let modname = imp.module.as_ref().map(|i| i.as_str()).unwrap_or("");
                    if imp.level == 0
                        && (modname == "horovod"
                            || modname.starts_with("horovod.")
                            || modname == "ranklift_tf")
                    {
                        self.horovod.get_or_insert(stmt.range());
                    }
                    import_targets(self.project, self.m, stmt, &mut self.imports);
                    let target = self.project.resolve_import(self.m, imp.level, modname);
                    let base = match target {
                        None if imp.level > 0 => format!("<unresolved>.{modname}"),
                        _ => from_base(self.project, target, modname),
                    };
                    for a in &imp.names {
                        if a.name.as_str() == "*" {
                            // Its names are known once every module is collected (`Index::build`).
                            self.stars.extend(target);
                            continue;
                        }
                        let full = joined(&base, a.name.as_str());
                        let local = a.asname.as_ref().unwrap_or(&a.name).to_string();
                        self.aliases.push((local, full));
                    }
                }
                _ => walk_stmt(self, stmt),
            }
        }
    }
    let mut v = V {
        project,
        m,
        aliases: Vec::new(),
        imports: Vec::new(),
        stars: Vec::new(),
        horovod: None,
    };
    v.visit_body(suite);
    for (k, q) in v.aliases {
        info.import_bound.insert(k.clone());
        info.aliases.insert(k, q);
    }
    v.imports.sort_unstable();
    v.imports.dedup();
    info.imports = v.imports;
    info.star_imports = v.stars;
    info.imports_horovod = v.horovod;
}

struct Collector<'a, 'i> {
    idx: &'i mut Parts<'a>,
    module: usize,
    func_stack: Vec<FuncId>,
    class_stack: Vec<(ClassId, usize)>,
    stmt_stack: Vec<StmtId>,
    /// (body id, index, len) for the next statement visited.
    pending: Option<(usize, usize, usize)>,
}

impl Collector<'_, '_> {
    fn scope(&self) -> Scope {
        Scope {
            module: self.module,
            func: self.func_stack.last().copied(),
        }
    }
}

impl<'a> Visitor<'a> for Collector<'a, '_> {
    fn visit_body(&mut self, body: &'a [Stmt]) {
        let id = body.as_ptr() as usize;
        for (i, s) in body.iter().enumerate() {
            self.pending = Some((id, i, body.len()));
            self.visit_stmt(s);
        }
    }

    fn visit_stmt(&mut self, stmt: &'a Stmt) {
        let (body, index_in_body, body_len) = self.pending.take().unwrap_or((0, 0, 1));
        let id = self.idx.stmts.len();
        self.idx.stmts.push(StmtInfo {
            stmt,
            scope: self.scope(),
            parent: self.stmt_stack.last().copied(),
            body,
            index_in_body,
            body_len,
        });
        if matches!(stmt, Stmt::Import(_) | Stmt::ImportFrom(_)) && self.stmt_stack.is_empty() {
            let binds_tf = match stmt {
                Stmt::Import(i) => i.names.iter().any(|a| {
                    a.name.as_str() == "tensorflow" || a.name.as_str().starts_with("tensorflow.")
                }),
                Stmt::ImportFrom(i) => {
                    i.level == 0
                        && i.module.as_ref().is_some_and(|m| {
                            m.as_str() == "tensorflow" || m.as_str().starts_with("tensorflow.")
                        })
                }
                _ => false,
            };
            if binds_tf {
                self.idx.module_info.tf_imports.push(id);
            }
        }
        self.stmt_stack.push(id);
        match stmt {
            Stmt::FunctionDef(def) => {
                for d in &def.decorator_list {
                    self.visit_expr(&d.expression);
                }
                for p in def.parameters.iter_non_variadic_params() {
                    if let Some(d) = &p.default {
                        self.visit_expr(d);
                    }
                }
                let parent = self.func_stack.last().copied();
                let class = match self.class_stack.last() {
                    Some(&(c, depth)) if depth == self.func_stack.len() => Some(c),
                    _ => None,
                };
                let modname = &self.idx.project.modules[self.module].name;
                let qual = match (class, parent) {
                    (Some(c), _) => {
                        format!("{modname}.{}.{}", self.idx.classes[c].def.name, def.name)
                    }
                    (None, Some(p)) => format!("{}.{}", self.idx.funcs[p].qual, def.name),
                    (None, None) => format!("{modname}.{}", def.name),
                };
                let fid = self.idx.funcs.len();
                self.idx.funcs.push(FuncInfo {
                    module: self.module,
                    def,
                    stmt: id,
                    class,
                    parent,
                    qual,
                    traced: false,
                });
                self.idx.func_of_stmt.insert(id, fid);
                match (class, parent) {
                    (Some(c), _) => {
                        self.idx.classes[c]
                            .methods
                            .insert(def.name.to_string(), fid);
                    }
                    (None, Some(p)) => {
                        self.idx
                            .local_funcs
                            .entry(p)
                            .or_default()
                            .insert(def.name.to_string(), fid);
                    }
                    (None, None) => {
                        if self.class_stack.is_empty() {
                            self.idx.module_info.funcs.insert(def.name.to_string(), fid);
                        }
                    }
                }
                self.func_stack.push(fid);
                self.visit_body(&def.body);
                self.func_stack.pop();
            }
            Stmt::ClassDef(def) => {
                for d in &def.decorator_list {
                    self.visit_expr(&d.expression);
                }
                let bases: Vec<Expr> = def
                    .arguments
                    .as_ref()
                    .map(|a| a.args.to_vec())
                    .unwrap_or_default();
                if let Some(args) = &def.arguments {
                    for a in args.args.iter() {
                        self.visit_expr(a);
                    }
                }
                let cid = self.idx.classes.len();
                self.idx.classes.push(ClassInfo {
                    module: self.module,
                    def,
                    bases,
                    methods: HashMap::new(),
                    attrs: FastMap::default(),
                });
                if self.func_stack.is_empty() && self.class_stack.is_empty() {
                    self.idx
                        .module_info
                        .classes
                        .insert(def.name.to_string(), cid);
                }
                self.class_stack.push((cid, self.func_stack.len()));
                self.visit_body(&def.body);
                self.class_stack.pop();
            }
            _ => visitor::walk_stmt(self, stmt),
        }
        self.stmt_stack.pop();
    }

    fn visit_expr(&mut self, expr: &'a Expr) {
        match expr {
            Expr::Call(call) => {
                if let Some(&stmt) = self.stmt_stack.last() {
                    self.idx.calls.push(CallInfo {
                        call,
                        stmt,
                        scope: self.scope(),
                    });
                }
                // A called name is a call, not a function used as a value: skip its reference.
                if matches!(&*call.func, Expr::Name(_)) {
                    for a in call.arguments.args.iter() {
                        self.visit_expr(a);
                    }
                    for k in call.arguments.keywords.iter() {
                        self.visit_expr(&k.value);
                    }
                    return;
                }
            }
            Expr::Name(name) if name.ctx.is_load() => {
                if let Some(&stmt) = self.stmt_stack.last() {
                    self.idx.refs.push(NameRef {
                        name,
                        scope: self.scope(),
                        stmt,
                    });
                }
            }
            _ => {}
        }
        visitor::walk_expr(self, expr);
    }
}

/// A diagnostic at `range` of module `m`, located in that module's file: the one builder every
/// rule and check of every target uses.
pub fn diag(
    idx: &Index,
    m: usize,
    range: TextRange,
    code: &'static str,
    sev: ranklift_python::Severity,
    msg: impl Into<String>,
    hint: impl Into<String>,
) -> ranklift_python::Diagnostic {
    let pm = &idx.project.modules[m];
    ranklift_python::Diagnostic::new(
        &pm.rel_path,
        &pm.parsed.text,
        &pm.parsed.index,
        range,
        code,
        sev,
        msg,
    )
    .with_hint(hint)
}

#[cfg(test)]
mod tests {
    use super::Kind;

    const ALL: [Kind; 6] = [
        Kind::Unknown,
        Kind::Conflict,
        Kind::Dataset,
        Kind::Model,
        Kind::Optimizer { legacy: true },
        Kind::Optimizer { legacy: false },
    ];

    /// The join is a semilattice: commutative, associative, idempotent, with Unknown as identity.
    #[test]
    fn join_is_a_semilattice() {
        for a in ALL {
            assert_eq!(a.join(a), a);
            assert_eq!(a.join(Kind::Unknown), a);
            assert_eq!(a.join(Kind::Conflict), Kind::Conflict);
            for b in ALL {
                assert_eq!(a.join(b), b.join(a), "{a:?} {b:?}");
                for c in ALL {
                    assert_eq!(a.join(b.join(c)), a.join(b).join(c), "{a:?} {b:?} {c:?}");
                }
            }
        }
    }
}
