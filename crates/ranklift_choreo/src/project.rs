//! Endpoint projection (note §3.4): one class `C_R` per role class `C` and role `R`.
//!
//! Expressions a role keeps are source text, spliced where a communication, a choreographic call or
//! `e @ R` inside them changes; everything a role does not hold becomes `Unit.id(effects)`, which
//! the normaliser reduces. An `if` whose condition another role holds is projected by merging its
//! branches; a merge failure is a knowledge-of-choice error (E-KOC).

use ruff_python_ast::{self as ast, Expr, Stmt};
use ruff_text_size::{Ranged, TextRange, TextSize};

use crate::Problem;
use crate::codes::{E_KOC, E_SHORT};
use crate::decls::{ClassDecl, Decls, MethodDecl};
use crate::ir::{self, MergeError, PArg, PE, S, SK, VLine, norm, push_expr};
use crate::loc::Loc;
use crate::locate::{Facts, Special, Target, arg_exprs, children, key};

/// Project role class `class` to its formal role `x`: the text of `class C_x`.
pub fn project_class(
    src: &str,
    d: &Decls,
    facts: &Facts,
    class: &ClassDecl,
    x: &str,
    problems: &mut Vec<Problem>,
) -> String {
    let mut out = format!(
        "class {}_{x}:\n    \"\"\"Role {x} of `{}` (projected by ranklift choreo).\"\"\"\n",
        class.name, class.name
    );
    let lines = ruff_source_file::LineIndex::from_source_text(src);
    for m in &class.methods {
        let roles = facts
            .method_roles
            .get(&(class.name.clone(), m.name.clone()));
        if m.name != "__init__" && !roles.is_some_and(|r| r.contains(x)) {
            continue;
        }
        let mut px = Px {
            src,
            d,
            f: facts,
            class,
            method: m,
            x,
            problems: &mut *problems,
        };
        let body = ir::drop_trailing_return(norm(px.block(&m.def.body)));
        out.push('\n');
        if m.is_static {
            out.push_str("    @staticmethod\n");
        }
        if m.is_entry {
            out.push_str("    @rt.entry\n");
        }
        let mut params: Vec<String> = Vec::new();
        if !m.is_static {
            params.push("self".to_owned());
        }
        params.extend(
            m.params
                .iter()
                .filter(|p| p.loc.mentions(x))
                .map(|p| match p.default {
                    Some(r) => format!("{}={}", p.name, &src[r]),
                    None => p.name.clone(),
                }),
        );
        out.push_str(&format!("    def {}({}):\n", m.name, params.join(", ")));
        let line_of = |r: TextRange| lines.line_index(r.start()).get();
        ir::emit_block(&mut out, &body, 2, Some(&line_of));
    }
    out
}

struct Px<'a, 'd> {
    src: &'d str,
    d: &'d Decls<'a>,
    f: &'d Facts,
    class: &'d ClassDecl<'a>,
    method: &'d MethodDecl<'a>,
    x: &'d str,
    problems: &'d mut Vec<Problem>,
}

/// Is evaluating `e` free of effects (a literal, a name, an attribute chain on a name)?
fn is_noop_expr(e: &Expr) -> bool {
    match e {
        Expr::Name(_) => true,
        Expr::Attribute(a) => is_noop_expr(&a.value),
        e => e.is_literal_expr(),
    }
}

impl Px<'_, '_> {
    fn text(&self, r: TextRange) -> &str {
        &self.src[r]
    }

    fn ctx(&self) -> String {
        format!("{}.{} at {}", self.class.name, self.method.name, self.x)
    }

    fn here(&self, l: &Loc) -> bool {
        match l {
            Loc::Every | Loc::Unknown => true,
            Loc::NoValue => false,
            l => l.mentions(self.x),
        }
    }

    // ----- expressions -------------------------------------------------------------------

    fn pe(&mut self, e: &Expr) -> PE {
        if let Some(sp) = self.f.specials.get(&key(e.range())) {
            return self.special(e, &sp.clone());
        }
        let loc = self.f.loc(e);
        if loc == Loc::Every {
            // Role-free expressions are pure: computing them has no effect to keep.
            return PE::Text(self.splice(e), true);
        }
        if self.here(&loc) {
            return PE::Text(self.splice(e), is_noop_expr(e));
        }
        if is_noop_expr(e) {
            return PE::Unit;
        }
        let kids = children(e);
        let mut effects = Vec::new();
        for k in kids {
            if self.f.loc(k) != Loc::Every || self.f.has_special.contains(&key(k.range())) {
                effects.push(self.pe(k));
            }
        }
        PE::unit_call(effects)
    }

