//! The projected program: a small Python IR, its normaliser (note §3.5), merge (§3.6) and the
//! deterministic printer.
//!
//! Expressions a role keeps unchanged stay source text ([`PE::Text`]); only the choreographic
//! parts are structured. Smart constructors normalise as they build, so every value of these types
//! is already in normal form.

use ruff_text_size::TextRange;

/// A projected expression.
#[derive(Clone, Debug, PartialEq)]
pub enum PE {
    /// `Unit.id`: nothing to compute here.
    Unit,
    /// Python source; `noop` if evaluating it has no effect (a literal, a name, an attribute chain).
    Text(String, bool),
    /// `Unit.id(a, b, ...)`: evaluate the arguments for their effects (at least two, none a no-op).
    UnitCall(Vec<PE>),
    /// `chan.com(v)` / `chan.select(v)` at the sender.
    Send {
        chan: String,
        kind: &'static str,
        arg: Box<PE>,
    },
    /// `chan.com()` / `chan.select()` at the receiver; `effects` run first (nested communications).
    Recv {
        chan: String,
        kind: &'static str,
        effects: Vec<PE>,
    },
    /// A call whose arguments may be erased: `callee(a, *rt.effects(b), c)`.
    Call { callee: String, args: Vec<PArg> },
}

#[derive(Clone, Debug, PartialEq)]
pub enum PArg {
    Pos(PE),
    /// An erased argument with effects, evaluated in place: `*rt.effects(e...)`.
    Effects(Vec<PE>),
    /// `name=value`.
    Kw(String, PE),
    /// An erased keyword argument with effects, evaluated in place: `**rt.kw_effects(e...)`.
    KwEffects(Vec<PE>),
}

impl PE {
    pub fn is_noop(&self) -> bool {
        matches!(self, PE::Unit | PE::Text(_, true))
    }

    /// `Unit.id(args)`, normalised: no-op arguments dropped, nested `Unit.id(...)` flattened; no
    /// argument left gives `Unit.id`, one gives that argument.
    pub fn unit_call(args: Vec<PE>) -> PE {
        let mut v = Vec::new();
        for a in args {
            match a {
                PE::UnitCall(inner) => v.extend(inner),
                a if a.is_noop() => {}
                a => v.push(a),
            }
        }
        match v.len() {
            0 => PE::Unit,
            1 => v.pop().expect("one"),
            _ => PE::UnitCall(v),
        }
    }

    /// The effects of this expression as a list (for statements and `*rt.effects(...)`).
    pub fn effects(self) -> Vec<PE> {
        match PE::unit_call(vec![self]) {
            PE::Unit => Vec::new(),
            PE::UnitCall(v) => v,
            e => vec![e],
        }
    }

    pub fn text(&self) -> String {
        match self {
            PE::Unit => "Unit.id".to_owned(),
            PE::Text(s, _) => s.clone(),
            PE::UnitCall(v) => format!("Unit.id({})", join(v)),
            PE::Send { chan, kind, arg } => format!("{chan}.{kind}({})", arg.text()),
            PE::Recv {
                chan,
                kind,
                effects,
            } => {
                if effects.is_empty() {
                    format!("{chan}.{kind}()")
                } else {
                    format!("{chan}.{kind}(Unit.id({}))", join(effects))
                }
            }
            PE::Call { callee, args } => {
                let parts: Vec<String> = args
                    .iter()
                    .map(|a| match a {
                        PArg::Pos(e) => e.text(),
                        PArg::Effects(v) => format!("*rt.effects({})", join(v)),
                        PArg::Kw(k, e) => format!("{k}={}", e.text()),
                        PArg::KwEffects(v) => format!("**rt.kw_effects({})", join(v)),
                    })
                    .collect();
                format!("{callee}({})", parts.join(", "))
            }
        }
    }
}

fn join(v: &[PE]) -> String {
    v.iter().map(PE::text).collect::<Vec<_>>().join(", ")
}

/// A projected statement with the source range it came from (for knowledge-of-choice notes).
#[derive(Clone, Debug)]
pub struct S {
    pub kind: SK,
    pub span: TextRange,
}

