//! `ranklift choreo` — PyChoral: choreographic programming in Python.
//!
//! A choreography is one Python module in which role classes (`class C(Ch2[A, B])`) describe a
//! multiparty protocol with located types (`At[T, R]`, `Channel[T, A, B]`). This crate checks it and
//! projects it into one plain Python class per role (`C_A`, `C_B`) that talks through the runtime
//! in `python/pychoral_rt.py` (embedded here, written next to the projection).
//!
//! Pipeline (see ARCHITECTURE.md):
//! [`decls`] (roles, enums, role classes, signatures) → [`locate`] (a location for every
//! expression; every check except knowledge of choice) → [`project`] per class and role, with the
//! [`ir`] normaliser and merge (knowledge of choice, E-KOC) → module assembly by splicing the
//! source (module-level code is kept byte for byte) → the re-parse guard.

pub mod codes;
pub mod decls;
pub mod ir;
pub mod loc;
pub mod locate;
pub mod project;

use std::sync::Arc;

use ranklift_python::diagnostics::{self, Diagnostic, Severity};
use ranklift_python::edit::{self, Edit};
use ruff_python_ast::{Expr, Stmt};
use ruff_source_file::LineIndex;
use ruff_text_size::{Ranged, TextRange, TextSize};

/// The runtime every projection imports (`pychoral_rt.py`, stdlib only).
pub const RUNTIME: &str = include_str!("../../../python/pychoral_rt.py");

/// A problem found by a check, before it becomes a [`Diagnostic`].
#[derive(Debug, Clone)]
pub struct Problem {
    pub range: TextRange,
    pub code: &'static str,
    pub message: String,
    pub hint: String,
    pub notes: Vec<(TextRange, String)>,
    /// The edits that resolve it, where they are known (the selections an E-KOC needs).
    pub fix: Option<ranklift_python::diagnostics::Fix>,
}

impl Problem {
    pub fn new(
        range: TextRange,
        code: &'static str,
        message: String,
        hint: impl Into<String>,
    ) -> Problem {
        Problem {
            range,
            code,
            message,
            hint: hint.into(),
            notes: Vec::new(),
            fix: None,
        }
    }
}

/// Short source text of an expression for messages (first line, at most 60 characters).
pub(crate) fn short(e: &Expr) -> String {
    use ruff_python_ast::name::UnqualifiedName;
    if let Some(n) = UnqualifiedName::from_expr(e) {
        return n.to_string();
    }
    SHORT_SRC.with(|s| {
        let src = s.borrow();
        let r = e.range();
        let Some(t) = src.get(usize::from(r.start())..usize::from(r.end())) else {
            return "expression".to_owned();
        };
        let first = t.lines().next().unwrap_or("");
        if first.chars().count() > 60 || t.contains('\n') {
            format!("{}...", first.chars().take(57).collect::<String>())
        } else {
            first.to_owned()
        }
    })
}

/// The source text of `r` in the choreography being compiled.
pub(crate) fn source_of(r: TextRange) -> Option<String> {
    SHORT_SRC.with(|s| {
        s.borrow()
            .get(usize::from(r.start())..usize::from(r.end()))
            .map(str::to_owned)
    })
}

thread_local! {
    static SHORT_SRC: std::cell::RefCell<Arc<str>> = std::cell::RefCell::new(Arc::from(""));
}

/// A role class with an `@entry` method: what `ranklift choreo run --entry` can start.
#[derive(Debug, Clone)]
pub struct Entry {
    pub class: String,
    pub method: String,
    pub roles: Vec<String>,
}

/// The result of projecting one choreography.
#[derive(Debug)]
pub struct Projection {
    /// Python module name of the projection (`<stem>_chor`).
    pub module_name: String,
    /// The projected module.
    pub module: String,
    /// For each role of an entry class: the module with only the projected classes that role
    /// runs (`project --split`).
    pub role_modules: Vec<(String, String)>,
    /// The role-erased program (runs centrally with the `pychoral` package).
    pub erased: String,
    pub entries: Vec<Entry>,
    /// The role classes and their roles, in source order.
    pub classes: Vec<(String, Vec<String>)>,
}

/// `<stem>_chor`, made a valid module name.
pub fn module_name(path: &str) -> String {
    let stem = std::path::Path::new(path)
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or("choreography");
    let mut s: String = stem
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    if s.starts_with(|c: char| c.is_ascii_digit()) || s.is_empty() {
        s.insert(0, '_');
    }
    s.push_str("_chor");
    s
}

