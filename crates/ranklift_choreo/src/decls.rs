//! Declarations: roles, enums, role classes (their roles, fields and method signatures) and the
//! module-level names every role can see.

use ranklift_python::fxhash::{FastMap, FastSet};
use ruff_python_ast::{self as ast, Expr, Stmt};
use ruff_text_size::{Ranged, TextRange};

use crate::Problem;
use crate::codes::{E_CHAN, E_LOC, E_ROLE, E_UNSUP};
use crate::loc::Loc;

/// A parameter of a choreographic method (not `self`).
#[derive(Clone)]
pub struct Param {
    pub name: String,
    pub loc: Loc,
    /// The default value (a role-free expression, copied into every projection that keeps the
    /// parameter).
    pub default: Option<TextRange>,
}

/// A method of a role class with its located signature (roles are the class's formal roles).
#[derive(Clone)]
pub struct MethodDecl<'a> {
    pub name: String,
    pub def: &'a ast::StmtFunctionDef,
    pub is_static: bool,
    pub is_entry: bool,
    pub params: Vec<Param>,
    pub ret: Loc,
}

/// A role class: `class C(ChN[R1, ..., Rn])`.
pub struct ClassDecl<'a> {
    pub name: String,
    pub roles: Vec<String>,
    pub def: &'a ast::StmtClassDef,
    pub methods: Vec<MethodDecl<'a>>,
    /// Fields assigned in `__init__`, in order, with their formal locations.
    pub fields: Vec<(String, Loc)>,
    /// `class Sub(Base[A, B])`: the role class it extends (with the same roles). Its methods
    /// and fields are inherited: `methods` holds the inherited ones too (each checked and
    /// projected as a method of the subclass), `fields` are the base's.
    pub parent: Option<String>,
}

impl ClassDecl<'_> {
    pub fn method(&self, name: &str) -> Option<&MethodDecl<'_>> {
        self.methods.iter().find(|m| m.name == name)
    }
    pub fn field(&self, name: &str) -> Option<&Loc> {
        self.fields.iter().find(|(n, _)| n == name).map(|(_, l)| l)
    }
}

/// Everything declared at module level.
#[derive(Default)]
pub struct Decls<'a> {
    /// `X = Role("X")`, with the statement's range.
    pub roles: FastMap<String, TextRange>,
    /// Enum classes and their members.
    pub enums: FastMap<String, Vec<String>>,
    pub classes: Vec<ClassDecl<'a>>,
    pub class_index: FastMap<String, usize>,
    /// Module-level names (functions, constants, plain classes, imports): role-free.
    pub globals: FastSet<String>,
    /// `from pychoral import ...` statements.
    pub pychoral_imports: Vec<TextRange>,
    /// Module classes the wire format cannot carry (not a dataclass, not an enum), with what
    /// they are.
    pub unsendable: FastMap<String, &'static str>,
}

impl<'a> Decls<'a> {
    pub fn class(&self, name: &str) -> Option<&ClassDecl<'a>> {
        self.class_index.get(name).map(|&i| &self.classes[i])
    }

    /// Is role class `sub` `base` or one of its subclasses?
    pub fn is_subclass(&self, sub: &str, base: &str) -> bool {
        let mut at = Some(sub.to_owned());
        while let Some(c) = at {
            if c == base {
                return true;
            }
            at = self.class(&c).and_then(|k| k.parent.clone());
        }
        false
    }

    /// `want.accepts(got)`, and an object of a subclass where its base is expected (same roles).
    pub fn accepts(&self, want: &Loc, got: &Loc) -> bool {
        match (want, got) {
            (Loc::Obj(b, rs), Loc::Obj(s, rs2)) => rs == rs2 && self.is_subclass(s, b),
            _ => want.accepts(got),
        }
    }
}