#[derive(Clone, Debug)]
pub enum SK {
    Expr(PE),
    /// `target op value` (`op` is `=`, `+=`, ...).
    Assign(String, String, PE),
    Return(Option<PE>),
    /// Source copied as is (possibly several lines, already dedented); `exits` for `raise`.
    Verbatim {
        lines: Vec<VLine>,
        exits: bool,
    },
    If(PE, Vec<S>, Vec<S>),
    While(PE, Vec<S>, Vec<S>),
    For(String, String, Vec<S>),
    /// `match scrut:` with one arm per label; `case _` raising ProtocolError is added on output.
    Match(PE, Vec<(String, Vec<S>)>, String),
    /// `while True:` (a loop driven by another role's selections).
    Loop(Vec<S>),
    /// The point where a `while` body starts over (replaced by `continue` when closing loops).
    Again,
    Continue,
    Break,
}

/// One line of a [`SK::Verbatim`] statement. A `raw` line continues a multi-line string literal:
/// it is printed exactly as written, because indenting it would change the string's value.
#[derive(Clone, Debug, PartialEq)]
pub struct VLine {
    pub text: String,
    pub raw: bool,
}

impl S {
    pub fn new(kind: SK, span: TextRange) -> S {
        S { kind, span }
    }

    /// Does control leave the block after this statement?
    fn exits(&self) -> bool {
        matches!(
            self.kind,
            SK::Return(_) | SK::Verbatim { exits: true, .. } | SK::Continue | SK::Break | SK::Again
        )
    }
}

/// Push `e` as an expression statement: no-ops vanish, `Unit.id(a, b)` becomes `a` and `b`.
pub fn push_expr(out: &mut Vec<S>, e: PE, span: TextRange) {
    for x in e.effects() {
        out.push(S::new(SK::Expr(x), span));
    }
}

/// Block-level normalisation: code after an exit is deleted; an `if` with two empty branches
/// becomes its condition; empty loops vanish.
pub fn norm(block: Vec<S>) -> Vec<S> {
    let mut out = Vec::new();
    for s in block {
        let span = s.span;
        let exits = s.exits();
        match s.kind {
            SK::If(c, a, b) => {
                let (a, b) = (norm(a), norm(b));
                if a.is_empty() && b.is_empty() {
                    push_expr(&mut out, c, span);
                } else {
                    out.push(S::new(SK::If(c, a, b), span));
                }
            }
            SK::For(t, i, body) => {
                let body = norm(body);
                if !body.is_empty() {
                    out.push(S::new(SK::For(t, i, body), span));
                }
            }
            SK::While(c, a, b) => {
                let (a, b) = (norm(a), norm(b));
                out.push(S::new(SK::While(c, a, b), span));
            }
            SK::Match(c, arms, ctx) => {
                let arms = arms.into_iter().map(|(l, b)| (l, norm(b))).collect();
                out.push(S::new(SK::Match(c, arms, ctx), span));
            }
            SK::Loop(b) => out.push(S::new(SK::Loop(norm(b)), span)),
            kind => out.push(S::new(kind, span)),
        }
        if exits {
            break;
        }
    }
    out
}

/// Drop a trailing bare `return` (end of a function body).
pub fn drop_trailing_return(mut body: Vec<S>) -> Vec<S> {
    if matches!(body.last().map(|s| &s.kind), Some(SK::Return(None))) {
        body.pop();
    }
    body
}

/// Where two projections of a branch first differ.
#[derive(Debug)]
pub struct MergeError {
    pub left: Option<TextRange>,
    pub right: Option<TextRange>,
}

/// One line of the head of a statement, used to compare simple statements structurally.
fn head_text(s: &S) -> String {
    let mut out = String::new();
    emit_stmt(&mut out, s, 0, None);
    out
}

