//! Location inference and the static checks (every code except E-KOC, which projection finds).
//!
//! Each expression in a role class gets a [`Loc`]; communications, selections, choreographic
//! calls, constructors, `e @ R` and `Channel.open` are recorded as [`Special`]s for projection.

use std::collections::BTreeSet;

use ranklift_python::fxhash::{FastMap, FastSet};
use ruff_python_ast::{self as ast, Expr, Stmt};
use ruff_text_size::{Ranged, TextRange};

mod comm;
pub(crate) use comm::arg_exprs;
mod expr;
mod stmt;

use crate::Problem;
use crate::decls::{ClassDecl, Decls, MethodDecl};
use crate::loc::Loc;

pub type Key = (u32, u32);

pub fn key(r: TextRange) -> Key {
    (r.start().to_u32(), r.end().to_u32())
}

/// Where a choreographic call's callee comes from.
#[derive(Clone, Debug)]
pub enum Target {
    /// `self.m(...)`
    SelfM,
    /// `obj.m(...)`: the range of `obj`.
    Obj(TextRange),
    /// `C[R...].m(...)` or `C.m(...)`.
    Static,
}

/// A node projection treats specially.
#[derive(Clone, Debug)]
pub enum Special {
    /// `e @ R`: `inner` runs from the start of `e` (its parentheses included) to the start of `R`.
    At { role: String, inner: TextRange },
    /// `chan.com(arg)`.
    Com {
        chan: TextRange,
        arg: TextRange,
        sender: String,
        receiver: String,
    },
    /// `chan.select(E.L @ R)` (statement only).
    Select {
        chan: TextRange,
        label: String,
        sender: String,
        receiver: String,
    },
    /// A choreographic method call; `roles[i]` is the actual role of the callee's formal role i.
    Call {
        class: String,
        method: String,
        roles: Vec<String>,
        target: Target,
    },
    /// `C[R...](args)`.
    Ctor { class: String, roles: Vec<String> },
    /// `Channel.open("name")` with the annotated endpoints, and the annotated type of its
    /// values when it is not `object` (`Channel[int, A, B]`: the source text of `int`).
    Open {
        name: String,
        a: String,
        b: String,
        ty: Option<String>,
    },
}

/// What the checker learned, for projection.
#[derive(Default)]
pub struct Facts {
    pub locs: FastMap<Key, Loc>,
    pub specials: FastMap<Key, Special>,
    /// Expressions containing a special node.
    pub has_special: FastSet<Key>,
    /// Expressions containing a communication or choreographic call (a special other than `@`).
    pub has_comm: FastSet<Key>,
    /// Locations of assignment targets (names and `self.f`), by target range.
    pub targets: FastMap<Key, Loc>,
    /// Compound statements local to one role (`try`, source-level `match`), by statement range.
    pub local_stmts: FastMap<Key, String>,
    /// `raise`/`assert` statements: their role.
    pub stmt_roles: FastMap<Key, String>,
    /// `rolesOf(m)` (formal roles of the class), by (class, method).
    pub method_roles: FastMap<(String, String), BTreeSet<String>>,
}

impl Facts {
    pub fn loc(&self, e: &Expr) -> Loc {
        self.locs
            .get(&key(e.range()))
            .cloned()
            .unwrap_or(Loc::Every)
    }
}

const PURE_BUILTINS: &[&str] = &[
    "len",
    "range",
    "min",
    "max",
    "abs",
    "int",
    "float",
    "str",
    "bool",
    "tuple",
    "round",
    "divmod",
    "pow",
    "sorted",
    "list",
    "dict",
    "set",
    "frozenset",
    "repr",
    "hash",
    "ord",
    "chr",
    "hex",
    "oct",
    "bin",
    "sum",
    "any",
    "all",
    "isinstance",
    "reversed",
    "enumerate",
    "zip",
];