/// `class Sub(Base[...])` with `Base` a role class declared before: (the subscript's roles,
/// `Base`); `class Sub(Base)` (the roles not repeated, as HasChor's strategies are specialised):
/// (`None`, `Base`), the subclass taking its base's roles.
fn parent_base<'e>(class: &'e ast::StmtClassDef, d: &Decls) -> Option<(Option<&'e Expr>, String)> {
    class.bases().iter().find_map(|b| match b {
        Expr::Subscript(s) => {
            let n = name_of(&s.value)?;
            d.class_index
                .contains_key(n)
                .then(|| (Some(&*s.slice), n.to_owned()))
        }
        Expr::Name(n) => d
            .class_index
            .contains_key(n.id.as_str())
            .then(|| (None, n.id.to_string())),
        _ => None,
    })
}

/// `@dataclass`, `@dataclass(...)`, `@dataclasses.dataclass(...)` on the class.
fn is_dataclass(c: &ast::StmtClassDef) -> bool {
    c.decorator_list.iter().any(|d| {
        let e = match &d.expression {
            Expr::Call(call) => &*call.func,
            e => e,
        };
        match e {
            Expr::Name(n) => n.id.as_str() == "dataclass",
            Expr::Attribute(a) => a.attr.as_str() == "dataclass",
            _ => false,
        }
    })
}

fn name_of(e: &Expr) -> Option<&str> {
    match e {
        Expr::Name(n) => Some(n.id.as_str()),
        _ => None,
    }
}

/// `ChN[...]`/`Choreography[...]` base of a class: the role list expression and N (if any).
fn role_base(class: &ast::StmtClassDef) -> Option<(&Expr, Option<usize>)> {
    for base in class.bases() {
        if let Expr::Subscript(s) = base
            && let Some(n) = name_of(&s.value)
        {
            if n == "Choreography" {
                return Some((&s.slice, None));
            }
            if let Some(d) = n.strip_prefix("Ch")
                && d.len() == 1
                && let Ok(k) = d.parse::<usize>()
                && (1..=9).contains(&k)
            {
                return Some((&s.slice, Some(k)));
            }
        }
    }
    None
}

fn is_enum_class(class: &ast::StmtClassDef) -> bool {
    class.bases().iter().any(|b| {
        let n = match b {
            Expr::Name(n) => n.id.as_str(),
            Expr::Attribute(a) => a.attr.as_str(),
            _ => "",
        };
        matches!(n, "Enum" | "IntEnum" | "StrEnum" | "Flag" | "IntFlag")
    })
}

/// The elements of a subscript slice (`X[a, b]` → `[a, b]`, `X[a]` → `[a]`).
pub fn slice_elts(slice: &Expr) -> Vec<&Expr> {
    match slice {
        Expr::Tuple(t) => t.elts.iter().collect(),
        e => vec![e],
    }
}

