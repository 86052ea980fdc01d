//! Locating statements: declarations and assignments, `return`, `if`/`while`/`for`, `raise`/
//! `assert`, and compound statements local to one role (`try`, `match`).

use ruff_python_ast::{self as ast, Expr, Stmt};
use ruff_text_size::Ranged;

use super::*;
use crate::codes::*;
use crate::loc::Loc;

impl Cx<'_, '_> {
    // ----- statements ------------------------------------------------------------------------

    pub(super) fn block(&mut self, body: &[Stmt]) {
        for s in body {
            self.stmt(s);
        }
    }

    pub(super) fn declare(&mut self, target: &Expr, loc: Loc) {
        if let Some(n) = name_of(target) {
            self.scope.insert(n.to_owned(), loc.clone());
        }
        self.facts.targets.insert(key(target.range()), loc);
    }

    pub(super) fn target_loc(&mut self, t: &Expr) -> Option<Loc> {
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
            // `client.file = ...` on a role-class object: where that field lives.
            Expr::Attribute(_) => self.peek_loc(t),
            _ => None,
        }
    }

    pub(super) fn stmt(&mut self, s: &Stmt) {
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
                    self.chan_type = channel_value_type(&a.annotation);
                    let got = self.expr(v, Some(&want));
                    self.chan_type = None;
                    self.assign_check(v, &want, &got, &a.target);
                    self.wire_check(v, &a.annotation);
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
                        // A target other than a new name (`client.parts[i] = ...`,
                        // `client.file, client.n = ...`, `clients[0].n = ...`): role-free parts of
                        // the value run where the target's located parts are.
                        let want = match t {
                            Expr::Name(_) => None,
                            _ => self.target_hint(t),
                        };
                        let got = self.expr(&a.value, want.as_ref());
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
                                        Some(l) if !self.d.accepts(&l, &got) => {
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
                // `client.n += size()`: the value is computed where the target is.
                let want = matches!(tl, Loc::At(_)).then(|| tl.clone());
                let got = self.expr(&a.value, want.as_ref());
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
                        if !self.d.accepts(&want, &got) {
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
    pub(super) fn local_compound(&mut self, s: &Stmt) {
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
        for ann in super::collect_annotations(s) {
            let l = crate::decls::parse_loc(ann, &self.class.roles, self.d, self.out);
            roles.extend(l.roles().into_iter().map(str::to_owned));
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

    /// The one role an assignment target's located parts are at (each element of a tuple
    /// target by its own location), read without locating; `None` when none or several.
    fn target_hint(&mut self, t: &Expr) -> Option<Loc> {
        let mut roles = BTreeSet::new();
        let parts: Vec<&Expr> = match t {
            Expr::Tuple(x) => x.elts.iter().collect(),
            Expr::List(x) => x.elts.iter().collect(),
            t => vec![t],
        };
        for p in parts {
            match self.peek_loc(p) {
                Some(Loc::At(r)) => {
                    roles.insert(r);
                }
                _ => self.peek_roles(p, &mut roles),
            }
        }
        (roles.len() == 1).then(|| Loc::At(roles.into_iter().next().expect("one")))
    }

    pub(super) fn peek_loc(&mut self, e: &Expr) -> Option<Loc> {
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
                // A field of a plain object located at a role (`client: At[Client, D]`) lives
                // where the object does: `client.file = bytearray()` runs at `D`.
                Loc::At(r) => Some(Loc::At(r)),
                _ => None,
            },
            // An element of a container located at a role (`clients[0].n = ...`).
            Expr::Subscript(x) => match self.peek_loc(&x.value)? {
                Loc::At(r) => Some(Loc::At(r)),
                _ => None,
            },
            _ => None,
        }
    }

    pub(super) fn short_target(&mut self, t: &Expr) {
        self.err(
            t.range(),
            E_SHORT,
            "communication in an assignment target".to_owned(),
            "Python evaluates targets after the value; receive into a variable first",
        );
    }

    pub(super) fn assign_check(&mut self, v: &Expr, want: &Loc, got: &Loc, target: &Expr) {
        if !self.d.accepts(want, got) {
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
    pub(super) fn local_assign(&mut self, s: &Stmt, tl: &Loc, got: &Loc) {
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

    pub(super) fn cond(&mut self, test: &Expr) {
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

    pub(super) fn cond_role(&self, test: &Expr) -> Option<String> {
        match self.facts.loc(test) {
            Loc::At(r) => Some(r),
            _ => None,
        }
    }
}

impl Cx<'_, '_> {
    /// `x: At[T, R] = ch.com(...)`: T must be something the wire format carries (E-WIRE).
    fn wire_check(&mut self, value: &Expr, annotation: &Expr) {
        let is_com = matches!(value, Expr::Call(c)
            if matches!(&*c.func, Expr::Attribute(a) if a.attr.as_str() == "com"));
        let Some((ty, _)) = crate::decls::at_parts(annotation) else {
            return;
        };
        if !is_com {
            return;
        }
        let mut bad = None;
        let mut names = Vec::new();
        collect_names(ty, &mut names);
        for n in names {
            if let Some(what) = self.d.unsendable.get(n.id.as_str()) {
                bad = Some((n.range, n.id.to_string(), *what));
                break;
            }
        }
        if let Some((range, name, what)) = bad {
            self.err(
                range,
                E_WIRE,
                format!("`{name}` is {what}: the wire format cannot carry it, so this `com` would fail at run time"),
                format!("make `{name}` a `@dataclass` whose fields are None, bool, int, float, str, bytes, lists, tuples, dicts, sets, enum members or dataclasses; or send its fields"),
            );
        }
    }
}

fn collect_names<'e>(e: &'e Expr, out: &mut Vec<&'e ast::ExprName>) {
    use ruff_python_ast::visitor::{self, Visitor};
    struct N<'e, 'o>(&'o mut Vec<&'e ast::ExprName>);
    impl<'e> Visitor<'e> for N<'e, '_> {
        fn visit_expr(&mut self, e: &'e Expr) {
            if let Expr::Name(n) = e {
                self.0.push(n);
            }
            visitor::walk_expr(self, e);
        }
    }
    N(out).visit_expr(e);
}

/// `Channel[T, A, B]` / `DiChannel[T, A, B]` → the source text of `T`, unless it is `object` or
/// `Any` (nothing to check).
fn channel_value_type(ann: &Expr) -> Option<String> {
    let Expr::Subscript(s) = ann else {
        return None;
    };
    let Expr::Name(n) = &*s.value else {
        return None;
    };
    if !matches!(n.id.as_str(), "Channel" | "DiChannel") {
        return None;
    }
    let Expr::Tuple(t) = &*s.slice else {
        return None;
    };
    let ty = t.elts.first()?;
    let text = crate::source_of(ty.range())?;
    (!matches!(text.as_str(), "object" | "Any" | "typing.Any")).then_some(text)
}