fn to_diags(
    path: &str,
    text: &Arc<str>,
    index: &LineIndex,
    mut problems: Vec<Problem>,
) -> Vec<Diagnostic> {
    problems.sort_by_key(|p| (p.range.start(), p.range.end(), p.code, p.message.clone()));
    problems.dedup_by(|a, b| a.range == b.range && a.code == b.code && a.message == b.message);
    let mut out: Vec<Diagnostic> = problems
        .into_iter()
        .map(|p| {
            let mut d = Diagnostic::new(
                path,
                text,
                index,
                p.range,
                p.code,
                Severity::Error,
                p.message,
            )
            .with_hint(p.hint)
            .rustc_style();
            for (r, m) in p.notes {
                d = d.with_note(index, r, m);
            }
            d.fix = p.fix;
            d
        })
        .collect();
    diagnostics::sort(&mut out);
    out
}

/// Check and project the choreography `text` (shown as `path`). All errors, sorted, or the
/// projection.
pub fn compile(path: &str, text: &Arc<str>) -> Result<Projection, Vec<Diagnostic>> {
    compile_with(
        path,
        text,
        Want {
            erased: true,
            split: true,
        },
    )
}

/// Which optional outputs [`compile_with`] builds (a plain check needs neither).
#[derive(Debug, Clone, Copy, Default)]
pub struct Want {
    /// The role-erased program ([`Projection::erased`]).
    pub erased: bool,
    /// One module per role ([`Projection::role_modules`]).
    pub split: bool,
}

/// [`compile`], building only the optional outputs `want` asks for (the others are empty).
pub fn compile_with(
    path: &str,
    text: &Arc<str>,
    want: Want,
) -> Result<Projection, Vec<Diagnostic>> {
    let index = LineIndex::from_source_text(text);
    let parsed = match ruff_python_parser::parse_module(text) {
        Ok(p) => p,
        Err(err) => {
            let d = Diagnostic::new(
                path,
                text,
                &index,
                err.location,
                ranklift_python::parse::SYNTAX_ERROR,
                Severity::Error,
                format!("syntax error: {}", err.error),
            )
            .with_hint("a choreography is a Python module; Python itself must be able to parse it")
            .rustc_style();
            return Err(vec![d]);
        }
    };
    SHORT_SRC.with(|s| *s.borrow_mut() = text.clone());
    let suite = parsed.suite();
    let mut problems = Vec::new();
    let decls = decls::collect(suite, &mut problems);
    let facts = locate::check(&decls, &mut problems);
    if !problems.is_empty() {
        return Err(to_diags(path, text, &index, problems));
    }
    // Projection (finds knowledge-of-choice errors): (class range, class, role, text).
    let mut projected: Vec<(TextRange, String, String, String)> = Vec::new();
    for class in &decls.classes {
        for r in &class.roles {
            let t = project::project_class(text, &decls, &facts, class, r, &mut problems);
            projected.push((class.def.range, class.name.clone(), r.clone(), t));
        }
    }
    if !problems.is_empty() {
        return Err(to_diags(path, text, &index, problems));
    }
    let module_name = module_name(path);
    let internal = |m: String| {
        vec![Diagnostic::file_level(path, "E-INTERNAL", Severity::Error, m).rustc_style()]
    };
    let module = assemble(path, text, suite, &decls, &projected, &|_| true).map_err(internal)?;
    // Per-role modules (`--split`): only the classes reachable from the role's entry classes.
    let mut role_modules = Vec::new();
    let mut entry_roles: Vec<&String> = Vec::new();
    for c in decls
        .classes
        .iter()
        .filter(|c| want.split && c.methods.iter().any(|m| m.is_entry))
    {
        for r in &c.roles {
            if !entry_roles.contains(&r) {
                entry_roles.push(r);
            }
        }
    }
    for r in entry_roles {
        let roots: Vec<String> = decls
            .classes
            .iter()
            .filter(|c| c.methods.iter().any(|m| m.is_entry) && c.roles.contains(r))
            .map(|c| format!("{}_{r}", c.name))
            .collect();
        let keep = reachable(&projected, roots);
        let text = assemble(path, text, suite, &decls, &projected, &|n| keep.contains(n))
            .map_err(internal)?;
        role_modules.push((r.clone(), text));
    }
    let erased = if !want.erased {
        Ok(String::new())
    } else {
        erase(text, suite, &decls, &facts)
    }
    .map_err(|m| {
        vec![Diagnostic::file_level(path, "E-INTERNAL", Severity::Error, m).rustc_style()]
    })?;
    let entries = decls
        .classes
        .iter()
        .flat_map(|c| {
            c.methods.iter().filter(|m| m.is_entry).map(|m| Entry {
                class: c.name.clone(),
                method: m.name.clone(),
                roles: c.roles.clone(),
            })
        })
        .collect();
    Ok(Projection {
        module_name,
        module,
        role_modules,
        erased,
        entries,
        classes: decls
            .classes
            .iter()
            .map(|c| (c.name.clone(), c.roles.clone()))
            .collect(),
    })
}