/// `merge(b1, b2)` (note §3.6): equal statements are kept once, `if`s and loops with equal
/// headers merge their bodies, `match`es on the same channel take the union of their arms.
pub fn merge(a: Vec<S>, b: Vec<S>) -> Result<Vec<S>, MergeError> {
    let mut a = a.into_iter();
    let mut b = b.into_iter();
    let mut out = Vec::new();
    loop {
        let (x, y) = match (a.next(), b.next()) {
            (None, None) => return Ok(out),
            (Some(x), Some(y)) => (x, y),
            (x, y) => {
                return Err(MergeError {
                    left: x.map(|s| s.span),
                    right: y.map(|s| s.span),
                });
            }
        };
        let (xs, ys) = (x.span, y.span);
        let fail = || MergeError {
            left: Some(xs),
            right: Some(ys),
        };
        let merged = match (x.kind, y.kind) {
            (SK::Match(c1, arms1, ctx), SK::Match(c2, arms2, _)) if c1 == c2 => {
                let mut arms: Vec<(String, Vec<S>)> = Vec::new();
                let mut rest2: Vec<(String, Vec<S>)> = arms2;
                for (l, body) in arms1 {
                    if let Some(i) = rest2.iter().position(|(l2, _)| *l2 == l) {
                        let (_, body2) = rest2.remove(i);
                        arms.push((l, merge(body, body2)?));
                    } else {
                        arms.push((l, body));
                    }
                }
                arms.extend(rest2);
                SK::Match(c1, arms, ctx)
            }
            (SK::If(c1, t1, e1), SK::If(c2, t2, e2)) if c1 == c2 => {
                SK::If(c1, merge(t1, t2)?, merge(e1, e2)?)
            }
            (SK::While(c1, t1, e1), SK::While(c2, t2, e2)) if c1 == c2 => {
                SK::While(c1, merge(t1, t2)?, merge(e1, e2)?)
            }
            (SK::For(t1, i1, b1), SK::For(t2, i2, b2)) if t1 == t2 && i1 == i2 => {
                SK::For(t1, i1, merge(b1, b2)?)
            }
            (SK::Loop(b1), SK::Loop(b2)) => SK::Loop(merge(b1, b2)?),
            (k1, k2) => {
                let s1 = S::new(k1, xs);
                let s2 = S::new(k2, ys);
                let simple = !matches!(
                    s1.kind,
                    SK::Match(..) | SK::If(..) | SK::While(..) | SK::For(..) | SK::Loop(_)
                );
                if simple && head_text(&s1) == head_text(&s2) {
                    s1.kind
                } else {
                    return Err(fail());
                }
            }
        };
        out.push(S::new(merged, xs));
    }
}

/// Append `s` to the end of `block`: inside every arm if the block ends in a `match` (a selection
/// takes the rest of its block into its arms).
pub fn append_tail(block: &mut Vec<S>, s: S) {
    if let Some(SK::Match(_, arms, _)) = block.last_mut().map(|l| &mut l.kind) {
        for (_, b) in arms.iter_mut() {
            append_tail(b, s.clone());
        }
        return;
    }
    block.push(s);
}

/// Turn the merged body of a loop driven by another role into the arms of `while True:`: an arm
/// ending in [`SK::Again`] continues, any other arm breaks out. `None` if an `Again` is not in tail
/// position.
pub fn close_loop(mut block: Vec<S>) -> Option<Vec<S>> {
    let Some(last) = block.pop() else {
        return Some(vec![S::new(SK::Break, TextRange::default())]);
    };
    if block.iter().any(contains_again) {
        return None;
    }
    let span = last.span;
    match last.kind {
        SK::Again => block.push(S::new(SK::Continue, span)),
        SK::Match(c, arms, ctx) => {
            let mut new = Vec::new();
            for (l, b) in arms {
                new.push((l, close_loop(b)?));
            }
            block.push(S::new(SK::Match(c, new, ctx), span));
        }
        SK::If(c, t, e) => {
            let (t, e) = (close_loop(t)?, close_loop(e)?);
            block.push(S::new(SK::If(c, t, e), span));
        }
        kind => {
            let s = S::new(kind, span);
            if contains_again(&s) {
                return None;
            }
            let exits = s.exits();
            block.push(s);
            if !exits {
                block.push(S::new(SK::Break, span));
            }
        }
    }
    Some(block)
}

fn contains_again(s: &S) -> bool {
    match &s.kind {
        SK::Again => true,
        SK::If(_, a, b) | SK::While(_, a, b) => a.iter().chain(b).any(contains_again),
        SK::For(_, _, b) | SK::Loop(b) => b.iter().any(contains_again),
        SK::Match(_, arms, _) => arms.iter().flat_map(|(_, b)| b).any(contains_again),
        _ => false,
    }
}