/// Run the checks over every role class.
pub fn check(decls: &Decls, out: &mut Vec<Problem>) -> Facts {
    let mut facts = Facts::default();
    // (caller, callee class, callee method, actual roles of the callee's formal roles)
    type Call = ((String, String), String, String, Vec<String>);
    let mut calls: Vec<Call> = Vec::new();
    for class in &decls.classes {
        for m in &class.methods {
            let mut cx = Cx {
                d: decls,
                class,
                method: m,
                scope: FastMap::default(),
                facts: &mut facts,
                out,
                direct: BTreeSet::new(),
                calls: Vec::new(),
                ctx_role: Vec::new(),
                hint: Vec::new(),
                chan_type: None,
            };
            for p in &m.params {
                cx.scope.insert(p.name.clone(), p.loc.clone());
                cx.direct
                    .extend(p.loc.roles().into_iter().map(str::to_owned));
            }
            cx.direct
                .extend(m.ret.roles().into_iter().map(str::to_owned));
            cx.block(&m.def.body);
            let direct = std::mem::take(&mut cx.direct);
            let mcalls = std::mem::take(&mut cx.calls);
            let id = (class.name.clone(), m.name.clone());
            for (c, meth, roles) in mcalls {
                calls.push((id.clone(), c, meth, roles));
            }
            facts.method_roles.insert(id, direct);
        }
    }
    // rolesOf: least fixpoint over choreographic calls.
    loop {
        let mut changed = false;
        for (caller, c, m, roles) in &calls {
            let Some(class) = decls.class(c) else {
                continue;
            };
            let callee: Vec<String> = facts
                .method_roles
                .get(&(c.clone(), m.clone()))
                .map(|s| s.iter().cloned().collect())
                .unwrap_or_default();
            let mapped: Vec<String> = callee
                .iter()
                .filter_map(|r| class.roles.iter().position(|x| x == r))
                .filter_map(|i| roles.get(i).cloned())
                .collect();
            let set = facts.method_roles.entry(caller.clone()).or_default();
            for r in mapped {
                changed |= set.insert(r);
            }
        }
        // A call on a `Base[...]` object may run any override: a method and its overrides
        // take part with the same roles (every projection of each has the method).
        for class in &decls.classes {
            let Some(parent) = &class.parent else {
                continue;
            };
            for m in &class.methods {
                let (a, b) = (
                    (class.name.clone(), m.name.clone()),
                    (parent.clone(), m.name.clone()),
                );
                if !facts.method_roles.contains_key(&b) {
                    continue;
                }
                let union: BTreeSet<String> = [&a, &b]
                    .iter()
                    .filter_map(|k| facts.method_roles.get(*k))
                    .flatten()
                    .cloned()
                    .collect();
                for k in [a, b] {
                    let set = facts.method_roles.entry(k).or_default();
                    let before = set.len();
                    set.extend(union.iter().cloned());
                    changed |= set.len() != before;
                }
            }
        }
        if !changed {
            break;
        }
    }
    facts
}

struct Cx<'a, 'd> {
    d: &'d Decls<'a>,
    class: &'d ClassDecl<'a>,
    method: &'d MethodDecl<'a>,
    scope: FastMap<String, Loc>,
    facts: &'d mut Facts,
    out: &'d mut Vec<Problem>,
    direct: BTreeSet<String>,
    calls: Vec<(String, String, Vec<String>)>,
    /// Roles of the enclosing `if`/`while` conditions (innermost last).
    ctx_role: Vec<String>,
    /// Where the enclosing expression is expected (innermost last): an impure call with no located
    /// operand inside `x: At[T, R] = f(g())` runs at R.
    hint: Vec<Option<Loc>>,
    /// The `T` of the `Channel[T, A, B]` annotation whose value is being located (for
    /// `Channel.open`).
    chan_type: Option<String>,
}

fn name_of(e: &Expr) -> Option<&str> {
    match e {
        Expr::Name(n) => Some(n.id.as_str()),
        _ => None,
    }
}

impl Cx<'_, '_> {
    fn err(&mut self, range: TextRange, code: &'static str, msg: String, hint: impl Into<String>) {
        self.out.push(Problem::new(range, code, msg, hint));
    }

    fn record(&mut self, e: &Expr, loc: Loc) -> Loc {
        self.facts.locs.insert(key(e.range()), loc.clone());
        loc
    }

    fn special(&mut self, e: &Expr, s: Special) {
        if !matches!(s, Special::At { .. }) {
            self.facts.has_comm.insert(key(e.range()));
        }
        self.facts.specials.insert(key(e.range()), s);
        self.facts.has_special.insert(key(e.range()));
    }

    /// Does `e` contain a communication or a choreographic call (not just `e @ R`)?
    fn has_special(&self, e: &Expr) -> bool {
        self.facts.has_comm.contains(&key(e.range()))
    }

    /// Propagate "contains a special" from children to `e`.
    fn lift(&mut self, e: &Expr, children: &[&Expr]) {
        if children
            .iter()
            .any(|c| self.facts.has_special.contains(&key(c.range())))
        {
            self.facts.has_special.insert(key(e.range()));
        }
        if children.iter().any(|c| self.has_special(c)) {
            self.facts.has_comm.insert(key(e.range()));
        }
    }

    fn role_of_name(&self, e: &Expr) -> Option<String> {
        // `R` or the seed's `R()`.
        let n = match e {
            Expr::Name(n) => n.id.as_str(),
            Expr::Call(c) if c.arguments.is_empty() => name_of(&c.func)?,
            _ => return None,
        };
        self.d.roles.contains_key(n).then(|| n.to_owned())
    }
}

/// The role of `C[roles]` that plays formal role `r`.
pub fn actual_role(class: &ClassDecl, roles: &[String], r: &str) -> String {
    class
        .roles
        .iter()
        .position(|x| x == r)
        .and_then(|i| roles.get(i))
        .cloned()
        .unwrap_or_else(|| r.to_owned())
}

fn first_arg_text(e: &Expr) -> String {
    match e {
        Expr::Call(c) => c
            .arguments
            .args
            .first()
            .map_or_else(|| "value".to_owned(), crate::short),
        other => crate::short(other),
    }
}