/// Collect declarations; problems are pushed to `out`.
pub fn collect<'a>(suite: &'a [Stmt], out: &mut Vec<Problem>) -> Decls<'a> {
    let mut d = Decls::default();
    // Pass 1: names, roles, enums and the roles of each class.
    for stmt in suite {
        match stmt {
            Stmt::Assign(a)
                if a.targets.len() == 1
                    && matches!((&a.targets[0], &*a.value), (Expr::Tuple(t), Expr::Tuple(v))
                        if t.elts.len() == v.elts.len()
                            && v.elts.iter().all(|e| matches!(e, Expr::Call(c) if name_of(&c.func) == Some("Role")))) =>
            {
                // `A, B = Role("A"), Role("B")`
                let (Expr::Tuple(t), Expr::Tuple(v)) = (&a.targets[0], &*a.value) else {
                    unreachable!("checked by the guard")
                };
                for (target, value) in t.elts.iter().zip(&v.elts) {
                    let (Some(n), Expr::Call(c)) = (name_of(target), value) else {
                        continue;
                    };
                    let arg = c.arguments.args.first().and_then(|a| match a {
                        Expr::StringLiteral(s) => Some(s.value.to_str().to_owned()),
                        _ => None,
                    });
                    if arg.as_deref() != Some(n) {
                        out.push(Problem::new(
                            value.range(),
                            E_ROLE,
                            format!("role `{n}` must be declared as `Role(\"{n}\")`"),
                            "the role's name string is its process name; keep it equal to the variable",
                        ));
                    }
                    d.roles.insert(n.to_owned(), a.range);
                }
            }
            Stmt::Assign(a) => {
                let role = match &*a.value {
                    Expr::Call(c) if name_of(&c.func) == Some("Role") => Some(c),
                    _ => None,
                };
                for t in &a.targets {
                    if let Some(n) = name_of(t) {
                        if let Some(c) = role {
                            let arg = c.arguments.args.first().and_then(|a| match a {
                                Expr::StringLiteral(s) => Some(s.value.to_str().to_owned()),
                                _ => None,
                            });
                            if arg.as_deref() != Some(n) {
                                out.push(Problem::new(
                                    a.range,
                                    E_ROLE,
                                    format!("role `{n}` must be declared as `{n} = Role(\"{n}\")`"),
                                    "the role's name string is its process name; keep it equal to the variable",
                                ));
                            }
                            d.roles.insert(n.to_owned(), a.range);
                        } else {
                            d.globals.insert(n.to_owned());
                        }
                    } else {
                        collect_store_names(t, &mut d.globals);
                    }
                }
            }
            Stmt::AnnAssign(a) => {
                if let Some(n) = name_of(&a.target) {
                    d.globals.insert(n.to_owned());
                }
            }
            Stmt::FunctionDef(f) => {
                for dec in &f.decorator_list {
                    if is_entry_decorator(&dec.expression) {
                        out.push(Problem::new(
                            dec.range,
                            E_UNSUP,
                            format!("`@entry` on the module-level function `{}`", f.name),
                            "an entry is a static method of a choreography class: put `@entry` and `@staticmethod` on a `main()` inside the class, and run it with `--entry ClassName`",
                        ));
                    }
                }
                d.globals.insert(f.name.to_string());
            }
            Stmt::ClassDef(c) => {
                if is_enum_class(c) {
                    let mut members = Vec::new();
                    for s in &c.body {
                        if let Stmt::Assign(a) = s {
                            for t in &a.targets {
                                if let Some(n) = name_of(t) {
                                    members.push(n.to_owned());
                                }
                            }
                        }
                    }
                    d.enums.insert(c.name.to_string(), members);
                    d.globals.insert(c.name.to_string());
                } else if role_base(c).is_some() || parent_base(c, &d).is_some() {
                    let parent = if role_base(c).is_none() {
                        parent_base(c, &d).map(|(_, p)| p)
                    } else {
                        None
                    };
                    d.class_index.insert(c.name.to_string(), d.classes.len());
                    d.classes.push(ClassDecl {
                        name: c.name.to_string(),
                        roles: Vec::new(),
                        def: c,
                        methods: Vec::new(),
                        fields: Vec::new(),
                        parent,
                    });
                } else {
                    if !is_dataclass(c) {
                        let what = if c
                            .bases()
                            .iter()
                            .any(|b| name_of(b).is_some_and(|n| n.ends_with("NamedTuple")))
                        {
                            "a NamedTuple"
                        } else {
                            "a plain class"
                        };
                        d.unsendable.insert(c.name.to_string(), what);
                    }
                    d.globals.insert(c.name.to_string());
                }
            }
            Stmt::Import(i) => {
                for a in &i.names {
                    if a.name.as_str() == "pychoral" || a.name.as_str().starts_with("pychoral.") {
                        out.push(Problem::new(
                            a.range,
                            E_UNSUP,
                            format!("`import {}`: PyChoral names are recognised only when imported by name", a.name),
                            "write `from pychoral import Role, At, Channel, Choreography, entry` (the names you use)",
                        ));
                    }
                    let n = a.asname.as_ref().unwrap_or(&a.name).as_str();
                    d.globals
                        .insert(n.split('.').next().unwrap_or(n).to_owned());
                }
            }
            Stmt::ImportFrom(i) => {
                if i.module.as_ref().is_some_and(|m| m.as_str() == "pychoral") {
                    d.pychoral_imports.push(i.range);
                }
                for a in &i.names {
                    d.globals
                        .insert(a.asname.as_ref().unwrap_or(&a.name).to_string());
                }
            }
            _ => {}
        }
    }
    // Pass 2: class roles.
    for i in 0..d.classes.len() {
        let (slice, n) = match role_base(d.classes[i].def) {
            Some(b) => b,
            None => match parent_base(d.classes[i].def, &d) {
                Some((Some(slice), _)) => (slice, None),
                // `class Sub(Base)`: the base's roles (declared before, so already read).
                Some((None, p)) => {
                    d.classes[i].roles = d.class(&p).map(|b| b.roles.clone()).unwrap_or_default();
                    continue;
                }
                None => continue,
            },
        };
        let mut roles = Vec::new();
        for e in slice_elts(slice) {
            match name_of(e) {
                Some(r) if d.roles.contains_key(r) => {
                    if roles.iter().any(|x| x == r) {
                        out.push(Problem::new(
                            e.range(),
                            E_ROLE,
                            format!(
                                "role `{r}` appears twice in the roles of `{}`",
                                d.classes[i].name
                            ),
                            "the roles of a choreography are distinct parameters",
                        ));
                    }
                    roles.push(r.to_owned());
                }
                _ => out.push(Problem::new(
                    e.range(),
                    E_ROLE,
                    format!("unknown role `{}`", crate::short(e)),
                    "declare it at module level: `R = Role(\"R\")`",
                )),
            }
        }
        if let Some(n) = n
            && n != slice_elts(slice).len()
        {
            out.push(Problem::new(
                slice.range(),
                E_ROLE,
                format!("`Ch{n}` takes {n} roles, found {}", slice_elts(slice).len()),
                format!("write `Ch{}[...]`", slice_elts(slice).len()),
            ));
        }
        if let Some(p) = &d.classes[i].parent
            && let Some(base) = d.class(p)
            && base.roles != roles
        {
            out.push(Problem::new(
                slice.range(),
                E_UNSUP,
                format!(
                    "`{}` extends `{p}` with roles [{}]; a subclass of a role class keeps its base's roles in order: `{p}[{}]` (renaming or adding roles is not supported)",
                    d.classes[i].name,
                    roles.join(", "),
                    base.roles.join(", ")
                ),
                format!("write `class {}({p}[{}])`", d.classes[i].name, base.roles.join(", ")),
            ));
        }
        d.classes[i].roles = roles;
    }
    // Pass 3: method signatures and fields.
    for i in 0..d.classes.len() {
        let class = d.classes[i].def;
        let roles = d.classes[i].roles.clone();
        let mut methods = Vec::new();
        let mut fields: Vec<(String, Loc)> = Vec::new();
        for stmt in &class.body {
            let f = match stmt {
                Stmt::FunctionDef(f) => f,
                Stmt::Pass(_) | Stmt::Expr(_) => continue,
                other => {
                    out.push(Problem::new(
                        other.range(),
                        E_UNSUP,
                        "only methods may appear in the body of a role class".to_owned(),
                        "move constants and helpers to module level, where every role sees them",
                    ));
                    continue;
                }
            };
            if f.is_async {
                out.push(Problem::new(
                    f.range,
                    E_UNSUP,
                    "`async def` is not supported in a role class".to_owned(),
                    "the runtime runs each role in its own thread or process; write plain methods",
                ));
            }
            let mut is_static = false;
            let mut is_entry = false;
            for dec in &f.decorator_list {
                match &dec.expression {
                    Expr::Name(n) if n.id.as_str() == "staticmethod" => is_static = true,
                    e if is_entry_decorator(e) => is_entry = true,
                    other => out.push(Problem::new(
                        other.range(),
                        E_UNSUP,
                        "unsupported decorator on a choreographic method".to_owned(),
                        "only `@staticmethod` and `@entry` are understood",
                    )),
                }
            }
            let p = &f.parameters;
            if p.vararg.is_some() || p.kwarg.is_some() || !p.kwonlyargs.is_empty() {
                out.push(Problem::new(
                    p.range,
                    E_UNSUP,
                    "`*args`, `**kwargs` and keyword-only parameters are not supported".to_owned(),
                    "use positional parameters with located types",
                ));
            }
            let all: Vec<&ast::ParameterWithDefault> =
                p.posonlyargs.iter().chain(p.args.iter()).collect();
            let mut params = Vec::new();
            for (k, pw) in all.iter().enumerate() {
                let name = pw.parameter.name.as_str();
                if k == 0 && !is_static {
                    continue; // self
                }
                let loc = match &pw.parameter.annotation {
                    Some(ann) => parse_loc(ann, &roles, &d, out),
                    None => {
                        out.push(Problem::new(
                            pw.range,
                            E_LOC,
                            format!("parameter `{name}` needs a located type"),
                            format!(
                                "annotate it, e.g. `{name}: At[int, {}]`",
                                roles.first().map_or("R", |s| s)
                            ),
                        ));
                        Loc::Unknown
                    }
                };
                if let Some(dv) = &pw.default
                    && !role_free(dv, &d)
                {
                    out.push(Problem::new(
                        dv.range(),
                        E_LOC,
                        format!("the default of `{name}` must be role-free"),
                        "a default is evaluated once, where the method is defined; use a plain value (no roles, `@`, `self` or communication)",
                    ));
                }
                params.push(Param {
                    name: name.to_owned(),
                    loc,
                    default: pw.default.as_ref().map(|e| e.range()),
                });
            }
            let ret = match &f.returns {
                Some(r) => parse_loc(r, &roles, &d, out),
                None if f.name.as_str() == "__init__" => Loc::NoValue,
                None => {
                    out.push(Problem::new(
                        f.name.range,
                        E_LOC,
                        format!("method `{}` needs a return annotation", f.name),
                        "write `-> None`, or a located type such as `-> At[int, R]`",
                    ));
                    Loc::Unknown
                }
            };
            if f.name.as_str() == "__init__" {
                for s in &f.body {
                    init_field(s, &params, &roles, &d, &mut fields, out);
                }
            }
            methods.push(MethodDecl {
                name: f.name.to_string(),
                def: f,
                is_static,
                is_entry,
                params,
                ret,
            });
        }
        if let Some(p) = d.classes[i].parent.clone()
            && let Some(base) = d.class(&p)
        {
            inherit(&d.classes[i], base, &mut methods, &mut fields, out);
        }
        d.classes[i].methods = methods;
        d.classes[i].fields = fields;
    }
    // The projection adds a class `C_R` per role next to the module's own names.
    for c in &d.classes {
        for r in &c.roles {
            let name = format!("{}_{r}", c.name);
            if d.globals.contains(&name) || d.roles.contains_key(&name) || d.class(&name).is_some()
            {
                out.push(Problem::new(
                    c.def.name.range,
                    E_UNSUP,
                    format!("the projection of `{}` at {r} is the class `{name}`, a name this module already uses", c.name),
                    format!("rename `{name}` or the choreography class"),
                ));
            }
        }
    }
    d
}