/// Where the runtime import goes: before the first statement that is not the docstring or a
/// `from __future__` import.
fn header_offset(suite: &[Stmt]) -> TextSize {
    for (i, s) in suite.iter().enumerate() {
        let skip = match s {
            Stmt::Expr(e) => i == 0 && e.value.is_string_literal_expr(),
            Stmt::ImportFrom(f) => f
                .module
                .as_ref()
                .is_some_and(|m| m.as_str() == "__future__"),
            _ => false,
        };
        if !skip {
            return s.range().start();
        }
    }
    suite.last().map_or(TextSize::new(0), |s| s.range().end())
}

/// The names of the projected classes reachable from `roots` (by the class names each class's
/// text mentions).
fn reachable(
    projected: &[(TextRange, String, String, String)],
    roots: Vec<String>,
) -> ranklift_python::fxhash::FastSet<String> {
    let names: ranklift_python::fxhash::FastSet<String> = projected
        .iter()
        .map(|(_, c, r, _)| format!("{c}_{r}"))
        .collect();
    let mut seen: ranklift_python::fxhash::FastSet<String> = roots.iter().cloned().collect();
    let mut todo = roots;
    while let Some(n) = todo.pop() {
        let Some((_, _, _, t)) = projected
            .iter()
            .find(|(_, c, r, _)| format!("{c}_{r}") == n)
        else {
            continue;
        };
        for word in t.split(|ch: char| !(ch.is_ascii_alphanumeric() || ch == '_')) {
            if names.contains(word) && seen.insert(word.to_owned()) {
                todo.push(word.to_owned());
            }
        }
    }
    seen
}

/// The projected module: module-level code kept, each role class replaced by its projections
/// whose names `keep` accepts.
fn assemble(
    path: &str,
    text: &str,
    suite: &[Stmt],
    decls: &decls::Decls,
    projected: &[(TextRange, String, String, String)],
    keep: &dyn Fn(&str) -> bool,
) -> Result<String, String> {
    let mut edits = Vec::new();
    let file = std::path::Path::new(path)
        .file_name()
        .and_then(|s| s.to_str())
        .unwrap_or(path);
    edits.push(Edit::insert(
        header_offset(suite),
        format!(
            "# Projected by `ranklift choreo project` from {file}: one class per role. Do not edit.\nimport pychoral_rt as rt\nfrom pychoral_rt import Unit\n"
        ),
    ));
    for r in &decls.pychoral_imports {
        let t = &text[*r];
        edits.push(Edit::replace(*r, t.replacen("pychoral", "pychoral_rt", 1)));
    }
    for class in &decls.classes {
        let parts: Vec<&str> = projected
            .iter()
            .filter(|(r, c, role, _)| {
                *r == class.def.range && c == &class.name && keep(&format!("{c}_{role}"))
            })
            .map(|(_, _, _, t)| t.trim_end())
            .collect();
        let t = if parts.is_empty() {
            format!("# ({} projected to other roles only)", class.name)
        } else {
            parts.join("\n\n\n")
        };
        edits.push(Edit::replace(class.def.range, t));
    }
    let segments = verbatim_lines(text, &edits);
    let mut out = edit::apply(text, &edits)
        .map_err(|e| format!("internal error while assembling the projection: {e:?}"))?;
    if !out.ends_with('\n') {
        out.push('\n');
    }
    let roles: Vec<String> = decls
        .classes
        .iter()
        .map(|c| {
            let rs: Vec<String> = c.roles.iter().map(|r| format!("{r:?}")).collect();
            format!("{:?}: [{}]", c.name, rs.join(", "))
        })
        .collect();
    out.push_str(&format!("\n\n# The roles of each choreography (read by pychoral_rt's runners).\n__pychoral_roles__ = {{{}}}\n", roles.join(", ")));
    // Where the projection's lines come from (pychoral_rt maps traceback frames with it): the
    // choreography's path, and the runs of lines copied from it unchanged as (first line here,
    // first line there, count); the projected methods carry `# L<n>` marks instead.
    let source = std::path::absolute(path)
        .map(|p| p.display().to_string())
        .unwrap_or_else(|_| path.to_owned());
    let segs: Vec<String> = segments
        .iter()
        .map(|(a, b, n)| format!("({a}, {b}, {n})"))
        .collect();
    out.push_str(&format!(
        "__pychoral_source__ = {source:?}\n__pychoral_lines__ = [{}]\n",
        segs.join(", ")
    ));
    ranklift_python::parse::parses(&out).map_err(|e| {
        format!("internal error: the projection does not parse ({e}); please report this")
    })?;
    Ok(out)
}