/// Immediate sub-expressions of `e`, in evaluation order.
pub fn children(e: &Expr) -> Vec<&Expr> {
    use ruff_python_ast::visitor::{self, Visitor};
    struct Kids<'a> {
        out: Vec<&'a Expr>,
        root: bool,
    }
    impl<'a> Visitor<'a> for Kids<'a> {
        fn visit_expr(&mut self, e: &'a Expr) {
            if self.root {
                self.root = false;
                visitor::walk_expr(self, e);
            } else {
                self.out.push(e);
            }
        }
    }
    let mut k = Kids {
        out: Vec::new(),
        root: true,
    };
    k.visit_expr(e);
    k.out
}

/// Collects the names in an expression or statement whose context `want` accepts and, with
/// `handlers`, the names bound by `except ... as name`.
struct Names<'b> {
    out: &'b mut Vec<String>,
    want: fn(&ast::ExprContext) -> bool,
    handlers: bool,
}

impl<'a> ruff_python_ast::visitor::Visitor<'a> for Names<'_> {
    fn visit_expr(&mut self, e: &'a Expr) {
        if let Expr::Name(n) = e
            && (self.want)(&n.ctx)
        {
            self.out.push(n.id.to_string());
        }
        ruff_python_ast::visitor::walk_expr(self, e);
    }
    fn visit_except_handler(&mut self, h: &'a ast::ExceptHandler) {
        let ast::ExceptHandler::ExceptHandler(h2) = h;
        if self.handlers
            && let Some(n) = &h2.name
        {
            self.out.push(n.to_string());
        }
        ruff_python_ast::visitor::walk_except_handler(self, h);
    }
}

/// Every name an expression mentions.
fn collect_loads(e: &Expr, out: &mut Vec<String>) {
    use ruff_python_ast::visitor::Visitor;
    Names {
        out,
        want: |_| true,
        handlers: false,
    }
    .visit_expr(e);
}

/// The names a statement reads.
fn collect_loads_stmt(s: &Stmt, out: &mut Vec<String>) {
    use ruff_python_ast::visitor::Visitor;
    Names {
        out,
        want: ast::ExprContext::is_load,
        handlers: false,
    }
    .visit_stmt(s);
}

/// The names a statement binds.
fn collect_stores_stmt(s: &Stmt, out: &mut Vec<String>) {
    use ruff_python_ast::visitor::Visitor;
    Names {
        out,
        want: ast::ExprContext::is_store,
        handlers: true,
    }
    .visit_stmt(s);
}

fn collect_stores(e: &Expr, out: &mut Vec<String>) {
    match e {
        Expr::Name(n) => out.push(n.id.to_string()),
        Expr::Tuple(t) => t.elts.iter().for_each(|e| collect_stores(e, out)),
        Expr::List(t) => t.elts.iter().for_each(|e| collect_stores(e, out)),
        Expr::Starred(s) => collect_stores(&s.value, out),
        _ => {}
    }
}

/// The annotations of the annotated assignments nested in a statement (`x: At[int, B] = ...`).
pub(crate) fn collect_annotations(s: &Stmt) -> Vec<&Expr> {
    use ruff_python_ast::visitor::{Visitor, walk_stmt};
    struct Anns<'a>(Vec<&'a Expr>);
    impl<'a> Visitor<'a> for Anns<'a> {
        fn visit_stmt(&mut self, s: &'a Stmt) {
            if let Stmt::AnnAssign(a) = s {
                self.0.push(&a.annotation);
            }
            walk_stmt(self, s);
        }
    }
    let mut v = Anns(Vec::new());
    v.visit_stmt(s);
    v.0
}

/// Finds `.com(`/`.select(` calls and, with `decls`, also `self.m(...)` calls and role classes.
struct Comm<'d, 'a> {
    found: bool,
    decls: Option<&'d Decls<'a>>,
}

impl<'x> ruff_python_ast::visitor::Visitor<'x> for Comm<'_, '_> {
    fn visit_expr(&mut self, e: &'x Expr) {
        match e {
            Expr::Call(c) => {
                if let Expr::Attribute(a) = &*c.func
                    && (matches!(a.attr.as_str(), "com" | "select")
                        || (self.decls.is_some() && name_of(&a.value) == Some("self")))
                {
                    self.found = true;
                }
            }
            Expr::Name(n) if self.decls.is_some_and(|d| d.class(n.id.as_str()).is_some()) => {
                self.found = true;
            }
            _ => {}
        }
        ruff_python_ast::visitor::walk_expr(self, e);
    }
}

/// Syntactically, does `e` contain `.com(`/`.select(` calls?
fn contains_comm(e: &Expr) -> bool {
    use ruff_python_ast::visitor::Visitor;
    let mut c = Comm {
        found: false,
        decls: None,
    };
    c.visit_expr(e);
    c.found
}

/// Does `s` contain communication, a `self.m(...)` call or a role class?
fn contains_comm_stmt(s: &Stmt, d: &Decls) -> bool {
    use ruff_python_ast::visitor::Visitor;
    let mut c = Comm {
        found: false,
        decls: Some(d),
    };
    c.visit_stmt(s);
    c.found
}