    /// The source of `e`, with each child that contains a special node replaced by its projection.
    fn splice(&mut self, e: &Expr) -> String {
        if !self.f.has_special.contains(&key(e.range())) {
            return self.text(e.range()).to_owned();
        }
        let start = e.range().start();
        let mut text = self.text(e.range()).to_owned();
        let mut edits: Vec<(TextRange, String)> = Vec::new();
        for k in children(e) {
            if self.f.has_special.contains(&key(k.range())) {
                let t = self.pe(k).text();
                edits.push((k.range(), t));
            }
        }
        for (r, t) in edits.into_iter().rev() {
            let a = usize::from(r.start() - start);
            let b = usize::from(r.end() - start);
            text.replace_range(a..b, &t);
        }
        text
    }

    fn special(&mut self, e: &Expr, sp: &Special) -> PE {
        let x = self.x.to_owned();
        match sp {
            Special::At { role, inner } => {
                if *role != x {
                    return PE::Unit;
                }
                let t = self.text(*inner).trim_end();
                let t = t.strip_suffix('@').unwrap_or(t).trim_end().to_owned();
                let noop = match e {
                    Expr::BinOp(b) => is_noop_expr(&b.left),
                    _ => false,
                };
                PE::Text(t, noop)
            }
            Special::Com {
                chan,
                arg,
                sender,
                receiver,
            } => {
                let Expr::Call(c) = e else { return PE::Unit };
                let arg_e = &c.arguments.args[0];
                debug_assert_eq!(arg_e.range(), *arg);
                let chan = self.text(*chan).to_owned();
                let a = self.pe(arg_e);
                if *sender == x {
                    PE::Send {
                        chan,
                        kind: "com",
                        arg: Box::new(a),
                    }
                } else if *receiver == x {
                    PE::Recv {
                        chan,
                        kind: "com",
                        effects: a.effects(),
                    }
                } else {
                    PE::unit_call(vec![a])
                }
            }
            Special::Select { .. } => PE::Unit,
            Special::Open { name, a, b, ty } => {
                let name = format!("{name:?}");
                // The channel checks what it receives against its declared value type.
                let ty = ty.as_ref().map_or(String::new(), |t| format!(", {t}"));
                if *a == x {
                    PE::Text(format!("rt.open_channel({name}, {a:?}, {b:?}{ty})"), false)
                } else if *b == x {
                    PE::Text(format!("rt.open_channel({name}, {b:?}, {a:?}{ty})"), false)
                } else {
                    PE::Unit
                }
            }
            Special::Call {
                class,
                method,
                roles,
                target,
            } => {
                let Expr::Call(c) = e else { return PE::Unit };
                let d = self.d;
                let callee_class = d.class(class).expect("checked");
                let m = callee_class.method(method).expect("checked");
                if let Some(i) = roles.iter().position(|r| *r == x) {
                    let formal = callee_class.roles[i].clone();
                    let involved = self
                        .f
                        .method_roles
                        .get(&(class.clone(), method.clone()))
                        .is_some_and(|s| s.contains(&formal));
                    if involved {
                        let callee = match target {
                            Target::SelfM => format!("self.{method}"),
                            Target::Obj(r) => {
                                let Expr::Attribute(a) = &*c.func else {
                                    return PE::Unit;
                                };
                                debug_assert_eq!(a.value.range(), *r);
                                format!("{}.{method}", self.pe(&a.value).text())
                            }
                            Target::Static => format!("{class}_{formal}.{method}"),
                        };
                        let args = self.args(c, &m.params, &formal);
                        return PE::Call { callee, args };
                    }
                }
                let mut effects = Vec::new();
                if let (Target::Obj(_), Expr::Attribute(a)) = (target, &*c.func) {
                    effects.push(self.pe(&a.value));
                }
                for a in arg_exprs(c) {
                    effects.push(self.pe(a));
                }
                PE::unit_call(effects)
            }
            Special::Ctor { class, roles } => {
                let Expr::Call(c) = e else { return PE::Unit };
                let d = self.d;
                let callee_class = d.class(class).expect("checked");
                if let Some(i) = roles.iter().position(|r| *r == x) {
                    let formal = callee_class.roles[i].clone();
                    let params: &[crate::decls::Param] =
                        callee_class.method("__init__").map_or(&[], |m| &m.params);
                    let args = self.args(c, params, &formal);
                    return PE::Call {
                        callee: format!("{class}_{formal}"),
                        args,
                    };
                }
                let effects = arg_exprs(c).into_iter().map(|a| self.pe(a)).collect();
                PE::unit_call(effects)
            }
        }
    }