/// A subclass's methods and fields from its base: the base's fields (a subclass defines no
/// `__init__` of its own), the base's methods it does not override, and each override checked
/// to keep the base method's located signature.
fn inherit<'a>(
    sub: &ClassDecl<'a>,
    base: &ClassDecl<'a>,
    methods: &mut Vec<MethodDecl<'a>>,
    fields: &mut Vec<(String, Loc)>,
    out: &mut Vec<Problem>,
) {
    if let Some(init) = methods.iter().find(|m| m.name == "__init__") {
        out.push(Problem::new(
            init.def.name.range,
            E_UNSUP,
            format!(
                "`{}` defines `__init__`: a subclass of a role class inherits its base's fields and constructor (its own `__init__` is not supported yet)",
                sub.name
            ),
            format!("remove it; `{}`'s fields are `{}`'s", sub.name, base.name),
        ));
    }
    fields.clone_from(&base.fields);
    for m in &base.methods {
        match methods.iter().find(|o| o.name == m.name) {
            None => methods.push(m.clone()),
            Some(o) => {
                let same = o.is_static == m.is_static
                    && o.ret == m.ret
                    && o.params.len() == m.params.len()
                    && o.params.iter().zip(&m.params).all(|(a, b)| a.loc == b.loc);
                if !same && m.name != "__init__" {
                    out.push(Problem::new(
                        o.def.name.range,
                        E_LOC,
                        format!(
                            "`{}.{}` overrides `{}.{}` with another located signature",
                            sub.name, o.name, base.name, m.name
                        ),
                        "an override keeps its base method's parameters, their locations and its result's location",
                    ));
                }
            }
        }
    }
}

