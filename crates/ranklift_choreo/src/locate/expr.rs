//! Locating expressions: names, attributes, operators, local calls, `e @ R`, closures.

use ruff_python_ast::{self as ast, Expr, Operator};
use ruff_text_size::{Ranged, TextRange};

use super::*;
use crate::codes::*;
use crate::decls::{role_arg, role_args};
use crate::loc::Loc;

impl Cx<'_, '_> {
    // ----- expressions -------------------------------------------------------------------

    /// Locate `e`; `expected` is the location the context wants (annotation, parameter, return).
    pub(super) fn expr(&mut self, e: &Expr, expected: Option<&Loc>) -> Loc {
        let loc = self.expr_inner(e, expected);
        // A role-free value used where one role's value is expected is located there.
        let loc = match (&loc, expected) {
            (Loc::Every, Some(Loc::At(r))) => Loc::At(r.clone()),
            _ => loc,
        };
        self.record(e, loc)
    }

    pub(super) fn expr_inner(&mut self, e: &Expr, expected: Option<&Loc>) -> Loc {
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
                let hint = self.operand_hint(expected, &vals);
                self.hint.push(hint);
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
                self.hint.pop();
                self.local_op(e, &vals, expected)
            }
            Expr::If(i) => {
                let hint = self.operand_hint(expected, &[&i.test, &i.body, &i.orelse]);
                self.hint.push(hint);
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
                self.hint.pop();
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
                let hint = self.operand_hint(expected, &kids);
                self.hint.push(hint);
                for k in &kids {
                    self.expr(k, None);
                }
                self.hint.pop();
                self.local_op(e, &kids, expected)
            }
        }
    }

    /// A lambda or comprehension: located by the role of the variables it uses.
    pub(super) fn closure(&mut self, e: &Expr, expected: Option<&Loc>) -> Loc {
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
    pub(super) fn local_op(&mut self, e: &Expr, kids: &[&Expr], expected: Option<&Loc>) -> Loc {
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

    pub(super) fn call(&mut self, e: &Expr, call: &ast::ExprCall, expected: Option<&Loc>) -> Loc {
        let args = &call.arguments;
        if let Expr::Attribute(a) = &*call.func {
            let attr = a.attr.as_str();
            // Channel.open("name")
            if matches!(name_of(&a.value), Some("Channel" | "DiChannel")) && attr == "open" {
                return self.open(e, call, expected);
            }
            // C[R...].m(...)
            if let Some((cname, roles)) = self.instance(&a.value) {
                let Some(roles) = roles else {
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
            // The receiver of a local method call is an operand like the arguments:
            // `str(count(DOCS)).zfill(r)` computes `count` where `r` is.
            let mut operands: Vec<&Expr> = vec![&a.value];
            operands.extend(args.args.iter());
            operands.extend(args.keywords.iter().map(|k| &k.value));
            let hint = self.operand_hint(expected, &operands);
            self.hint.push(hint);
            let base = self.expr(&a.value, None);
            self.hint.pop();
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
            if let Loc::Obj(c, _) = &base
                && self
                    .d
                    .class(c)
                    .is_some_and(|k| k.fields.iter().any(|(f, _)| f == attr))
            {
                // `self.f(x)`: a field holding a callable, called where the field lives.
                self.expr(&call.func, None);
            } else {
                // A method call on a local value: the receiver is an operand.
                self.record(&call.func, base);
                self.lift(&call.func, &[&a.value]);
            }
        } else if let Some((cname, roles)) = self.instance(&call.func) {
            // C[R...](args): a constructor
            let Some(roles) = roles else {
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
        // A local call; role-free arguments of a call located at R are computed at R (also when
        // R comes from an enclosing expression: `r == combine(run(docs), Result({}, 0))`, or
        // from its located arguments or receiver: `max(r, count(DOCS))`).
        let mut operands: Vec<&Expr> = vec![&call.func];
        operands.extend(args.args.iter());
        operands.extend(args.keywords.iter().map(|k| &k.value));
        let hint = self.operand_hint(expected, &operands);
        self.hint.push(hint);
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

    /// The role the role-free operands of a local operation (`==`, `+`, `and`, `x[i]`, an
    /// f-string, `a if c else b`) are computed at: the expected or enclosing one, else the one
    /// role its located operands are at (`r == count(DOCS)` with `r` at `A` counts at `A`).
    fn operand_hint(&self, expected: Option<&Loc>, kids: &[&Expr]) -> Option<Loc> {
        self.inherited_hint(expected).or_else(|| {
            let mut roles = BTreeSet::new();
            for k in kids {
                self.peek_roles(k, &mut roles);
            }
            (roles.len() == 1).then(|| Loc::At(roles.into_iter().next().expect("one")))
        })
    }

    /// The roles `e`'s located parts are at, read without locating (nothing recorded or
    /// reported): names in scope, `self.field`, `v @ R`, through local operations and the
    /// arguments of calls. A choreographic value or an unknown one adds nothing.
    pub(super) fn peek_roles(&self, e: &Expr, out: &mut BTreeSet<String>) {
        match e {
            Expr::Name(n) => {
                if let Some(Loc::At(r)) = self.scope.get(n.id.as_str()) {
                    out.insert(r.clone());
                }
            }
            Expr::Attribute(a) => {
                if matches!(&*a.value, Expr::Name(n) if n.id.as_str() == "self")
                    && !self.method.is_static
                {
                    if let Some(Loc::At(r)) = self.class.field(a.attr.as_str()) {
                        out.insert(r.clone());
                    }
                } else {
                    self.peek_roles(&a.value, out);
                }
            }
            Expr::BinOp(b) if b.op == Operator::MatMult => match self.role_of_name(&b.right) {
                Some(r) => {
                    out.insert(r);
                }
                None => {
                    self.peek_roles(&b.left, out);
                    self.peek_roles(&b.right, out);
                }
            },
            // A local function's call runs where its arguments are; a method's (a
            // communication, a choreographic call) is located by what it is, not peeked at.
            Expr::Call(c) => {
                if matches!(&*c.func, Expr::Name(_)) {
                    for a in c.arguments.args.iter() {
                        self.peek_roles(a, out);
                    }
                    for k in c.arguments.keywords.iter() {
                        self.peek_roles(&k.value, out);
                    }
                }
            }
            Expr::Lambda(_)
            | Expr::ListComp(_)
            | Expr::SetComp(_)
            | Expr::DictComp(_)
            | Expr::Generator(_) => {}
            e => {
                for k in children(e) {
                    self.peek_roles(k, out);
                }
            }
        }
    }

    /// The role that role-free operands are computed at: the expected one, else the enclosing
    /// expression's.
    fn inherited_hint(&self, expected: Option<&Loc>) -> Option<Loc> {
        expected
            .filter(|l| matches!(l, Loc::At(_)))
            .cloned()
            .or_else(|| self.hint.last().cloned().flatten())
    }

    /// `C[R...]` with `C` a role class: its name, and its roles checked against `C`'s arity
    /// (`None` after an error, reported).
    fn instance<'e>(&mut self, e: &'e Expr) -> Option<(&'e str, Option<Vec<String>>)> {
        let Expr::Subscript(s) = e else {
            return None;
        };
        let cname = name_of(&s.value)?;
        let class = self.d.class(cname)?;
        let roles = role_args(class, &s.slice, &self.class.roles, self.d, self.out);
        Some((cname, roles))
    }

    pub(super) fn visit_args(&mut self, call: &ast::ExprCall) {
        for a in call.arguments.args.iter() {
            self.expr(a, None);
        }
        for k in call.arguments.keywords.iter() {
            self.expr(&k.value, None);
        }
    }
}