    /// Arguments of a choreographic call at formal role `formal` of the callee: parameters that
    /// live there are passed (positionally or by name, as written), the others are erased with
    /// their effects kept in place (`*rt.effects(...)`, `**rt.kw_effects(...)`).
    fn args(
        &mut self,
        c: &ast::ExprCall,
        params: &[crate::decls::Param],
        formal: &str,
    ) -> Vec<PArg> {
        let mut out = Vec::new();
        for (a, p) in c.arguments.args.iter().zip(params) {
            let v = self.pe(a);
            if p.loc.mentions(formal) {
                out.push(PArg::Pos(v));
            } else {
                let eff = v.effects();
                if !eff.is_empty() {
                    out.push(PArg::Effects(eff));
                }
            }
        }
        for k in c.arguments.keywords.iter() {
            let name = k.arg.as_ref().map_or("", |n| n.as_str());
            let v = self.pe(&k.value);
            if params
                .iter()
                .any(|p| p.name == name && p.loc.mentions(formal))
            {
                out.push(PArg::Kw(name.to_owned(), v));
            } else {
                let eff = v.effects();
                if !eff.is_empty() {
                    out.push(PArg::KwEffects(eff));
                }
            }
        }
        out
    }

    // ----- statements ------------------------------------------------------------------------

    fn block(&mut self, stmts: &[Stmt]) -> Vec<S> {
        let mut out = Vec::new();
        for (i, s) in stmts.iter().enumerate() {
            if let Stmt::Expr(xs) = s
                && let Some(Special::Select {
                    chan,
                    label,
                    sender,
                    receiver,
                }) = self.f.specials.get(&key(xs.value.range()))
            {
                let chan = self.text(*chan).to_owned();
                if sender == self.x {
                    out.push(S::new(
                        SK::Expr(PE::Send {
                            chan,
                            kind: "select",
                            arg: Box::new(PE::Text(label.clone(), true)),
                        }),
                        s.range(),
                    ));
                } else if receiver == self.x {
                    let rest = norm(self.block(&stmts[i + 1..]));
                    let scrut = PE::Recv {
                        chan,
                        kind: "select",
                        effects: Vec::new(),
                    };
                    out.push(S::new(
                        SK::Match(scrut, vec![(label.clone(), rest)], self.ctx()),
                        s.range(),
                    ));
                    return out;
                }
                continue;
            }
            self.stmt(s, &mut out);
        }
        out
    }

    fn assign(&mut self, out: &mut Vec<S>, target: &Expr, op: &str, value: &Expr, span: TextRange) {
        let tl = self
            .f
            .targets
            .get(&key(target.range()))
            .cloned()
            .unwrap_or_else(|| self.f.loc(target));
        let v = self.pe(value);
        if self.here(&tl) {
            let t = self.text(target.range()).to_owned();
            out.push(S::new(SK::Assign(t, op.to_owned(), v), span));
        } else {
            push_expr(out, v, span);
        }
    }