/// `@entry` or `@pychoral.entry`.
fn is_entry_decorator(e: &Expr) -> bool {
    matches!(e, Expr::Name(n) if n.id.as_str() == "entry")
        || matches!(e, Expr::Attribute(a) if a.attr.as_str() == "entry")
}

/// `At[T, R]` → `(T, R)`: the parts of a located type written with `At`.
pub fn at_parts(e: &Expr) -> Option<(&Expr, &Expr)> {
    if let Expr::Subscript(s) = e
        && matches!(&*s.value, Expr::Name(n) if n.id.as_str() == "At")
        && let Expr::Tuple(t) = &*s.slice
        && let [ty, role] = t.elts.as_slice()
    {
        Some((ty, role))
    } else {
        None
    }
}

/// Is `e` free of roles, role classes, `self` and communication?
fn role_free(e: &Expr, d: &Decls) -> bool {
    use ruff_python_ast::visitor::{Visitor, walk_expr};
    struct V<'d, 'a>(&'d Decls<'a>, bool);
    impl<'x> Visitor<'x> for V<'_, '_> {
        fn visit_expr(&mut self, e: &'x Expr) {
            match e {
                Expr::Name(n)
                    if n.id.as_str() == "self"
                        || self.0.roles.contains_key(n.id.as_str())
                        || self.0.class(n.id.as_str()).is_some() =>
                {
                    self.1 = false;
                }
                Expr::Attribute(a) if matches!(a.attr.as_str(), "com" | "select") => {
                    self.1 = false;
                }
                _ => walk_expr(self, e),
            }
        }
    }
    let mut v = V(d, true);
    v.visit_expr(e);
    v.1
}

