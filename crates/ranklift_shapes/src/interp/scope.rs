//! Which names a function binds (its locals), which it declares `global` / `nonlocal`, and
//! whether a module star-imports from somewhere unknown (which turns off undefined-name checks).

use std::sync::Arc;

use ruff_python_ast::visitor::{self, Visitor};
use ruff_python_ast::{self as ast, Expr, Stmt};

#[derive(Debug, Default)]
pub struct Scope {
    /// The names the body binds (for a module: its top-level names, wherever they are bound).
    pub locals: super::state::FxSet<Arc<str>>,
    pub globals: super::state::FxSet<Arc<str>>,
    pub nonlocals: super::state::FxSet<Arc<str>>,
    pub star_import: bool,
    /// (Modules) names that some function of the module declares `global`: they are set while
    /// the program runs (`def activate(name): global TOOLBOX; TOOLBOX = name`), so what the
    /// module's top level assigned is not their only value.
    pub runtime_globals: super::state::FxSet<Arc<str>>,
    /// The body yields: calling it makes a generator.
    pub generator: bool,
    /// Names the body binds only to index arrays of one kind ([`super::index_arrays::index_names`]).
    pub index_arrays: super::state::FxMap<Arc<str>, super::index_arrays::Kind>,
    /// (Functions) the names the body reads, found the first time they are asked for.
    reads: std::sync::OnceLock<Vec<Arc<str>>>,
}

impl Scope {
    /// The names `def`'s body reads ([`names_read`]), walked once per function: `def` is the
    /// function this scope was made from.
    pub fn reads(&self, def: &ast::StmtFunctionDef) -> &[Arc<str>] {
        self.reads.get_or_init(|| names_read(def))
    }

    /// A module's scope: whether names can appear in it that no statement binds (a star import,
    /// `globals()` or `exec`), and which names functions rebind (module names live in the
    /// globals).
    pub fn of_module(body: &[Stmt]) -> Scope {
        struct Globals {
            names: super::state::FxSet<Arc<str>>,
            dynamic: bool,
            in_function: u32,
        }
        impl<'a> Visitor<'a> for Globals {
            fn visit_stmt(&mut self, s: &'a Stmt) {
                if let Stmt::Global(g) = s {
                    self.names
                        .extend(g.names.iter().map(|n| Arc::from(n.as_str())));
                }
                let f = u32::from(matches!(s, Stmt::FunctionDef(_)));
                self.in_function += f;
                ruff_python_ast::visitor::walk_stmt(self, s);
                self.in_function -= f;
            }
            fn visit_expr(&mut self, e: &'a Expr) {
                // `globals()` handed out (`def_unit(..., namespace=globals())`), `exec`, or the
                // module's own `locals()` / `vars()`: the module's names are made at run time.
                if let Expr::Call(c) = e
                    && let Expr::Name(n) = &*c.func
                {
                    match n.id.as_str() {
                        "globals" | "exec" => self.dynamic = true,
                        "locals" | "vars" if self.in_function == 0 && c.arguments.is_empty() => {
                            self.dynamic = true;
                        }
                        _ => {}
                    }
                }
                ruff_python_ast::visitor::walk_expr(self, e);
            }
        }
        let mut g = Globals {
            names: Default::default(),
            dynamic: false,
            in_function: 0,
        };
        g.visit_body(body);
        let mut bound = Collector::default();
        bound.visit_body(body);
        Scope {
            star_import: star_import(body) || g.dynamic,
            runtime_globals: g.names,
            locals: bound.scope.locals,
            index_arrays: super::index_arrays::index_names(body, &[]),
            ..Scope::default()
        }
    }

    pub fn of_function(def: &ast::StmtFunctionDef) -> Scope {
        let mut c = Collector::default();
        for p in def.parameters.iter() {
            c.scope.locals.insert(p.name().as_str().into());
        }
        c.visit_body(&def.body);
        for g in c
            .scope
            .globals
            .clone()
            .iter()
            .chain(c.scope.nonlocals.clone().iter())
        {
            c.scope.locals.remove(g);
        }
        let params: Vec<&str> = def.parameters.iter().map(|p| p.name().as_str()).collect();
        c.scope.index_arrays = super::index_arrays::index_names(&def.body, &params);
        c.scope
    }
}

#[derive(Default)]
struct Collector {
    scope: Scope,
}

impl Collector {
    fn bind_target(&mut self, e: &Expr) {
        match e {
            Expr::Name(n) => {
                self.scope.locals.insert(n.id.as_str().into());
            }
            Expr::Tuple(t) => t.elts.iter().for_each(|x| self.bind_target(x)),
            Expr::List(t) => t.elts.iter().for_each(|x| self.bind_target(x)),
            Expr::Starred(s) => self.bind_target(&s.value),
            _ => {}
        }
    }
}