    /// The statement's source, dedented, with `exprs` replaced by their projections. Lines that
    /// continue a multi-line string literal are kept exactly as written (marked `raw`).
    fn verbatim(&mut self, s: &Stmt, exits: bool, exprs: &[&Expr]) -> SK {
        /// Marks the start of a raw line while the text is being edited (Python source cannot
        /// contain NUL, and a source that does gets no marks).
        const MARK: char = '\0';
        let r = s.range();
        let start = usize::from(r.start());
        let line_start = self.src[..start].rfind('\n').map_or(0, |i| i + 1);
        let prefix = self.src[line_start..start].to_owned();
        let mut src = self.text(r).to_owned();
        // Edits from the end backwards so earlier offsets stay valid: projections of special
        // expressions, and a mark at every line start inside a string literal.
        let mut edits: Vec<(usize, usize, String)> = Vec::new();
        for e in exprs {
            if self.f.has_special.contains(&key(e.range())) {
                let t = self.pe(e).text();
                let a = usize::from(e.range().start()) - start;
                let b = usize::from(e.range().end()) - start;
                edits.push((a, b, t));
            }
        }
        // `x: At[T, R] = ...` → `x: T = ...` (the role module knows no roles).
        for ann in crate::locate::collect_annotations(s) {
            if let Some((ty, _)) = crate::decls::at_parts(ann) {
                let a = usize::from(ann.range().start()) - start;
                let b = usize::from(ann.range().end()) - start;
                edits.push((a, b, self.text(ty.range()).to_owned()));
            }
        }
        if !src.contains(MARK) {
            for sr in string_ranges(s) {
                let (a, b) = (
                    usize::from(sr.start()) - start,
                    usize::from(sr.end()) - start,
                );
                for (i, _) in src[a..b].match_indices('\n') {
                    let at = a + i + 1;
                    if !edits.iter().any(|(x, y, _)| *x < at && at < *y) {
                        edits.push((at, at, MARK.to_string()));
                    }
                }
            }
        }
        edits.sort_by_key(|e| std::cmp::Reverse((e.0, e.1)));
        for (a, b, t) in edits {
            src.replace_range(a..b, &t);
        }
        let mut lines = Vec::new();
        for (i, l) in src.split('\n').enumerate() {
            let l = l.strip_suffix('\r').unwrap_or(l);
            if let Some(raw) = l.strip_prefix(MARK) {
                lines.push(VLine {
                    text: raw.to_owned(),
                    raw: true,
                });
            } else {
                let text = if i > 0 {
                    l.strip_prefix(prefix.as_str()).unwrap_or(l)
                } else {
                    l
                };
                lines.push(VLine {
                    text: text.to_owned(),
                    raw: false,
                });
            }
        }
        SK::Verbatim { lines, exits }
    }

    fn koc(
        &mut self,
        at: TextRange,
        what: &str,
        cond_role: &str,
        err: MergeError,
        branches: [(&str, TextRange); 2],
        first_stmts: Option<[TextSize; 2]>,
    ) {
        let x = self.x;
        let (l1, l2, declare) = self.label_pair();
        // The quick fix: the same selections as the hint, as the first statements of both
        // branches (when both exist and the labels need no new declaration).
        let mut selections: Option<[Vec<String>; 2]> = None;
        let (b1, b2) = if what == "while" {
            (
                "the loop body",
                "an `else:` clause (run when the loop ends)",
            )
        } else {
            ("the `if` branch", "the `else` branch")
        };
        let hint = if let Some(ch) = self.channel_between(cond_role, x) {
            selections = Some([
                vec![format!("{ch}.select({l1} @ {cond_role})")],
                vec![format!("{ch}.select({l2} @ {cond_role})")],
            ]);
            format!(
                "inform {x}: start {b1} with `{ch}.select({l1} @ {cond_role})` and {b2} with `{ch}.select({l2} @ {cond_role})` (or forward the choice through a role that already knows){declare}"
            )
        } else if let Some((c1, w, c2)) = self.forwarder(cond_role, x) {
            selections = Some([
                vec![
                    format!("{c1}.select({l1} @ {cond_role})"),
                    format!("{c2}.select({l1} @ {w})"),
                ],
                vec![
                    format!("{c1}.select({l2} @ {cond_role})"),
                    format!("{c2}.select({l2} @ {w})"),
                ],
            ]);
            format!(
                "forward the choice to {x} through {w}: start {b1} with `{c1}.select({l1} @ {cond_role})` then `{c2}.select({l1} @ {w})`, and {b2} with `{c1}.select({l2} @ {cond_role})` then `{c2}.select({l2} @ {w})`{declare}"
            )
        } else {
            format!(
                "send `ch.select(Enum.LABEL @ {cond_role})` to {x} (directly, or forwarded by a role that already knows) before {x}'s first action in each branch, with different labels; no channel between {cond_role} and {x} is in scope here"
            )
        };
        let mut p = Problem::new(
            at,
            E_KOC,
            format!(
                "role `{x}` cannot tell which branch of this `{what}` was taken (the condition is at {cond_role})"
            ),
            hint,
        );
        if let (Some(sel), Some(at), "") = (selections, first_stmts, declare) {
            let edits = sel
                .iter()
                .zip(at)
                .map(|(lines, at)| {
                    let start = usize::from(at);
                    let line_start = self.src[..start].rfind('\n').map_or(0, |i| i + 1);
                    let indent = &self.src[line_start..start];
                    let indent = if indent.trim().is_empty() { indent } else { "" };
                    let text: String = lines.iter().map(|l| format!("{l}\n{indent}")).collect();
                    (TextRange::empty(at), text)
                })
                .collect();
            p.fix = Some(ranklift_python::diagnostics::Fix {
                title: format!("Inform {x} of the branch with `select`"),
                edits,
            });
        }
        for ((name, fallback), span) in branches.into_iter().zip([err.left, err.right]) {
            match span {
                Some(s) => p.notes.push((
                    s,
                    format!("{x}'s first different action in the {name} branch"),
                )),
                None => p.notes.push((
                    fallback,
                    format!("{x} does nothing more in the {name} branch"),
                )),
            }
        }
        self.problems.push(p);
    }