fn collect_store_names(e: &Expr, out: &mut FastSet<String>) {
    match e {
        Expr::Name(n) => {
            out.insert(n.id.to_string());
        }
        Expr::Tuple(t) => t.elts.iter().for_each(|e| collect_store_names(e, out)),
        Expr::List(t) => t.elts.iter().for_each(|e| collect_store_names(e, out)),
        Expr::Starred(s) => collect_store_names(&s.value, out),
        _ => {}
    }
}

fn self_field(e: &Expr) -> Option<&str> {
    match e {
        Expr::Attribute(a) if name_of(&a.value) == Some("self") => Some(a.attr.as_str()),
        _ => None,
    }
}

/// The location of a field's value when it can be read off the syntax: a parameter, a
/// constructor `C[R...](...)`, or `e @ R`.
fn field_loc(v: &Expr, params: &[Param], roles: &[String], d: &Decls) -> Option<Loc> {
    match v {
        Expr::Name(n) => params
            .iter()
            .find(|p| p.name == n.id.as_str())
            .map(|p| p.loc.clone()),
        Expr::Call(c) => match &*c.func {
            Expr::Subscript(s) => {
                let class = d.class(name_of(&s.value)?)?;
                let rs: Vec<String> = slice_elts(&s.slice)
                    .iter()
                    .map(|e| name_of(e).map(str::to_owned))
                    .collect::<Option<_>>()?;
                (rs.len() == class.roles.len() && rs.iter().all(|r| roles.contains(r)))
                    .then(|| Loc::Obj(class.name.clone(), rs))
            }
            _ => None,
        },
        Expr::BinOp(b) if b.op == ruff_python_ast::Operator::MatMult => {
            let r = match &*b.right {
                Expr::Call(c) => name_of(&c.func)?,
                r => name_of(r)?,
            };
            roles.iter().any(|x| x == r).then(|| Loc::At(r.to_owned()))
        }
        _ => None,
    }
}