impl<'a> Visitor<'a> for Collector {
    fn visit_stmt(&mut self, stmt: &'a Stmt) {
        match stmt {
            Stmt::FunctionDef(f) => {
                self.scope.locals.insert(f.name.as_str().into());
                for d in &f.decorator_list {
                    self.visit_expr(&d.expression);
                }
                return;
            }
            Stmt::ClassDef(c) => {
                self.scope.locals.insert(c.name.as_str().into());
                return;
            }
            Stmt::Assign(a) => a.targets.iter().for_each(|t| self.bind_target(t)),
            Stmt::AugAssign(a) => self.bind_target(&a.target),
            Stmt::AnnAssign(a) => self.bind_target(&a.target),
            Stmt::For(f) => self.bind_target(&f.target),
            Stmt::With(w) => {
                for item in &w.items {
                    if let Some(v) = &item.optional_vars {
                        self.bind_target(v);
                    }
                }
            }
            Stmt::Delete(d) => d.targets.iter().for_each(|t| self.bind_target(t)),
            Stmt::Try(t) => {
                for h in &t.handlers {
                    let ast::ExceptHandler::ExceptHandler(h) = h;
                    if let Some(n) = &h.name {
                        self.scope.locals.insert(n.as_str().into());
                    }
                }
            }
            Stmt::Import(i) => {
                for a in &i.names {
                    let name = match &a.asname {
                        Some(n) => n.as_str(),
                        None => a.name.as_str().split('.').next().unwrap_or_default(),
                    };
                    self.scope.locals.insert(name.into());
                }
            }
            Stmt::ImportFrom(i) => {
                for a in &i.names {
                    if a.name.as_str() == "*" {
                        self.scope.star_import = true;
                    } else {
                        let n = a.asname.as_ref().unwrap_or(&a.name);
                        self.scope.locals.insert(n.as_str().into());
                    }
                }
            }
            Stmt::Global(g) => {
                for n in &g.names {
                    self.scope.globals.insert(n.as_str().into());
                }
            }
            Stmt::Nonlocal(g) => {
                for n in &g.names {
                    self.scope.nonlocals.insert(n.as_str().into());
                }
            }
            Stmt::Match(m) => {
                for case in &m.cases {
                    let mut names = Vec::new();
                    pattern_names(&case.pattern, &mut names);
                    self.scope.locals.extend(names);
                }
            }
            _ => {}
        }
        visitor::walk_stmt(self, stmt);
    }

    fn visit_expr(&mut self, expr: &'a Expr) {
        match expr {
            Expr::Named(n) => {
                self.bind_target(&n.target);
                self.visit_expr(&n.value);
            }
            // New scopes: only the walrus targets inside comprehensions leak (handled above).
            Expr::Lambda(_) => {}
            Expr::Yield(_) | Expr::YieldFrom(_) => {
                self.scope.generator = true;
                visitor::walk_expr(self, expr);
            }
            _ => visitor::walk_expr(self, expr),
        }
    }
}

/// The names a `match` pattern binds.
pub fn pattern_names(p: &ast::Pattern, out: &mut Vec<Arc<str>>) {
    use ast::Pattern as P;
    match p {
        P::MatchAs(a) => {
            if let Some(n) = &a.name {
                out.push(n.as_str().into());
            }
            if let Some(p) = &a.pattern {
                pattern_names(p, out);
            }
        }
        P::MatchStar(s) => {
            if let Some(n) = &s.name {
                out.push(n.as_str().into());
            }
        }
        P::MatchSequence(s) => s.patterns.iter().for_each(|p| pattern_names(p, out)),
        P::MatchOr(s) => s.patterns.iter().for_each(|p| pattern_names(p, out)),
        P::MatchMapping(m) => {
            m.patterns.iter().for_each(|p| pattern_names(p, out));
            if let Some(r) = &m.rest {
                out.push(r.as_str().into());
            }
        }
        P::MatchClass(c) => {
            c.arguments
                .patterns
                .iter()
                .for_each(|p| pattern_names(p, out));
            c.arguments
                .keywords
                .iter()
                .for_each(|k| pattern_names(&k.pattern, out));
        }
        P::MatchValue(_) | P::MatchSingleton(_) => {}
    }
}

/// Does the block (outside functions and classes) contain `from m import *`?
fn star_import(body: &[Stmt]) -> bool {
    body.iter().any(|s| match s {
        Stmt::ImportFrom(i) => i.names.iter().any(|a| a.name.as_str() == "*"),
        Stmt::If(i) => {
            star_import(&i.body) || i.elif_else_clauses.iter().any(|c| star_import(&c.body))
        }
        Stmt::Try(t) => {
            star_import(&t.body)
                || star_import(&t.orelse)
                || star_import(&t.finalbody)
                || t.handlers.iter().any(|h| {
                    let ast::ExceptHandler::ExceptHandler(h) = h;
                    star_import(&h.body)
                })
        }
        Stmt::With(w) => star_import(&w.body),
        Stmt::For(f) => star_import(&f.body) || star_import(&f.orelse),
        Stmt::While(w) => star_import(&w.body) || star_import(&w.orelse),
        _ => false,
    })
}

/// The names a function's body (nested functions included) reads.
#[derive(Default)]
struct Reads(Vec<Arc<str>>);

impl<'a> Visitor<'a> for Reads {
    fn visit_expr(&mut self, e: &'a Expr) {
        if let Expr::Name(n) = e
            && n.ctx.is_load()
            && !self.0.iter().any(|x| **x == *n.id.as_str())
        {
            self.0.push(n.id.as_str().into());
        }
        visitor::walk_expr(self, e);
    }
}

/// The names an expression reads (a lambda's body).
pub fn names_read_expr(e: &Expr) -> Vec<Arc<str>> {
    let mut r = Reads::default();
    r.visit_expr(e);
    r.0
}

/// The names a function's body reads.
pub fn names_read(def: &ast::StmtFunctionDef) -> Vec<Arc<str>> {
    let mut r = Reads::default();
    r.visit_body(&def.body);
    r.0
}