    /// A channel over which `from` can send to `to`, as the code names it here (a field or a
    /// parameter of the method being projected).
    fn channel_between(&self, from: &str, to: &str) -> Option<String> {
        let fits = |l: &Loc| match l {
            Loc::Chan { a, b, di } => (a == from && b == to) || (!di && a == to && b == from),
            _ => false,
        };
        if let Some(p) = self.method.params.iter().find(|p| fits(&p.loc)) {
            return Some(p.name.clone());
        }
        // A channel the method opened itself (`ch: Channel[T, A, B] = Channel.open("ab")` in
        // an `@entry` method), bound by a plain name anywhere in its body.
        let mut local = None;
        ruff_python_ast::statement_visitor::walk_body(
            &mut LocalChannels {
                f: self.f,
                fits: &fits,
                found: &mut local,
            },
            &self.method.def.body,
        );
        if local.is_some() {
            return local;
        }
        if self.method.is_static {
            return None;
        }
        self.class
            .fields
            .iter()
            .find(|(_, l)| fits(l))
            .map(|(f, _)| format!("self.{f}"))
    }

    /// A role `w` and channels `from → w` and `w → to` in scope: (channel 1, w, channel 2).
    fn forwarder(&self, from: &str, to: &str) -> Option<(String, String, String)> {
        self.class
            .roles
            .iter()
            .filter(|w| *w != from && *w != to)
            .find_map(|w| {
                let c1 = self.channel_between(from, w)?;
                let c2 = self.channel_between(w, to)?;
                Some((c1, w.clone(), c2))
            })
    }

    /// Two labels to suggest: the first two members of an enum of the module (by name), or new
    /// ones with a note to declare them.
    fn label_pair(&self) -> (String, String, &'static str) {
        let mut enums: Vec<(&String, &Vec<String>)> =
            self.d.enums.iter().filter(|(_, m)| m.len() >= 2).collect();
        enums.sort();
        match enums.first() {
            Some((e, m)) => (format!("{e}.{}", m[0]), format!("{e}.{}", m[1]), ""),
            None => (
                "Choice.YES".to_owned(),
                "Choice.NO".to_owned(),
                "; declare `class Choice(Enum): YES = \"YES\"; NO = \"NO\"`",
            ),
        }
    }

