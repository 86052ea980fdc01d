//! Location inference and the static checks (every code except E-KOC, which projection finds).
//!
//! Each expression in a role class gets a [`Loc`]; communications, selections, choreographic
//! calls, constructors, `e @ R` and `Channel.open` are recorded as [`Special`]s for projection.

use std::collections::BTreeSet;

use ranklift_python::fxhash::{FastMap, FastSet};
use ruff_python_ast::{self as ast, Expr, Operator, Stmt};
use ruff_text_size::{Ranged, TextRange};

use crate::Problem;
use crate::codes::*;
use crate::decls::{ClassDecl, Decls, MethodDecl, role_arg, role_args};
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
    /// `Channel.open("name")` with the annotated endpoints.
    Open { name: String, a: String, b: String },
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

    // ----- expressions -------------------------------------------------------------------

    /// Locate `e`; `expected` is the location the context wants (annotation, parameter, return).
    fn expr(&mut self, e: &Expr, expected: Option<&Loc>) -> Loc {
        let loc = self.expr_inner(e, expected);
        // A role-free value used where one role's value is expected is located there.
        let loc = match (&loc, expected) {
            (Loc::Every, Some(Loc::At(r))) => Loc::At(r.clone()),
            _ => loc,
        };
        self.record(e, loc)
    }

    fn expr_inner(&mut self, e: &Expr, expected: Option<&Loc>) -> Loc {
        match e {
            Expr::BinOp(b)
                if b.op == Operator::MatMult && self.role_of_name(&b.right).is_some() =>
            {
                let class = self.class;
                let Some(role) = role_arg(
                    match &*b.right {
                        Expr::Call(c) => &c.func,
                        r => r,
                    },
                    &class.roles,
                    self.d,
                    self.out,
                ) else {
                    return Loc::Unknown;
                };
                let inner = self.expr(&b.left, Some(&Loc::At(role.clone())));
                if !matches!(inner, Loc::Every | Loc::Unknown) && inner != Loc::At(role.clone()) {
                    self.err(
                        e.range(),
                        E_LOC,
                        format!("`@ {role}` locates a role-free value, but this one is at {inner}"),
                        "`e @ R` only applies to literals and other values every role can compute",
                    );
                }
                if self.has_special(&b.left) {
                    self.err(
                        b.left.range(),
                        E_SHORT,
                        "a communication cannot be located with `@`".to_owned(),
                        "its result is already located at the receiver",
                    );
                }
                // From the start of the operand to the right operand; projection trims the `@`.
                let inner_range = TextRange::new(e.range().start(), b.right.range().start());
                self.special(
                    e,
                    Special::At {
                        role: role.clone(),
                        inner: inner_range,
                    },
                );
                self.direct.insert(role.clone());
                Loc::At(role)
            }
            Expr::BinOp(b)
                if b.op == Operator::MatMult
                    && matches!(&*b.right, Expr::Name(n) if !self.scope.contains_key(n.id.as_str())
                        && !self.d.globals.contains(n.id.as_str())
                        && !ranklift_python::builtins::is_builtin(n.id.as_str())) =>
            {
                self.err(
                    b.right.range(),
                    E_ROLE,
                    format!("unknown role `{}`", crate::short(&b.right)),
                    "declare it at module level: `R = Role(\"R\")`, and add it to the class's roles",
                );
                Loc::Unknown
            }
            Expr::Call(call) => self.call(e, call, expected),
            Expr::Name(n) => {
                let id = n.id.as_str();
                if let Some(l) = self.scope.get(id) {
                    return l.clone();
                }
                if id == "self" {
                    if self.method.is_static {
                        return Loc::Every;
                    }
                    return Loc::Obj(self.class.name.clone(), self.class.roles.clone());
                }
                if self.d.roles.contains_key(id) {
                    self.err(
                        e.range(),
                        E_ROLE,
                        format!("role `{id}` used as a value"),
                        "roles only appear in types, `C[R...]` and `e @ R`",
                    );
                    return Loc::Unknown;
                }
                if !self.d.globals.contains(id)
                    && self.d.class(id).is_none()
                    && !ranklift_python::builtins::is_builtin(id)
                    && id != "__file__"
                {
                    let hint = if self.class.field(id).is_some() {
                        format!("`{id}` is a field: write `self.{id}`")
                    } else {
                        "assign it before this line, or define or import it at module level"
                            .to_owned()
                    };
                    self.err(e.range(), E_LOC, format!("unknown name `{id}`"), hint);
                    return Loc::Unknown;
                }
                Loc::Every
            }
            Expr::Attribute(a) => {
                let base = self.expr(&a.value, None);
                self.lift(e, &[&a.value]);
                match base {
                    Loc::Obj(c, rs) => {
                        let Some(class) = self.d.class(&c) else {
                            return Loc::Unknown;
                        };
                        match class.field(a.attr.as_str()) {
                            Some(l) => l.subst(&|r| actual_role(class, &rs, r)),
                            None if class.method(a.attr.as_str()).is_some() => {
                                self.err(
                                    e.range(),
                                    E_UNSUP,
                                    format!("method `{}` used as a value", a.attr),
                                    "call choreographic methods directly",
                                );
                                Loc::Unknown
                            }
                            None => {
                                self.err(
                                    a.attr.range,
                                    E_LOC,
                                    format!("`{c}` has no field `{}`", a.attr),
                                    "fields are the attributes assigned in `__init__`",
                                );
                                Loc::Unknown
                            }
                        }
                    }
                    Loc::Chan { .. } => {
                        self.err(
                            e.range(),
                            E_CHAN,
                            format!(
                                "channels only offer `com(...)` and `select(...)`, not `{}`",
                                a.attr
                            ),
                            "call `ch.com(value)` or `ch.select(Enum.LABEL @ R)`",
                        );
                        Loc::Unknown
                    }
                    other => other,
                }
            }
            Expr::BoolOp(b) => {
                let vals: Vec<&Expr> = b.values.iter().collect();
                for v in vals.iter().skip(1) {
                    self.expr(v, None);
                    if self.has_special(v) {
                        self.err(
                            v.range(),
                            E_SHORT,
                            "communication in the right operand of `and`/`or`".to_owned(),
                            "Python may skip it at one role but not at another; compute it in a statement before",
                        );
                    }
                }
                self.expr(vals[0], None);
                self.local_op(e, &vals, expected)
            }
            Expr::If(i) => {
                for v in [&*i.body, &*i.orelse] {
                    self.expr(v, None);
                    if self.has_special(v) {
                        self.err(
                            v.range(),
                            E_SHORT,
                            "communication in a branch of a conditional expression".to_owned(),
                            "use an `if` statement with a selection",
                        );
                    }
                }
                self.expr(&i.test, None);
                self.local_op(e, &[&i.test, &i.body, &i.orelse], expected)
            }
            Expr::Lambda(_)
            | Expr::ListComp(_)
            | Expr::SetComp(_)
            | Expr::DictComp(_)
            | Expr::Generator(_) => self.closure(e, expected),
            Expr::Yield(_) | Expr::YieldFrom(_) | Expr::Await(_) => {
                self.err(
                    e.range(),
                    E_UNSUP,
                    "`yield` and `await` are not supported in a choreography".to_owned(),
                    "write plain statements",
                );
                Loc::Unknown
            }
            Expr::Named(n) => {
                self.err(
                    n.range,
                    E_UNSUP,
                    "assignment expressions (`:=`) are not supported in a choreography".to_owned(),
                    "assign in a statement first",
                );
                Loc::Unknown
            }
            Expr::Starred(s) => {
                let l = self.expr(&s.value, None);
                self.lift(e, &[&s.value]);
                l
            }
            _ => {
                let kids = children(e);
                self.hint
                    .push(expected.filter(|l| matches!(l, Loc::At(_))).cloned());
                for k in &kids {
                    self.expr(k, None);
                }
                self.hint.pop();
                self.local_op(e, &kids, expected)
            }
        }
    }

    /// A lambda or comprehension: located by the role of the variables it uses.
    fn closure(&mut self, e: &Expr, expected: Option<&Loc>) -> Loc {
        let mut names = Vec::new();
        collect_loads(e, &mut names);
        let mut roles = BTreeSet::new();
        for n in &names {
            if let Some(l) = self.scope.get(n) {
                match l {
                    Loc::At(r) => {
                        roles.insert(r.clone());
                    }
                    Loc::Every | Loc::Unknown => {}
                    _ => {
                        roles.insert(String::new());
                    }
                }
            }
        }
        if contains_comm(e) {
            self.err(
                e.range(),
                E_SHORT,
                "communication inside a lambda or comprehension".to_owned(),
                "Python evaluates it lazily or repeatedly; use a `for` loop",
            );
            return Loc::Unknown;
        }
        if roles.len() > 1 || roles.contains("") {
            self.err(
                e.range(),
                E_UNSUP,
                "a lambda or comprehension over values of several roles".to_owned(),
                "compute each role's part separately, or communicate the values first",
            );
            return Loc::Unknown;
        }
        match roles.into_iter().next() {
            Some(r) => {
                self.direct.insert(r.clone());
                Loc::At(r)
            }
            None => match expected {
                Some(Loc::At(r)) => Loc::At(r.clone()),
                _ => Loc::Every,
            },
        }
    }

    /// Combine the locations of a local operation's operands.
    fn local_op(&mut self, e: &Expr, kids: &[&Expr], expected: Option<&Loc>) -> Loc {
        self.lift(e, kids);
        let mut roles: Vec<(String, TextRange)> = Vec::new();
        let mut bad = false;
        for k in kids {
            match self.facts.loc(k) {
                Loc::At(r) => {
                    if !roles.iter().any(|(x, _)| *x == r) {
                        roles.push((r, k.range()));
                    }
                }
                Loc::Every | Loc::NoValue => {}
                Loc::Unknown => bad = true,
                other @ (Loc::Obj(..) | Loc::Chan { .. }) => {
                    // `self` as the receiver of a local call is fine only in attribute chains.
                    self.err(
                        k.range(),
                        E_LOC,
                        format!(
                            "a choreographic value ({other}) cannot be used in a local operation"
                        ),
                        "use its fields, which live at single roles",
                    );
                    bad = true;
                }
            }
        }
        if bad {
            return Loc::Unknown;
        }
        match roles.len() {
            0 => {
                let pure = match e {
                    Expr::Call(c) => match &*c.func {
                        Expr::Name(n) => {
                            PURE_BUILTINS.contains(&n.id.as_str())
                                || self.d.enums.contains_key(n.id.as_str())
                        }
                        _ => false,
                    },
                    _ => true,
                };
                if pure {
                    return Loc::Every;
                }
                let hint = self.hint.last().cloned().flatten();
                match expected.or(hint.as_ref()) {
                    Some(Loc::At(r)) => Loc::At(r.clone()),
                    // `raise`/`assert` decide their role themselves (from the enclosing branch).
                    Some(Loc::NoValue) => Loc::Every,
                    _ => {
                        self.err(
                            e.range(),
                            E_INFER,
                            format!("cannot tell which role runs `{}`", crate::short(e)),
                            format!(
                                "locate a value with `@`, e.g. `{} @ {}`, or annotate the target",
                                first_arg_text(e),
                                self.class.roles.first().map_or("R", |s| s)
                            ),
                        );
                        Loc::Unknown
                    }
                }
            }
            1 => {
                let r = roles.pop().expect("one").0;
                self.direct.insert(r.clone());
                Loc::At(r)
            }
            _ => {
                let list: Vec<String> = roles.iter().map(|(r, _)| format!("`{r}`")).collect();
                self.err(
                    e.range(),
                    E_MIX,
                    format!(
                        "`{}` mixes values located at different roles ({})",
                        crate::short(e),
                        list.join(" and ")
                    ),
                    "a local operation runs at one role; move the other values there first with `ch.com(...)`",
                );
                Loc::Unknown
            }
        }
    }

    fn call(&mut self, e: &Expr, call: &ast::ExprCall, expected: Option<&Loc>) -> Loc {
        let args = &call.arguments;
        if let Expr::Attribute(a) = &*call.func {
            let attr = a.attr.as_str();
            // Channel.open("name")
            if matches!(name_of(&a.value), Some("Channel" | "DiChannel")) && attr == "open" {
                return self.open(e, call, expected);
            }
            // C[R...].m(...)
            if let Expr::Subscript(s) = &*a.value
                && let Some(cname) = name_of(&s.value)
                && let Some(class) = self.d.class(cname)
            {
                let Some(roles) = role_args(class, &s.slice, &self.class.roles, self.d, self.out)
                else {
                    self.visit_args(call);
                    return Loc::Unknown;
                };
                return self.chor_call(e, call, cname, attr, roles, Target::Static);
            }
            // C.m(...) with the caller's roles
            if let Some(cname) = name_of(&a.value)
                && let Some(class) = self.d.class(cname)
            {
                if class.roles.len() != self.class.roles.len() {
                    self.err(
                        a.value.range(),
                        E_ROLE,
                        format!(
                            "`{cname}` takes {} roles; name them: `{cname}[...].{attr}(...)`",
                            class.roles.len()
                        ),
                        "`C.m(...)` without roles passes the caller's roles in order",
                    );
                    return Loc::Unknown;
                }
                let roles = self.class.roles.clone();
                return self.chor_call(e, call, cname, attr, roles, Target::Static);
            }
            let base = self.expr(&a.value, None);
            match base {
                Loc::Chan { a: ca, b: cb, di } if attr == "com" => {
                    return self.com(e, call, &a.value, (ca, cb, di), expected);
                }
                Loc::Chan { .. } if attr == "select" => {
                    self.err(
                        e.range(),
                        E_CHAN,
                        "`select` used as a value".to_owned(),
                        "a selection is a statement of its own: `ch.select(Enum.LABEL @ R)`",
                    );
                    self.visit_args(call);
                    return Loc::Unknown;
                }
                Loc::Obj(c, rs) if self.d.class(&c).is_some_and(|k| k.method(attr).is_some()) => {
                    let target = if name_of(&a.value) == Some("self") {
                        Target::SelfM
                    } else {
                        Target::Obj(a.value.range())
                    };
                    return self.chor_call(e, call, &c, attr, rs, target);
                }
                _ => {}
            }
            // A method call on a local value: the receiver is an operand.
            self.record(&call.func, base);
            self.lift(&call.func, &[&a.value]);
        } else if let Expr::Subscript(s) = &*call.func
            && let Some(cname) = name_of(&s.value)
            && let Some(class) = self.d.class(cname)
        {
            // C[R...](args): a constructor
            let Some(roles) = role_args(class, &s.slice, &self.class.roles, self.d, self.out)
            else {
                self.visit_args(call);
                return Loc::Unknown;
            };
            return self.ctor(e, call, cname, roles);
        } else if let Some(n) = name_of(&call.func)
            && self.d.class(n).is_some()
        {
            self.err(
                call.func.range(),
                E_ROLE,
                format!("role class `{n}` instantiated without roles"),
                format!("write `{n}[R1, ...](...)` with one role per role parameter"),
            );
            self.visit_args(call);
            return Loc::Unknown;
        } else {
            self.expr(&call.func, None);
        }
        // A local call; role-free arguments of a call located at R are computed at R.
        self.hint
            .push(expected.filter(|l| matches!(l, Loc::At(_))).cloned());
        let mut kids: Vec<&Expr> = vec![&call.func];
        for a in args.args.iter() {
            self.expr(a, None);
            kids.push(a);
        }
        for k in args.keywords.iter() {
            self.expr(&k.value, None);
            kids.push(&k.value);
        }
        self.hint.pop();
        self.local_op(e, &kids, expected)
    }

    fn visit_args(&mut self, call: &ast::ExprCall) {
        for a in call.arguments.args.iter() {
            self.expr(a, None);
        }
        for k in call.arguments.keywords.iter() {
            self.expr(&k.value, None);
        }
    }

    fn open(&mut self, e: &Expr, call: &ast::ExprCall, expected: Option<&Loc>) -> Loc {
        if !self.method.is_entry {
            self.err(
                e.range(),
                E_CHAN,
                "`Channel.open` outside an `@entry` method".to_owned(),
                "open channels in the entry method and pass them to choreographies",
            );
            return Loc::Unknown;
        }
        let name = match call.arguments.args.first() {
            Some(Expr::StringLiteral(s)) if call.arguments.len() == 1 => {
                s.value.to_str().to_owned()
            }
            _ => {
                self.err(
                    e.range(),
                    E_CHAN,
                    "`Channel.open` takes one string literal, the channel's name".to_owned(),
                    "e.g. `Channel.open(\"ab\")`",
                );
                return Loc::Unknown;
            }
        };
        match expected {
            Some(Loc::Chan { a, b, di }) => {
                self.special(
                    e,
                    Special::Open {
                        name,
                        a: a.clone(),
                        b: b.clone(),
                    },
                );
                self.direct.insert(a.clone());
                self.direct.insert(b.clone());
                Loc::Chan {
                    a: a.clone(),
                    b: b.clone(),
                    di: *di,
                }
            }
            _ => {
                self.err(
                    e.range(),
                    E_CHAN,
                    "`Channel.open` needs an annotated target naming its two roles".to_owned(),
                    "write `ch: Channel[object, A, B] = Channel.open(\"ab\")`",
                );
                Loc::Unknown
            }
        }
    }

    fn com(
        &mut self,
        e: &Expr,
        call: &ast::ExprCall,
        chan: &Expr,
        (a, b, di): (String, String, bool),
        expected: Option<&Loc>,
    ) -> Loc {
        let args = &call.arguments;
        if args.args.len() != 1 || !args.keywords.is_empty() {
            self.err(
                e.range(),
                E_CHAN,
                "`com` takes exactly one positional argument, the value to send".to_owned(),
                "write `ch.com(value)`",
            );
            self.visit_args(call);
            return Loc::Unknown;
        }
        let arg = &args.args[0];
        self.hint.push(None);
        let l = self.expr(arg, None);
        self.hint.pop();
        let chan_text = crate::short(chan);
        let sender = match l {
            Loc::At(s) if s == a || s == b => s,
            Loc::At(s) => {
                self.err(
                    arg.range(),
                    E_CHAN,
                    format!(
                        "`{}` is at {s}, but channel `{chan_text}` connects {a} and {b}",
                        crate::short(arg)
                    ),
                    format!(
                        "send it over a channel with an end at {s}, or move it to {a} or {b} first"
                    ),
                );
                return Loc::Unknown;
            }
            Loc::Every => match expected {
                Some(Loc::At(t)) if *t == a || *t == b => {
                    if *t == a {
                        b.clone()
                    } else {
                        a.clone()
                    }
                }
                _ if di => a.clone(),
                _ => {
                    self.err(
                        arg.range(),
                        E_INFER,
                        format!(
                            "cannot tell which end of `{chan_text}` sends `{}`",
                            crate::short(arg)
                        ),
                        format!("locate the value: `{} @ {a}`", crate::short(arg)),
                    );
                    return Loc::Unknown;
                }
            },
            Loc::Unknown => return Loc::Unknown,
            other => {
                self.err(
                    arg.range(),
                    E_CHAN,
                    format!("only data can be sent, not a choreographic value ({other})"),
                    "send the fields you need",
                );
                return Loc::Unknown;
            }
        };
        if di && sender != a {
            self.err(
                e.range(),
                E_CHAN,
                format!("`{chan_text}` is a DiChannel from {a} to {b}; {sender} cannot send on it"),
                "use a `Channel` (both directions) or a second DiChannel",
            );
            return Loc::Unknown;
        }
        let receiver = if sender == a { b.clone() } else { a.clone() };
        self.direct.insert(a.clone());
        self.direct.insert(b.clone());
        self.special(
            e,
            Special::Com {
                chan: chan.range(),
                arg: arg.range(),
                sender,
                receiver: receiver.clone(),
            },
        );
        Loc::At(receiver)
    }

    /// `ch.select(E.L @ R)` as a statement.
    fn select(&mut self, e: &Expr, call: &ast::ExprCall, chan: &Expr) {
        let base = self.expr(chan, None);
        let Loc::Chan { a, b, di } = base else {
            if base != Loc::Unknown {
                self.err(
                    chan.range(),
                    E_CHAN,
                    format!("`{}` is not a channel", crate::short(chan)),
                    "selections are sent over `Channel`/`DiChannel` values",
                );
            }
            return;
        };
        let args = &call.arguments;
        if args.args.len() != 1 || !args.keywords.is_empty() {
            self.err(
                e.range(),
                E_CHAN,
                "`select` takes one label: `ch.select(Enum.LABEL @ R)`".to_owned(),
                "R is the role that made the choice",
            );
            return;
        }
        let arg = &args.args[0];
        let (label, sender) = match arg {
            Expr::BinOp(bo) if bo.op == Operator::MatMult => {
                let r = match &*bo.right {
                    Expr::Call(c) => &*c.func,
                    r => r,
                };
                (&*bo.left, role_arg(r, &self.class.roles, self.d, self.out))
            }
            other if di => (other, Some(a.clone())),
            other => (other, None),
        };
        let label_ok = match label {
            Expr::Attribute(la) => name_of(&la.value)
                .and_then(|en| self.d.enums.get(en))
                .is_some_and(|ms| ms.iter().any(|m| m == la.attr.as_str())),
            _ => false,
        };
        if !label_ok {
            self.err(
                label.range(),
                E_CHAN,
                format!(
                    "`{}` is not a member of an Enum declared in this module",
                    crate::short(label)
                ),
                "labels are enum members, e.g. `class Choice(Enum): GO = \"GO\"` and `Choice.GO`",
            );
            return;
        }
        let Some(sender) = sender else {
            self.err(
                arg.range(),
                E_INFER,
                "cannot tell which role sends this selection".to_owned(),
                format!(
                    "write `{} @ {a}` (the role that made the choice)",
                    crate::short(label)
                ),
            );
            return;
        };
        if sender != a && sender != b {
            self.err(
                arg.range(),
                E_CHAN,
                format!(
                    "{sender} selects on `{}`, which connects {a} and {b}",
                    crate::short(chan)
                ),
                format!("use a channel between {sender} and the role to inform"),
            );
            return;
        }
        if di && sender != a {
            self.err(
                e.range(),
                E_CHAN,
                format!(
                    "`{}` is a DiChannel from {a} to {b}; {sender} cannot select on it",
                    crate::short(chan)
                ),
                "use a `Channel` (both directions)",
            );
            return;
        }
        let receiver = if sender == a { b.clone() } else { a.clone() };
        self.direct.insert(a.clone());
        self.direct.insert(b.clone());
        self.special(
            e,
            Special::Select {
                chan: chan.range(),
                label: crate::short(label),
                sender,
                receiver,
            },
        );
        self.record(e, Loc::NoValue);
    }

    fn check_args(
        &mut self,
        call: &ast::ExprCall,
        class: &ClassDecl,
        what: &str,
        params: &[crate::decls::Param],
        roles: &[String],
    ) {
        let args = &call.arguments;
        if !args.keywords.is_empty() || args.args.iter().any(|a| a.is_starred_expr()) {
            self.err(
                call.range(),
                E_UNSUP,
                format!("keyword or starred arguments in a choreographic call (`{what}`)"),
                "pass arguments positionally, one per parameter",
            );
            self.visit_args(call);
            return;
        }
        if args.args.len() != params.len() {
            self.err(
                call.range(),
                E_LOC,
                format!(
                    "`{what}` takes {} arguments, found {}",
                    params.len(),
                    args.args.len()
                ),
                "pass one located value per parameter",
            );
            self.visit_args(call);
            return;
        }
        for (a, p) in args.args.iter().zip(params) {
            let want = p.loc.subst(&|r| actual_role(class, roles, r));
            self.hint.push(None);
            let got = self.expr(a, Some(&want));
            self.hint.pop();
            if !want.accepts(&got) {
                self.err(
                    a.range(),
                    E_LOC,
                    format!(
                        "argument `{}` of `{what}` must be at {want}, found {got}",
                        p.name
                    ),
                    if matches!(want, Loc::At(_)) {
                        format!("move the value to {want} with `ch.com(...)` first")
                    } else {
                        "pass a value with the parameter's location".to_owned()
                    },
                );
            }
        }
    }

    fn chor_call(
        &mut self,
        e: &Expr,
        call: &ast::ExprCall,
        cname: &str,
        mname: &str,
        roles: Vec<String>,
        target: Target,
    ) -> Loc {
        let d = self.d;
        let Some(class) = d.class(cname) else {
            return Loc::Unknown;
        };
        let Some(m) = class.method(mname) else {
            self.err(
                e.range(),
                E_LOC,
                format!("`{cname}` has no method `{mname}`"),
                "choreographic calls name a method of the role class",
            );
            self.visit_args(call);
            return Loc::Unknown;
        };
        if matches!(target, Target::Static) && !m.is_static {
            self.err(
                e.range(),
                E_UNSUP,
                format!("`{cname}.{mname}` is an instance method"),
                format!("create an object first: `{cname}[...](...).{mname}(...)`"),
            );
        }
        if let (Target::Obj(_), Expr::Attribute(a)) = (&target, &*call.func) {
            self.lift(&call.func, &[&a.value]);
        }
        let what = format!("{cname}.{mname}");
        self.check_args(call, class, &what, &m.params, &roles);
        let mut kids: Vec<&Expr> = call.arguments.args.iter().collect();
        kids.push(&call.func);
        self.lift(e, &kids);
        self.special(
            e,
            Special::Call {
                class: cname.to_owned(),
                method: mname.to_owned(),
                roles: roles.clone(),
                target,
            },
        );
        self.calls
            .push((cname.to_owned(), mname.to_owned(), roles.clone()));
        m.ret.subst(&|r| actual_role(class, &roles, r))
    }

    fn ctor(&mut self, e: &Expr, call: &ast::ExprCall, cname: &str, roles: Vec<String>) -> Loc {
        let d = self.d;
        let class = d.class(cname).expect("checked");
        let params: &[crate::decls::Param] = class.method("__init__").map_or(&[], |m| &m.params);
        self.check_args(call, class, &format!("{cname}[...]"), params, &roles);
        let kids: Vec<&Expr> = call.arguments.args.iter().collect();
        self.lift(e, &kids);
        self.special(
            e,
            Special::Ctor {
                class: cname.to_owned(),
                roles: roles.clone(),
            },
        );
        if class.method("__init__").is_some() {
            self.calls
                .push((cname.to_owned(), "__init__".to_owned(), roles.clone()));
        }
        self.direct.extend(roles.iter().cloned());
        Loc::Obj(cname.to_owned(), roles)
    }

    // ----- statements ------------------------------------------------------------------------

    fn block(&mut self, body: &[Stmt]) {
        for s in body {
            self.stmt(s);
        }
    }

    fn declare(&mut self, target: &Expr, loc: Loc) {
        if let Some(n) = name_of(target) {
            self.scope.insert(n.to_owned(), loc.clone());
        }
        self.facts.targets.insert(key(target.range()), loc);
    }

    fn target_loc(&mut self, t: &Expr) -> Option<Loc> {
        match t {
            Expr::Name(n) => self.scope.get(n.id.as_str()).cloned(),
            Expr::Attribute(a) if name_of(&a.value) == Some("self") && !self.method.is_static => {
                match self.class.field(a.attr.as_str()) {
                    Some(l) => Some(l.clone()),
                    None => {
                        self.err(
                            t.range(),
                            E_LOC,
                            format!("`{}` has no field `{}`", self.class.name, a.attr),
                            "declare fields in `__init__`",
                        );
                        Some(Loc::Unknown)
                    }
                }
            }
            _ => None,
        }
    }

    fn stmt(&mut self, s: &Stmt) {
        match s {
            Stmt::Expr(x) => {
                if let Expr::Call(c) = &*x.value
                    && let Expr::Attribute(a) = &*c.func
                    && a.attr.as_str() == "select"
                    && matches!(self.peek_loc(&a.value), Some(Loc::Chan { .. }))
                {
                    self.select(&x.value, c, &a.value);
                    return;
                }
                self.expr(&x.value, None);
            }
            Stmt::AnnAssign(a) => {
                let want =
                    crate::decls::parse_loc(&a.annotation, &self.class.roles, self.d, self.out);
                if let Some(v) = &a.value {
                    let got = self.expr(v, Some(&want));
                    self.assign_check(v, &want, &got, &a.target);
                }
                if self.has_special(&a.target) || contains_comm(&a.target) {
                    self.short_target(&a.target);
                }
                if matches!(&*a.target, Expr::Attribute(_)) && self.target_loc(&a.target).is_none()
                {
                    self.err(
                        a.target.range(),
                        E_UNSUP,
                        "annotated assignment to an attribute of a local value".to_owned(),
                        "annotate plain names or `self` fields",
                    );
                }
                for r in want.roles() {
                    self.direct.insert(r.to_owned());
                }
                self.declare(&a.target, want);
            }
            Stmt::Assign(a) => {
                if a.targets.len() != 1 {
                    self.err(
                        a.range,
                        E_UNSUP,
                        "chained assignment (`a = b = ...`) in a choreography".to_owned(),
                        "assign one target per statement",
                    );
                    return;
                }
                let t = &a.targets[0];
                if contains_comm(t) {
                    self.short_target(t);
                    return;
                }
                match self.target_loc(t) {
                    Some(want) => {
                        let got = self.expr(&a.value, Some(&want));
                        self.assign_check(&a.value, &want, &got, t);
                        self.facts.targets.insert(key(t.range()), want);
                    }
                    None => {
                        let got = self.expr(&a.value, None);
                        match t {
                            Expr::Name(_) => {
                                if got == Loc::NoValue {
                                    self.err(
                                        a.value.range(),
                                        E_LOC,
                                        format!("`{}` has no value", crate::short(&a.value)),
                                        "the method returns None",
                                    );
                                }
                                self.declare(t, got);
                            }
                            Expr::Tuple(_) | Expr::List(_) => {
                                let mut names = Vec::new();
                                collect_stores(t, &mut names);
                                for n in names {
                                    let l = match self.scope.get(&n).cloned() {
                                        Some(l) if !l.accepts(&got) => {
                                            self.err(
                                                a.value.range(),
                                                E_LOC,
                                                format!(
                                                    "`{n}` is at {l}, but the value is at {got}"
                                                ),
                                                "unpack into variables at the value's role",
                                            );
                                            l
                                        }
                                        _ => got.clone(),
                                    };
                                    self.scope.insert(n, l);
                                }
                                self.facts.targets.insert(key(t.range()), got);
                            }
                            _ => {
                                let tl = self.expr(t, None);
                                self.local_assign(s, &tl, &got);
                            }
                        }
                    }
                }
            }
            Stmt::AugAssign(a) => {
                let tl = self.expr(&a.target, None);
                let got = self.expr(&a.value, None);
                if contains_comm(&a.target) {
                    self.short_target(&a.target);
                }
                self.local_assign(s, &tl, &got);
            }
            Stmt::Return(r) => {
                let want = self.method.ret.clone();
                match &r.value {
                    None => {
                        if !matches!(want, Loc::NoValue | Loc::Unknown) {
                            self.err(
                                r.range,
                                E_LOC,
                                format!("`return` without a value in a method returning {want}"),
                                "return a value with the declared location",
                            );
                        }
                    }
                    Some(v) => {
                        let got = self.expr(v, Some(&want));
                        if !want.accepts(&got) {
                            self.err(
                                v.range(),
                                E_LOC,
                                format!("the method returns {want}, but this value is at {got}"),
                                "move the value to the declared role first, or change the return annotation",
                            );
                        }
                    }
                }
            }
            Stmt::If(i) => {
                self.cond(&i.test);
                let role = self.cond_role(&i.test);
                self.ctx_role.extend(role.clone());
                self.block(&i.body);
                for c in &i.elif_else_clauses {
                    if let Some(t) = &c.test {
                        self.cond(t);
                    }
                    self.block(&c.body);
                }
                if role.is_some() {
                    self.ctx_role.pop();
                }
            }
            Stmt::While(w) => {
                self.cond(&w.test);
                let role = self.cond_role(&w.test);
                self.ctx_role.extend(role.clone());
                self.block(&w.body);
                self.block(&w.orelse);
                if role.is_some() {
                    self.ctx_role.pop();
                }
            }
            Stmt::For(f) => {
                if f.is_async {
                    self.err(
                        f.range,
                        E_UNSUP,
                        "`async for` in a choreography".to_owned(),
                        "use `for`",
                    );
                    return;
                }
                let it = self.expr(&f.iter, None);
                if self.has_special(&f.iter) {
                    self.err(
                        f.iter.range(),
                        E_SHORT,
                        "communication in a `for` header".to_owned(),
                        "receive the values into a variable before the loop",
                    );
                }
                let l = match it {
                    Loc::Every => Loc::Every,
                    Loc::At(r) => Loc::At(r),
                    Loc::Unknown => Loc::Unknown,
                    other => {
                        self.err(
                            f.iter.range(),
                            E_LOC,
                            format!("cannot iterate over a choreographic value ({other})"),
                            "iterate over a role-free value (every role loops) or a value at one role",
                        );
                        Loc::Unknown
                    }
                };
                let mut names = Vec::new();
                collect_stores(&f.target, &mut names);
                for n in names {
                    self.scope.insert(n, l.clone());
                }
                self.facts.targets.insert(key(f.target.range()), l.clone());
                if let Loc::At(r) = &l {
                    self.ctx_role.push(r.clone());
                }
                self.block(&f.body);
                self.block(&f.orelse);
                if let Loc::At(_) = &l {
                    self.ctx_role.pop();
                }
            }
            Stmt::Pass(_) => {}
            Stmt::Break(_) | Stmt::Continue(_) => {
                self.err(
                    s.range(),
                    E_UNSUP,
                    "`break`/`continue` in a choreographic loop".to_owned(),
                    "end the loop through its condition (and a selection, in a `while`)",
                );
            }
            Stmt::Raise(_) | Stmt::Assert(_) => {
                let exprs: Vec<&Expr> = match s {
                    Stmt::Raise(r) => r.exc.iter().chain(r.cause.iter()).map(|b| &**b).collect(),
                    Stmt::Assert(a) => std::iter::once(&*a.test)
                        .chain(a.msg.iter().map(|b| &**b))
                        .collect(),
                    _ => unreachable!(),
                };
                let ctx = self.ctx_role.last().cloned().map(Loc::At);
                let mut roles = BTreeSet::new();
                for x in &exprs {
                    match self.expr(x, ctx.as_ref().or(Some(&Loc::NoValue))) {
                        Loc::At(r) => {
                            roles.insert(r);
                        }
                        Loc::Every | Loc::NoValue | Loc::Unknown => {}
                        other => {
                            self.err(
                                x.range(),
                                E_LOC,
                                format!("a choreographic value ({other}) here"),
                                "use a field",
                            );
                        }
                    }
                    if self.has_special(x) {
                        self.err(
                            x.range(),
                            E_UNSUP,
                            "communication inside `raise`/`assert`".to_owned(),
                            "receive the value into a variable first",
                        );
                    }
                }
                let role = match roles.len() {
                    0 => self.ctx_role.last().cloned(),
                    1 => roles.into_iter().next(),
                    _ => {
                        self.err(
                            s.range(),
                            E_MIX,
                            "`raise`/`assert` over values of several roles".to_owned(),
                            "a raise or assert runs at one role",
                        );
                        return;
                    }
                };
                match role {
                    Some(r) => {
                        self.direct.insert(r.clone());
                        self.facts.stmt_roles.insert(key(s.range()), r);
                    }
                    None => self.err(
                        s.range(),
                        E_INFER,
                        "cannot tell which role runs this statement".to_owned(),
                        "put it in a branch of an `if` at that role, or use a located value",
                    ),
                }
            }
            Stmt::Try(_) | Stmt::Match(_) => self.local_compound(s),
            Stmt::FunctionDef(_) | Stmt::ClassDef(_) => self.err(
                s.range(),
                E_UNSUP,
                "nested functions and classes are not supported in a choreography".to_owned(),
                "define helpers at module level; they are role-free and run where they are called",
            ),
            Stmt::With(_) => self.err(
                s.range(),
                E_UNSUP,
                "`with` is not supported in a choreography".to_owned(),
                "move the resource handling into a module-level helper function",
            ),
            Stmt::Global(_) | Stmt::Nonlocal(_) => self.err(
                s.range(),
                E_UNSUP,
                "`global`/`nonlocal` in a choreography".to_owned(),
                "roles do not share module state in TCP mode; keep state in located variables",
            ),
            _ => self.err(
                s.range(),
                E_UNSUP,
                "this statement is not supported in a choreography".to_owned(),
                "use assignments, calls, `if`, `while`, `for`, `return`, `raise`, `assert`",
            ),
        }
    }

    /// `try` or source-level `match`: allowed when entirely local to one role.
    fn local_compound(&mut self, s: &Stmt) {
        if contains_comm_stmt(s, self.d) {
            self.err(
                s.range(),
                E_UNSUP,
                "communication or choreographic calls inside `try`/`match`".to_owned(),
                "keep `try` and `match` local to one role; communicate before or after",
            );
            return;
        }
        let mut names = Vec::new();
        collect_loads_stmt(s, &mut names);
        let mut roles = BTreeSet::new();
        for n in &names {
            match self.scope.get(n) {
                Some(Loc::At(r)) => {
                    roles.insert(r.clone());
                }
                Some(Loc::Every | Loc::Unknown | Loc::NoValue) | None => {}
                Some(_) => {
                    roles.insert(String::new());
                }
            }
        }
        if roles.contains("") || roles.len() > 1 {
            self.err(
                s.range(),
                E_MIX,
                "`try`/`match` over values of several roles".to_owned(),
                "these statements are copied to one role; use values of that role only",
            );
            return;
        }
        let role = roles
            .into_iter()
            .next()
            .or_else(|| self.ctx_role.last().cloned());
        let Some(role) = role else {
            self.err(
                s.range(),
                E_INFER,
                "cannot tell which role runs this statement".to_owned(),
                "use a located value in it, or put it in a branch of an `if` at that role",
            );
            return;
        };
        let mut stores = Vec::new();
        collect_stores_stmt(s, &mut stores);
        for n in stores {
            self.scope.insert(n, Loc::At(role.clone()));
        }
        self.direct.insert(role.clone());
        self.facts.local_stmts.insert(key(s.range()), role);
    }

    fn peek_loc(&mut self, e: &Expr) -> Option<Loc> {
        match e {
            Expr::Name(n) => self.scope.get(n.id.as_str()).cloned(),
            Expr::Attribute(a) if name_of(&a.value) == Some("self") && !self.method.is_static => {
                self.class.field(a.attr.as_str()).cloned()
            }
            Expr::Attribute(a) => match self.peek_loc(&a.value)? {
                Loc::Obj(c, rs) => {
                    let class = self.d.class(&c)?;
                    class
                        .field(a.attr.as_str())
                        .map(|l| l.subst(&|r| actual_role(class, &rs, r)))
                }
                _ => None,
            },
            _ => None,
        }
    }

    fn short_target(&mut self, t: &Expr) {
        self.err(
            t.range(),
            E_SHORT,
            "communication in an assignment target".to_owned(),
            "Python evaluates targets after the value; receive into a variable first",
        );
    }

    fn assign_check(&mut self, v: &Expr, want: &Loc, got: &Loc, target: &Expr) {
        if !want.accepts(got) {
            self.err(
                v.range(),
                E_LOC,
                format!(
                    "`{}` is declared at {want}, but the value is at {got}",
                    crate::short(target)
                ),
                match (want, got) {
                    (Loc::At(w), Loc::At(g)) => {
                        format!("send it: `ch.com(...)` over a channel between {g} and {w}")
                    }
                    _ => "give the target the value's location".to_owned(),
                },
            );
        }
    }

    /// `d[k] = v`, `x.a = v`, `x += v`: all at the target's role.
    fn local_assign(&mut self, s: &Stmt, tl: &Loc, got: &Loc) {
        match (tl, got) {
            (Loc::Unknown, _) | (_, Loc::Unknown) => {}
            (Loc::At(t), Loc::At(g)) if t != g => self.err(
                s.range(),
                E_MIX,
                format!("assignment to a value at {t} from a value at {g}"),
                format!("send the value to {t} first"),
            ),
            (Loc::At(t), _) => {
                self.direct.insert(t.clone());
            }
            (Loc::Every, Loc::Every) => {}
            (Loc::Every, Loc::At(g)) => self.err(
                s.range(),
                E_LOC,
                format!("a role-free variable is updated with a value at {g}"),
                format!("declare the variable at {g}: `x: At[T, {g}] = ...`"),
            ),
            (t, _) => self.err(
                s.range(),
                E_LOC,
                format!("cannot assign into a choreographic value ({t})"),
                "assign its fields in `__init__`",
            ),
        }
    }

    fn cond(&mut self, test: &Expr) {
        let l = self.expr(test, None);
        match l {
            Loc::Every | Loc::At(_) | Loc::Unknown => {}
            other => self.err(
                test.range(),
                E_COND,
                format!("a condition must be at one role (or role-free), this one is {other}"),
                "compute a boolean at one role and let it inform the others with `select`",
            ),
        }
    }

    fn cond_role(&self, test: &Expr) -> Option<String> {
        match self.facts.loc(test) {
            Loc::At(r) => Some(r),
            _ => None,
        }
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