/// A field assignment in `__init__`: `self.f = param` or `self.f: T = e`.
fn init_field(
    s: &Stmt,
    params: &[Param],
    roles: &[String],
    d: &Decls,
    fields: &mut Vec<(String, Loc)>,
    out: &mut Vec<Problem>,
) {
    let (f, loc) = match s {
        Stmt::Assign(a) if a.targets.len() == 1 => {
            let Some(f) = self_field(&a.targets[0]) else {
                return;
            };
            let loc = field_loc(&a.value, params, roles, d);
            match loc {
                Some(l) => (f, l),
                None => {
                    out.push(Problem::new(
                        a.range,
                        E_LOC,
                        format!("the location of field `{f}` cannot be inferred"),
                        format!("annotate it: `self.{f}: At[T, R] = ...`, or assign a parameter"),
                    ));
                    (f, Loc::Unknown)
                }
            }
        }
        Stmt::AnnAssign(a) => {
            let Some(f) = self_field(&a.target) else {
                return;
            };
            (f, parse_loc(&a.annotation, roles, d, out))
        }
        _ => return,
    };
    if !fields.iter().any(|(n, _)| n == f) {
        fields.push((f.to_owned(), loc));
    }
}

/// Check that `e` names a role of the enclosing class.
pub fn role_arg(e: &Expr, roles: &[String], d: &Decls, out: &mut Vec<Problem>) -> Option<String> {
    let Some(r) = name_of(e) else {
        out.push(Problem::new(
            e.range(),
            E_ROLE,
            format!("expected a role, found `{}`", crate::short(e)),
            "roles are names declared with `R = Role(\"R\")`",
        ));
        return None;
    };
    if !d.roles.contains_key(r) {
        out.push(Problem::new(
            e.range(),
            E_ROLE,
            format!("unknown role `{r}`"),
            "declare it at module level: `R = Role(\"R\")`, and add it to the class's roles",
        ));
        return None;
    }
    if !roles.iter().any(|x| x == r) {
        out.push(Problem::new(
            e.range(),
            E_ROLE,
            format!(
                "`{r}` is not a role of this class (its roles are {})",
                roles.join(", ")
            ),
            format!("add `{r}` to the class's `ChN[...]` roles, or use one of them"),
        ));
        return None;
    }
    Some(r.to_owned())
}

/// The roles of `C[R1, ...]`, checked against the arity of class `C`.
pub fn role_args(
    class: &ClassDecl,
    slice: &Expr,
    roles: &[String],
    d: &Decls,
    out: &mut Vec<Problem>,
) -> Option<Vec<String>> {
    let elts = slice_elts(slice);
    let mut actual = Vec::new();
    let mut ok = true;
    for e in &elts {
        match role_arg(e, roles, d, out) {
            Some(r) => {
                if actual.contains(&r) {
                    out.push(Problem::new(
                        e.range(),
                        E_ROLE,
                        format!("role `{r}` is passed twice to `{}`", class.name),
                        "each role parameter needs a distinct role",
                    ));
                    ok = false;
                }
                actual.push(r);
            }
            None => ok = false,
        }
    }
    if elts.len() != class.roles.len() {
        out.push(Problem::new(
            slice.range(),
            E_ROLE,
            format!(
                "`{}` takes {} roles ({}), found {}",
                class.name,
                class.roles.len(),
                class.roles.join(", "),
                elts.len()
            ),
            "pass one role per role parameter, in order",
        ));
        ok = false;
    }
    ok.then_some(actual)
}