    fn if_stmt(
        &mut self,
        out: &mut Vec<S>,
        test: &Expr,
        body: &[Stmt],
        rest: &[ast::ElifElseClause],
        span: TextRange,
    ) {
        let c = self.f.loc(test);
        let then_b = self.block(body);
        let (else_b, else_span) = match rest.split_first() {
            None => (Vec::new(), span),
            Some((cl, more)) => match &cl.test {
                None => (
                    self.block(&cl.body),
                    cl.body.first().map_or(cl.range, |s| s.range()),
                ),
                Some(t) => {
                    let mut v = Vec::new();
                    self.if_stmt(&mut v, t, &cl.body, more, cl.range);
                    (v, cl.range)
                }
            },
        };
        let cond = self.pe(test);
        match c {
            Loc::At(ref r) if r != self.x => {
                push_expr(out, cond, test.range());
                match ir::merge(norm(then_b), norm(else_b)) {
                    Ok(m) => out.extend(m),
                    Err(err) => {
                        let then_span = body.first().map_or(span, |s| s.range());
                        let r = r.clone();
                        // Both branches written out: `if ...:` and a plain `else:`.
                        let else_first = match rest {
                            [only] if only.test.is_none() => only.body.first(),
                            _ => None,
                        };
                        let first_stmts = body
                            .first()
                            .zip(else_first)
                            .map(|(a, b)| [a.start(), b.start()]);
                        self.koc(
                            TextRange::new(span.start(), test.range().end()),
                            "if",
                            &r,
                            err,
                            [("`if`", then_span), ("`else`", else_span)],
                            first_stmts,
                        );
                    }
                }
            }
            _ => out.push(S::new(SK::If(cond, then_b, else_b), span)),
        }
    }

    fn stmt(&mut self, s: &Stmt, out: &mut Vec<S>) {
        let span = s.range();
        match s {
            Stmt::Expr(x) => {
                let v = self.pe(&x.value);
                push_expr(out, v, span);
            }
            Stmt::AnnAssign(a) => {
                if let Some(v) = &a.value {
                    self.assign(out, &a.target, "=", v, span);
                }
            }
            Stmt::Assign(a) => self.assign(out, &a.targets[0], "=", &a.value, span),
            Stmt::AugAssign(a) => {
                let between = TextRange::new(a.target.range().end(), a.value.range().start());
                let op = self.text(between).trim().to_owned();
                self.assign(out, &a.target, &op, &a.value, span);
            }
            Stmt::Return(r) => match &r.value {
                None => out.push(S::new(SK::Return(None), span)),
                Some(v) => {
                    let p = self.pe(v);
                    if self.method.ret.mentions(self.x) {
                        out.push(S::new(SK::Return(Some(p)), span));
                    } else {
                        push_expr(out, p, span);
                        out.push(S::new(SK::Return(None), span));
                    }
                }
            },
            Stmt::If(i) => self.if_stmt(out, &i.test, &i.body, &i.elif_else_clauses, span),
            Stmt::While(w) => {
                let c = self.f.loc(&w.test);
                match c {
                    Loc::At(ref r) if r != self.x => {
                        let r = r.clone();
                        let cond = self.pe(&w.test);
                        if !cond.effects().is_empty() {
                            self.problems.push(Problem::new(
                                w.test.range(),
                                E_SHORT,
                                format!("the condition of this `while` communicates with {}", self.x),
                                "receive the value into a variable before the loop and at the end of its body",
                            ));
                            return;
                        }
                        let mut body = self.block(&w.body);
                        let orelse = self.block(&w.orelse);
                        if norm(body.clone()).is_empty() && norm(orelse.clone()).is_empty() {
                            return;
                        }
                        ir::append_tail(&mut body, S::new(SK::Again, w.range));
                        let then_span = w.body.first().map_or(span, |s| s.range());
                        let else_span = w.orelse.first().map_or(span, |s| s.range());
                        match ir::merge(norm(body), norm(orelse)) {
                            Err(err) => self.koc(
                                TextRange::new(span.start(), w.test.range().end()),
                                "while",
                                &r,
                                err,
                                [("loop body", then_span), ("exit", else_span)],
                                w.body
                                    .first()
                                    .zip(w.orelse.first())
                                    .map(|(a, b)| [a.start(), b.start()]),
                            ),
                            Ok(m) => {
                                let closed = (m.len() == 1 && matches!(m[0].kind, SK::Match(..)))
                                    .then(|| ir::close_loop(m))
                                    .flatten();
                                match closed {
                                    Some(b) => out.push(S::new(SK::Loop(b), span)),
                                    None => {
                                        let x = self.x.to_owned();
                                        self.problems.push(Problem::new(
                                            TextRange::new(span.start(), w.test.range().end()),
                                            E_KOC,
                                            format!("role `{x}` cannot tell whether this loop (its condition is at {r}) goes on or stops"),
                                            format!("start the loop body and the code after it by informing {x}: `ch.select(Enum.LABEL @ {r})` with different labels"),
                                        ));
                                    }
                                }
                            }
                        }
                    }
                    _ => {
                        let cond = self.pe(&w.test);
                        let body = self.block(&w.body);
                        let orelse = self.block(&w.orelse);
                        out.push(S::new(SK::While(cond, body, orelse), span));
                    }
                }
            }
            Stmt::For(f) => {
                let it = self.f.loc(&f.iter);
                let body = self.block(&f.body);
                match it {
                    Loc::At(ref r) if r != self.x => {
                        if !norm(body).is_empty() {
                            let x = self.x.to_owned();
                            self.problems.push(Problem::new(
                                span,
                                E_KOC,
                                format!("role `{x}` cannot tell how many times this loop runs (it iterates over a value at {r})"),
                                format!("iterate over a role-free value, or send the sequence to {x} first"),
                            ));
                        }
                    }
                    _ => {
                        let t = self.text(f.target.range()).to_owned();
                        let i = self.text(f.iter.range()).to_owned();
                        out.push(S::new(SK::For(t, i, body), span));
                    }
                }
                let orelse = self.block(&f.orelse);
                out.extend(orelse);
            }
            Stmt::Raise(_) | Stmt::Assert(_)
                if self
                    .f
                    .stmt_roles
                    .get(&key(span))
                    .is_some_and(|r| r == self.x) =>
            {
                let exprs: Vec<&Expr> = match s {
                    Stmt::Raise(r) => r.exc.iter().chain(r.cause.iter()).map(|b| &**b).collect(),
                    Stmt::Assert(a) => std::iter::once(&*a.test)
                        .chain(a.msg.iter().map(|b| &**b))
                        .collect(),
                    _ => Vec::new(),
                };
                let kind = self.verbatim(s, matches!(s, Stmt::Raise(_)), &exprs);
                out.push(S::new(kind, span));
            }
            Stmt::Try(_) | Stmt::Match(_)
                if self
                    .f
                    .local_stmts
                    .get(&key(span))
                    .is_some_and(|r| r == self.x) =>
            {
                let kind = self.verbatim(s, false, &[]);
                out.push(S::new(kind, span));
            }
            _ => {}
        }
    }
}