/// The whole lines of `text` that `edits` leave as they are, as runs (first line in the edited
/// text, first line in `text`, count), 1-based.
fn verbatim_lines(text: &str, edits: &[Edit]) -> Vec<(usize, usize, usize)> {
    let mut sorted: Vec<&Edit> = edits.iter().collect();
    sorted.sort_by_key(|e| (e.range.start(), e.order));
    let lines = |t: &str| t.matches('\n').count();
    let mut runs = Vec::new();
    let (mut at, mut out_line) = (0usize, 1usize);
    let mut copy = |from: usize, to: usize, out_line: &mut usize| {
        let seg = &text[from..to];
        // Only whole lines: skip the rest of a line an edit ended in.
        let skip = if from == 0 || text.as_bytes()[from - 1] == b'\n' {
            0
        } else {
            seg.find('\n').map_or(seg.len(), |i| i + 1)
        };
        let first_out = *out_line + lines(&seg[..skip]);
        let n = lines(&seg[skip..]);
        if n > 0 {
            runs.push((first_out, lines(&text[..from + skip]) + 1, n));
        }
        *out_line += lines(seg);
    };
    for e in sorted {
        let start = usize::from(e.range.start());
        if start < at {
            continue;
        }
        copy(at, start, &mut out_line);
        out_line += lines(&e.text);
        at = usize::from(e.range.end());
    }
    copy(at, text.len(), &mut out_line);
    runs
}