/// Parse a located type: `At[T, R]`, `Channel[T, A, B]`, `DiChannel[T, A, B]`, `C[R...]`, `None`.
pub fn parse_loc(ann: &Expr, roles: &[String], d: &Decls, out: &mut Vec<Problem>) -> Loc {
    match ann {
        Expr::NoneLiteral(_) => Loc::NoValue,
        // A quoted (forward) reference, `-> "Mirror[B, A]"`: the annotation it quotes; what is
        // wrong in it is reported at the string.
        Expr::StringLiteral(lit) => {
            let text = lit.value.to_str();
            match ruff_python_parser::parse_expression(text) {
                Ok(parsed) => {
                    let mut inner = Vec::new();
                    let loc = parse_loc(parsed.expr(), roles, d, &mut inner);
                    for mut p in inner {
                        p.range = ann.range();
                        p.notes.clear();
                        out.push(p);
                    }
                    loc
                }
                Err(_) => {
                    out.push(Problem::new(
                        ann.range(),
                        E_LOC,
                        format!("the quoted annotation `{text}` is not an expression"),
                        "write the located type in the quotes, e.g. `\"Mirror[B, A]\"`",
                    ));
                    Loc::Unknown
                }
            }
        }
        Expr::Subscript(s) => {
            let head = name_of(&s.value).unwrap_or("");
            let elts = slice_elts(&s.slice);
            match head {
                "At" => {
                    if elts.len() != 2 {
                        out.push(Problem::new(
                            ann.range(),
                            E_LOC,
                            "`At` takes a type and a role: `At[T, R]`".to_owned(),
                            "for example `At[int, A]`",
                        ));
                        return Loc::Unknown;
                    }
                    role_arg(elts[1], roles, d, out).map_or(Loc::Unknown, Loc::At)
                }
                "Channel" | "DiChannel" => {
                    if elts.len() != 3 {
                        out.push(Problem::new(
                            ann.range(),
                            E_CHAN,
                            format!("`{head}` takes a type and two roles: `{head}[T, A, B]`"),
                            format!("for example `{head}[object, A, B]`"),
                        ));
                        return Loc::Unknown;
                    }
                    let a = role_arg(elts[1], roles, d, out);
                    let b = role_arg(elts[2], roles, d, out);
                    match (a, b) {
                        (Some(a), Some(b)) if a == b => {
                            out.push(Problem::new(
                                ann.range(),
                                E_CHAN,
                                format!(
                                    "a channel needs two different roles, found `{a}` at both ends"
                                ),
                                "a role does not communicate with itself; use a local variable",
                            ));
                            Loc::Unknown
                        }
                        (Some(a), Some(b)) => Loc::Chan {
                            a,
                            b,
                            di: head == "DiChannel",
                        },
                        _ => Loc::Unknown,
                    }
                }
                c if d.class(c).is_some() => {
                    let class = d.class(c).expect("checked");
                    role_args(class, &s.slice, roles, d, out)
                        .map_or(Loc::Unknown, |rs| Loc::Obj(c.to_owned(), rs))
                }
                _ => {
                    out.push(Problem::new(
                        ann.range(),
                        E_LOC,
                        format!("`{}` is not a located type", crate::short(ann)),
                        "use `At[T, R]`, `Channel[T, A, B]`, `DiChannel[T, A, B]`, a role class `C[R...]` or `None`",
                    ));
                    Loc::Unknown
                }
            }
        }
        _ => {
            out.push(Problem::new(
                ann.range(),
                E_LOC,
                format!("`{}` is not a located type", crate::short(ann)),
                format!("say where the value lives: `At[{}, R]`", crate::short(ann)),
            ));
            Loc::Unknown
        }
    }
}