/// The ranges of the string, bytes, f- and t-string literals in a statement (outermost only).
fn string_ranges(s: &Stmt) -> Vec<TextRange> {
    use ruff_python_ast::visitor::{Visitor, walk_expr};
    struct Strings(Vec<TextRange>);
    impl<'a> Visitor<'a> for Strings {
        fn visit_expr(&mut self, e: &'a Expr) {
            match e {
                Expr::StringLiteral(_)
                | Expr::BytesLiteral(_)
                | Expr::FString(_)
                | Expr::TString(_) => self.0.push(e.range()),
                _ => walk_expr(self, e),
            }
        }
    }
    let mut v = Strings(Vec::new());
    v.visit_stmt(s);
    v.0
}

/// Finds the first name bound to a channel that fits (see `Px::channel_between`).
struct LocalChannels<'f, 'p> {
    f: &'f Facts,
    fits: &'p dyn Fn(&Loc) -> bool,
    found: &'p mut Option<String>,
}

impl<'a> ruff_python_ast::statement_visitor::StatementVisitor<'a> for LocalChannels<'_, '_> {
    fn visit_stmt(&mut self, stmt: &'a Stmt) {
        if self.found.is_some() {
            return;
        }
        let target = match stmt {
            Stmt::AnnAssign(a) => Some(&*a.target),
            Stmt::Assign(a) if a.targets.len() == 1 => a.targets.first(),
            _ => None,
        };
        if let Some(Expr::Name(n)) = target
            && self
                .f
                .targets
                .get(&key(n.range))
                .is_some_and(|l| (self.fits)(l))
        {
            *self.found = Some(n.id.to_string());
            return;
        }
        ruff_python_ast::statement_visitor::walk_stmt(self, stmt);
    }
}