/// The role-erased program: `e @ R` → `e`, `C[R...](...)`/`C[R...].m` → `C(...)`/`C.m`,
/// `At[T, R]` → `T`, `Channel[T, A, B]` → `ErasedChannel`, `class C(ChN[...])` → `class C`; then
/// a `__main__` block that runs an entry (`python3 x_erased.py [Class]`). Lines keep their
/// numbers, so what mypy reports on the erased program points into the choreography.
fn erase(
    text: &str,
    suite: &[Stmt],
    decls: &decls::Decls,
    facts: &locate::Facts,
) -> Result<String, String> {
    use ruff_python_ast::visitor::{self, Visitor};
    struct E<'a, 'b> {
        text: &'b str,
        decls: &'b decls::Decls<'a>,
        facts: &'b locate::Facts,
        edits: Vec<Edit>,
    }
    impl<'x> Visitor<'x> for E<'_, '_> {
        fn visit_expr(&mut self, e: &'x Expr) {
            match e {
                Expr::BinOp(b)
                    if b.op == ruff_python_ast::Operator::MatMult
                        && (matches!(
                            self.facts.specials.get(&locate::key(e.range())),
                            Some(locate::Special::At { .. })
                        ) || matches!(&*b.right, Expr::Name(n)
                            if self.decls.roles.contains_key(n.id.as_str()))) =>
                {
                    // Keep the left operand (with its parentheses), drop `@ R`.
                    let inner =
                        &self.text[TextRange::new(e.range().start(), b.right.range().start())];
                    let t = inner.trim_end();
                    let t = t.strip_suffix('@').unwrap_or(t).trim_end();
                    self.edits.push(Edit::delete(TextRange::new(
                        e.range().start() + TextSize::new(t.len() as u32),
                        e.range().end(),
                    )));
                    self.visit_expr(&b.left);
                    return;
                }
                Expr::Subscript(s) => {
                    if let Expr::Name(n) = &*s.value {
                        let name = n.id.as_str();
                        if matches!(name, "Channel" | "DiChannel") {
                            self.edits.push(Edit::replace(s.range, "ErasedChannel"));
                            return;
                        }
                        if self.decls.class(name).is_some() {
                            self.edits.push(Edit::delete(TextRange::new(
                                s.value.range().end(),
                                s.range.end(),
                            )));
                            return;
                        }
                        if let Some((ty, _)) = decls::at_parts(e) {
                            self.edits.push(Edit::delete(TextRange::new(
                                s.range.start(),
                                ty.range().start(),
                            )));
                            self.edits.push(Edit::delete(TextRange::new(
                                ty.range().end(),
                                s.range.end(),
                            )));
                            self.visit_expr(ty);
                            return;
                        }
                    }
                }
                // A quoted located type (`-> "Mirror[B, A]"`): erased inside the quotes.
                Expr::StringLiteral(lit) => {
                    let inner = lit.value.to_str();
                    if let Ok(parsed) = ruff_python_parser::parse_expression(inner) {
                        let mut nested = E {
                            text: inner,
                            decls: self.decls,
                            facts: self.facts,
                            edits: Vec::new(),
                        };
                        nested.visit_expr(parsed.expr());
                        if !nested.edits.is_empty()
                            && let Ok(erased) = edit::apply(inner, &nested.edits)
                        {
                            self.edits
                                .push(Edit::replace(lit.range, format!("{erased:?}")));
                        }
                    }
                    return;
                }
                _ => {}
            }
            visitor::walk_expr(self, e);
        }
    }
    let mut v = E {
        text,
        decls,
        facts,
        edits: Vec::new(),
    };
    for s in suite {
        if let Stmt::ClassDef(c) = s
            && decls.class(c.name.as_str()).is_some()
        {
            // `class C(Ch2[A, B]):` → `class C:` (mypy rejects roles as types);
            // `class Sub(Base[A, B]):` → `class Sub(Base):`.
            let parent = decls.class(c.name.as_str()).and_then(|k| k.parent.clone());
            if let Some(args) = &c.arguments {
                if let Some(p) = parent {
                    v.edits.push(Edit::replace(args.range, format!("({p})")));
                } else if args.args.len() == 1 && args.keywords.is_empty() {
                    v.edits.push(Edit::delete(args.range));
                } else if let Some(b) = args.args.iter().find(|b| {
                    matches!(b, Expr::Subscript(s) if matches!(&*s.value, Expr::Name(n)
                        if n.id.as_str() == "Choreography" || n.id.as_str().starts_with("Ch")))
                }) {
                    v.edits.push(Edit::replace(b.range(), "object"));
                }
            }
            for b in &c.body {
                v.visit_stmt(b);
            }
        }
    }
    for r in &decls.pychoral_imports {
        let t = &text[*r];
        v.edits.push(Edit::replace(
            *r,
            format!(
                "{}; from pychoral_rt import ErasedChannel",
                t.replacen("pychoral", "pychoral_rt", 1)
            ),
        ));
    }
    let mut out = edit::apply(text, &v.edits)
        .map_err(|e| format!("internal error while erasing roles: {e:?}"))?;
    let entries: Vec<String> = decls
        .classes
        .iter()
        .flat_map(|c| {
            c.methods
                .iter()
                .filter(|m| m.is_entry)
                .map(move |m| format!("{:?}: {}.{}", c.name, c.name, m.name))
        })
        .collect();
    if !out.ends_with('\n') {
        out.push('\n');
    }
    if let Some(first) = decls
        .classes
        .iter()
        .find(|c| c.methods.iter().any(|m| m.is_entry))
    {
        out.push_str(&format!(
            "\n\nif __name__ == \"__main__\":  # role-erased reference run (added by ranklift choreo)\n    import sys\n    _entries = {{{}}}\n    _entries[sys.argv[1] if len(sys.argv) > 1 else {:?}]()\n",
            entries.join(", "),
            first.name
        ));
    }
    ranklift_python::parse::parses(&out).map_err(|e| {
        format!("internal error: the erased program does not parse ({e}); please report this")
    })?;
    Ok(out)
}