// ----- printing ---------------------------------------------------------------------------------

fn indent(out: &mut String, level: usize) {
    for _ in 0..level {
        out.push_str("    ");
    }
}

fn line(out: &mut String, level: usize, text: &str) {
    indent(out, level);
    out.push_str(text);
    out.push('\n');
}

/// Where a statement came from: its line in the choreography. Printed statements carry it as a
/// `# L<n>` comment (after a one-line statement, or on a line of its own before a longer one), so
/// that pychoral_rt can point a traceback at the choreography's own line.
pub type Mark<'m> = Option<&'m dyn Fn(TextRange) -> usize>;

pub fn emit_block(out: &mut String, block: &[S], level: usize, mark: Mark) {
    if block.is_empty() {
        line(out, level, "pass");
    }
    for s in block {
        emit_stmt(out, s, level, mark);
    }
}

/// `line`, with the statement's mark after it.
fn head(out: &mut String, level: usize, text: &str, s: &S, mark: Mark) {
    match mark {
        Some(f) => line(out, level, &format!("{text}  # L{}", f(s.span))),
        None => line(out, level, text),
    }
}

pub fn emit_stmt(out: &mut String, s: &S, level: usize, mark: Mark) {
    match &s.kind {
        SK::Expr(e) => head(out, level, &e.text(), s, mark),
        SK::Assign(t, op, v) => head(out, level, &format!("{t} {op} {}", v.text()), s, mark),
        SK::Return(None) => head(out, level, "return", s, mark),
        SK::Return(Some(e)) => head(out, level, &format!("return {}", e.text()), s, mark),
        SK::Verbatim { lines, .. } => {
            let one_line = lines.len() == 1 && !lines[0].raw;
            if let Some(f) = mark
                && !one_line
            {
                line(out, level, &format!("# L{}", f(s.span)));
            }
            for l in lines {
                if l.raw {
                    out.push_str(&l.text);
                    out.push('\n');
                } else if l.text.trim().is_empty() {
                    out.push('\n');
                } else if one_line {
                    head(out, level, &l.text, s, mark);
                } else {
                    line(out, level, &l.text);
                }
            }
        }
        SK::If(c, a, b) => {
            head(out, level, &format!("if {}:", c.text()), s, mark);
            emit_block(out, a, level + 1, mark);
            // An `else:` holding just another `if` prints as `elif`.
            let mut rest = b;
            while let [
                inner @ S {
                    kind: SK::If(c2, a2, b2),
                    ..
                },
            ] = rest.as_slice()
            {
                head(out, level, &format!("elif {}:", c2.text()), inner, mark);
                emit_block(out, a2, level + 1, mark);
                rest = b2;
            }
            if !rest.is_empty() {
                line(out, level, "else:");
                emit_block(out, rest, level + 1, mark);
            }
        }
        SK::While(c, a, b) => {
            head(out, level, &format!("while {}:", c.text()), s, mark);
            emit_block(out, a, level + 1, mark);
            if !b.is_empty() {
                line(out, level, "else:");
                emit_block(out, b, level + 1, mark);
            }
        }
        SK::For(t, i, b) => {
            head(out, level, &format!("for {t} in {i}:"), s, mark);
            emit_block(out, b, level + 1, mark);
        }
        SK::Match(c, arms, ctx) => {
            head(out, level, &format!("match {}:", c.text()), s, mark);
            for (l, b) in arms {
                line(out, level + 1, &format!("case {l}:"));
                emit_block(out, b, level + 2, mark);
            }
            line(out, level + 1, "case _unexpected:");
            line(
                out,
                level + 2,
                &format!("raise rt.ProtocolError(f\"{ctx}: unexpected label {{_unexpected!r}}\")"),
            );
        }
        SK::Loop(b) => {
            line(out, level, "while True:");
            emit_block(out, b, level + 1, mark);
        }
        SK::Again => line(out, level, "continue  # (loop)"),
        SK::Continue => head(out, level, "continue", s, mark),
        SK::Break => head(out, level, "break", s, mark),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(s: &str) -> PE {
        PE::Text(s.to_owned(), false)
    }
    fn noop(s: &str) -> PE {
        PE::Text(s.to_owned(), true)
    }
    fn st(k: SK) -> S {
        S::new(k, TextRange::default())
    }

    #[test]
    fn unit_call_normalises() {
        assert_eq!(PE::unit_call(vec![PE::Unit, noop("x")]), PE::Unit);
        assert_eq!(PE::unit_call(vec![PE::Unit, t("f()")]), t("f()"));
        assert_eq!(
            PE::unit_call(vec![t("f()"), PE::unit_call(vec![t("g()"), t("h()")])]).text(),
            "Unit.id(f(), g(), h())"
        );
        let mut out = Vec::new();
        push_expr(
            &mut out,
            PE::unit_call(vec![t("f()"), t("g()")]),
            TextRange::default(),
        );
        assert_eq!(
            out.len(),
            2,
            "Unit.id(a, b) as a statement is two statements"
        );
    }

    #[test]
    fn recv_keeps_nested_effects_in_order() {
        let r = PE::Recv {
            chan: "ch".into(),
            kind: "com",
            effects: vec![t("c2.com(x)")],
        };
        assert_eq!(r.text(), "ch.com(Unit.id(c2.com(x)))");
    }

    #[test]
    fn norm_drops_code_after_return_and_empty_ifs() {
        let b = vec![
            st(SK::If(t("c"), vec![], vec![])),
            st(SK::Return(None)),
            st(SK::Expr(t("dead()"))),
        ];
        let n = norm(b);
        assert_eq!(n.len(), 2);
        assert!(matches!(n[0].kind, SK::Expr(_)));
        assert!(matches!(n[1].kind, SK::Return(None)));
    }

    #[test]
    fn merge_unions_match_arms_and_rejects_differences() {
        let m1 = st(SK::Match(
            t("ch.select()"),
            vec![("E.A".into(), vec![st(SK::Expr(t("f()")))])],
            "c".into(),
        ));
        let m2 = st(SK::Match(
            t("ch.select()"),
            vec![("E.B".into(), vec![])],
            "c".into(),
        ));
        let m = merge(vec![m1], vec![m2]).expect("merge");
        let SK::Match(_, arms, _) = &m[0].kind else {
            panic!()
        };
        assert_eq!(
            arms.iter().map(|a| a.0.as_str()).collect::<Vec<_>>(),
            ["E.A", "E.B"]
        );
        // Different statements, and one side longer: both fail.
        assert!(merge(vec![st(SK::Expr(t("f()")))], vec![st(SK::Expr(t("g()")))]).is_err());
        assert!(merge(vec![st(SK::Expr(t("f()")))], vec![]).is_err());
        // Equal statements merge.
        assert_eq!(
            merge(vec![st(SK::Expr(t("f()")))], vec![st(SK::Expr(t("f()")))])
                .unwrap()
                .len(),
            1
        );
        // Same label, different continuations: fails.
        let m1 = st(SK::Match(
            t("ch.select()"),
            vec![("E.A".into(), vec![st(SK::Expr(t("f()")))])],
            "c".into(),
        ));
        let m2 = st(SK::Match(
            t("ch.select()"),
            vec![("E.A".into(), vec![st(SK::Expr(t("g()")))])],
            "c".into(),
        ));
        assert!(merge(vec![m1], vec![m2]).is_err());
    }

    #[test]
    fn close_loop_continues_or_breaks_each_arm() {
        let m = st(SK::Match(
            t("ch.select()"),
            vec![
                ("E.GO".into(), vec![st(SK::Expr(t("f()"))), st(SK::Again)]),
                ("E.STOP".into(), vec![st(SK::Expr(t("g()")))]),
            ],
            "c".into(),
        ));
        let closed = close_loop(vec![m]).expect("closes");
        let SK::Match(_, arms, _) = &closed[0].kind else {
            panic!()
        };
        assert!(matches!(arms[0].1.last().unwrap().kind, SK::Continue));
        assert!(matches!(arms[1].1.last().unwrap().kind, SK::Break));
        assert!(close_loop(vec![st(SK::Again), st(SK::Expr(t("f()")))]).is_none());
    }
}
