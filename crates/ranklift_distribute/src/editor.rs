//! The framework-neutral half of a rewrite: per-module edit lists, the diagnostics found on the
//! way, and the text helpers that make inserted code follow the file's own indentation, quotes and
//! line endings. Both targets build on it: TensorFlow → Horovod (`crate::tf::context::Cx` derefs to an
//! `Editor`) and PyTorch → DDP (`crate::torch`).
//!
//! Rules never touch text directly; they describe edits through an `Editor`. [`Editor::finish`]
//! applies each file's edits with the re-parse guard (in parallel) and encodes the result.

use ranklift_python::{Diagnostic, Edit, Severity};
use ruff_python_ast::{Expr, Stmt};
use ruff_python_codegen::Stylist;
use ruff_text_size::{Ranged, TextRange, TextSize};

use crate::index::{Index, StmtId};
use crate::{FileChange, codes};

/// One rewrite that was made, for `--explain` and JSON.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Applied {
    pub rule: &'static str,
    pub path: String,
    pub line: usize,
    pub message: String,
}

/// Edits and diagnostics per module, with the text helpers.
pub struct Editor<'a, 'i> {
    pub idx: &'i Index<'a>,
    /// Edits per module.
    pub edits: Vec<Vec<Edit>>,
    /// What was rewritten, per module (for `--explain`).
    pub applied: Vec<Vec<Applied>>,
    pub diags: Vec<Diagnostic>,
    /// Per module: indentation unit, quote character, line ending.
    styles: Vec<(String, char, &'static str)>,
}

impl<'a, 'i> Editor<'a, 'i> {
    pub fn new(idx: &'i Index<'a>) -> Self {
        let styles = idx
            .project
            .modules
            .iter()
            .map(|m| {
                let st = Stylist::from_tokens(m.parsed.parsed.tokens(), &m.parsed.text);
                let indent = st.indentation().as_str().to_owned();
                // A file without an indented block has no indentation of its own (Ruff's Stylist
                // then reports a continuation line's): PEP 8's four spaces.
                let blocks = m
                    .parsed
                    .parsed
                    .tokens()
                    .iter()
                    .any(|t| t.kind() == ruff_python_ast::token::TokenKind::Indent);
                let indent = if !blocks
                    || indent.is_empty()
                    || !indent.chars().all(|c| c == ' ' || c == '\t')
                {
                    "    ".to_owned()
                } else {
                    indent
                };
                (indent, st.quote().as_char(), st.line_ending().as_str())
            })
            .collect();
        let n = idx.project.modules.len();
        Editor {
            idx,
            edits: vec![Vec::new(); n],
            applied: vec![Vec::new(); n],
            diags: Vec::new(),
            styles,
        }
    }

    pub fn src(&self, m: usize) -> &'a str {
        self.idx.source(m)
    }
    pub fn text(&self, m: usize, node: &impl Ranged) -> &'a str {
        &self.src(m)[node.range()]
    }
    pub fn indent_unit(&self, m: usize) -> &str {
        &self.styles[m].0
    }
    pub fn quote(&self, m: usize) -> char {
        self.styles[m].1
    }
    pub fn nl(&self, m: usize) -> &'static str {
        self.styles[m].2
    }
    pub fn path(&self, m: usize) -> &str {
        &self.idx.project.modules[m].rel_path
    }
    pub fn line_of(&self, m: usize, off: TextSize) -> usize {
        let pm = &self.idx.project.modules[m].parsed;
        pm.index.line_index(off).get()
    }

    /// Record an edit made by `rule`, anchored (for `--explain`) at `anchor`.
    pub fn edit(
        &mut self,
        m: usize,
        rule: &'static str,
        anchor: TextSize,
        edit: Edit,
        message: impl Into<String>,
    ) {
        let line = self.line_of(m, anchor);
        let path = self.path(m).to_owned();
        self.edits[m].push(edit);
        let message = message.into();
        if !message.is_empty() {
            self.applied[m].push(Applied {
                rule,
                path,
                line,
                message,
            });
        }
    }

    /// Record, for `--explain`, a rewrite whose edits were made without a message.
    pub fn note(
        &mut self,
        m: usize,
        rule: &'static str,
        anchor: TextSize,
        message: impl Into<String>,
    ) {
        let line = self.line_of(m, anchor);
        let path = self.path(m).to_owned();
        self.applied[m].push(Applied {
            rule,
            path,
            line,
            message: message.into(),
        });
    }

    /// Extend `e` into `e <suffix>` (`lr * hvd.size()`, `n // hvd.size()`), parenthesising `e`
    /// when it is not an atom.
    pub fn suffix(&mut self, m: usize, rule: &'static str, e: &Expr, suffix: &str) {
        for edit in extend_edits(e, " ", suffix) {
            self.edit(m, rule, e.start(), edit, "");
        }
    }

    /// Extend `e` with a trailer (`.shard(...)`, `[...]`) attached without a space,
    /// parenthesising `e` when it is not an atom.
    pub fn trailer(&mut self, m: usize, rule: &'static str, e: &Expr, trailer: &str) {
        for edit in extend_edits(e, "", trailer) {
            self.edit(m, rule, e.start(), edit, "");
        }
    }

    /// A diagnostic at `range` of module `m` (for code that only reads the context).
    pub fn make_diag(
        &self,
        m: usize,
        range: TextRange,
        code: &'static str,
        sev: Severity,
        msg: impl Into<String>,
        hint: impl Into<String>,
    ) -> Diagnostic {
        crate::index::diag(self.idx, m, range, code, sev, msg, hint)
    }

    pub fn diag(
        &mut self,
        m: usize,
        range: TextRange,
        code: &'static str,
        sev: Severity,
        msg: impl Into<String>,
        hint: impl Into<String>,
    ) {
        let d = self.make_diag(m, range, code, sev, msg, hint);
        self.diags.push(d);
    }

    // ----- text geometry -------------------------------------------------------------------

    /// Offset of the start of the line containing `off`.
    pub fn line_start(&self, m: usize, off: TextSize) -> TextSize {
        let src = self.src(m);
        let o = usize::from(off);
        TextSize::try_from(src[..o].rfind('\n').map_or(0, |i| i + 1)).unwrap_or_default()
    }

    /// Offset just past the newline ending the line containing `off` (end of file if none), and
    /// whether a newline must be written first because the file ends without one.
    pub fn after_line(&self, m: usize, off: TextSize) -> (TextSize, bool) {
        let src = self.src(m);
        let o = usize::from(off);
        match src[o..].find('\n') {
            Some(i) => (TextSize::try_from(o + i + 1).unwrap_or_default(), false),
            None => (TextSize::try_from(src.len()).unwrap_or_default(), true),
        }
    }

    /// The indentation of the line a statement starts on.
    pub fn indent_of(&self, m: usize, stmt: &impl Ranged) -> &'a str {
        let ls = self.line_start(m, stmt.start());
        let src = self.src(m);
        let line = &src[usize::from(ls)..];
        let n = line.len() - line.trim_start_matches([' ', '\t']).len();
        &line[..n]
    }

    /// True if the statement has its lines to itself: only whitespace before it on its first line,
    /// only whitespace or a comment after it on its last.
    pub fn stmt_alone(&self, m: usize, stmt: &impl Ranged) -> bool {
        let src = self.src(m);
        let ls = usize::from(self.line_start(m, stmt.start()));
        let before = &src[ls..usize::from(stmt.start())];
        let end = usize::from(stmt.end());
        let rest = &src[end..];
        let after = &rest[..rest.find('\n').unwrap_or(rest.len())];
        let after = after.trim_start();
        before.chars().all(|c| c == ' ' || c == '\t')
            && (after.is_empty() || after.starts_with('#'))
    }

    /// True if lines can be inserted before or after the line(s) of statement `s` without moving
    /// code into or out of a block: `s` begins its line, or the line begins with a sibling of `s`
    /// (`a = 1; opt.apply_gradients(...)`). False for the one-line body of a compound statement
    /// (`for x in xs: step(x)`), where "after the line" would mean after the loop.
    pub fn lines_around_ok(&self, s: StmtId) -> bool {
        let info = &self.idx.stmts[s];
        let m = info.scope.module;
        let src = self.src(m);
        let ls = usize::from(self.line_start(m, info.stmt.start()));
        let first = ls + (src[ls..].len() - src[ls..].trim_start_matches([' ', '\t']).len());
        if first == usize::from(info.stmt.start()) {
            return true;
        }
        // The statement that starts the line must be a sibling in the same body.
        self.idx.modules[m].stmts.clone().any(|o| {
            let oi = &self.idx.stmts[o];
            usize::from(oi.stmt.start()) == first
                && oi.parent == info.parent
                && oi.body == info.body
        })
    }

    /// Insert whole lines after a statement, at its indentation.
    pub fn insert_lines_after(
        &mut self,
        m: usize,
        rule: &'static str,
        stmt: &impl Ranged,
        lines: &[String],
        message: impl Into<String>,
    ) {
        let indent = self.indent_of(m, stmt).to_owned();
        let nl = self.nl(m);
        let (at, need_nl) = self.after_line(m, stmt.end());
        let mut text = String::new();
        if need_nl {
            text.push_str(nl);
        }
        for l in lines {
            text.push_str(&indent);
            text.push_str(l);
            text.push_str(nl);
        }
        self.edit(m, rule, stmt.start(), Edit::insert(at, text), message);
    }

    /// [`Editor::insert_lines_before`], ahead of the lines other rules insert before the same
    /// statement (a download barrier comes before the dataset another rule moved out of it).
    pub fn insert_lines_before_all(
        &mut self,
        m: usize,
        rule: &'static str,
        stmt: &impl Ranged,
        lines: &[String],
        message: impl Into<String>,
    ) {
        self.insert_lines_before(m, rule, stmt, lines, message);
        if let Some(e) = self.edits[m].last_mut() {
            *e = e.clone().first();
        }
    }

    /// Insert whole lines before a statement, at its indentation.
    pub fn insert_lines_before(
        &mut self,
        m: usize,
        rule: &'static str,
        stmt: &impl Ranged,
        lines: &[String],
        message: impl Into<String>,
    ) {
        let indent = self.indent_of(m, stmt).to_owned();
        let nl = self.nl(m);
        let mut text = String::new();
        for l in lines {
            text.push_str(l);
            text.push_str(nl);
            text.push_str(&indent);
        }
        // Before the first statement of the line (the statement itself, or a sibling before it).
        let at =
            self.line_start(m, stmt.start()) + TextSize::try_from(indent.len()).unwrap_or_default();
        self.edit(m, rule, stmt.start(), Edit::insert(at, text), message);
    }

    /// Indent every line of `range` but the first by one unit, except lines that begin inside a
    /// string token (the content of a triple-quoted string must not change).
    pub fn indent_continuation_lines(&mut self, m: usize, range: TextRange) {
        let src = self.src(m);
        let unit = self.indent_unit(m).to_owned();
        let tokens = self.idx.project.modules[m].parsed.parsed.tokens();
        let toks = tokens.in_range(range);
        let mut pos = usize::from(range.start());
        let end = usize::from(range.end());
        while let Some(i) = src[pos..end].find('\n') {
            let line_start = pos + i + 1;
            if line_start >= end {
                break;
            }
            let off = TextSize::try_from(line_start).unwrap_or_default();
            let inside_token = toks.iter().any(|t| t.start() < off && off < t.end());
            // A blank line stays blank (no trailing whitespace).
            let blank = src[line_start..]
                .split('\n')
                .next()
                .is_some_and(|l| l.trim().is_empty());
            if !inside_token && !blank {
                self.edits[m].push(Edit::insert(off, unit.clone()));
            }
            pos = line_start;
        }
    }

    pub fn quoted(&self, m: usize, s: &str) -> String {
        let q = self.quote(m);
        format!("{q}{s}{q}")
    }

    /// The statement a block that must follow the imports goes after: the last import of the
    /// module's leading import section (docstring, `__future__`, imports, and setup statements such as
    /// `os.environ[...] = ...` between them), and never before `must_follow` (a statement of the
    /// module's top level). A setup statement between imports that another edit changes stops
    /// the section: the block comes before it.
    pub fn import_anchor(&self, m: usize, must_follow: Option<&'a Stmt>) -> Option<&'a Stmt> {
        let suite = self.idx.project.modules[m].parsed.suite();
        let mut anchor: Option<&'a Stmt> = None;
        let edited = |s: &Stmt| {
            self.edits[m]
                .iter()
                .any(|e| s.range().contains_range(e.range))
        };
        let mut stop_at: Option<&Stmt> = None;
        for s in suite {
            match s {
                Stmt::Import(_) | Stmt::ImportFrom(_) => anchor = Some(s),
                Stmt::Expr(_) | Stmt::Assign(_) if is_setup(s) && edited(s) => {
                    stop_at = Some(s);
                    break;
                }
                Stmt::Expr(_) | Stmt::Assign(_) if is_setup(s) => {}
                Stmt::Try(t)
                    if t.body
                        .iter()
                        .all(|b| matches!(b, Stmt::Import(_) | Stmt::ImportFrom(_))) =>
                {
                    anchor = Some(s)
                }
                _ => break,
            }
        }
        if let Some(f) = must_follow
            && anchor.is_none_or(|a| a.start() < f.start())
            && stop_at.is_none_or(|s| f.start() < s.start())
        {
            anchor = Some(f);
        }
        anchor
    }

    /// The offset [`Editor::import_anchor`] describes: after the anchor's line, else after a
    /// docstring, else the top of the file; and whether a newline must be written first.
    pub fn import_block_point(&self, m: usize, must_follow: Option<&Stmt>) -> (TextSize, bool) {
        let suite = self.idx.project.modules[m].parsed.suite();
        let anchor = self.import_anchor(m, must_follow);
        match anchor {
            Some(a) => self.after_line(m, a.end()),
            None => {
                // No imports: after a docstring / __future__ section, else at the top.
                match suite.first() {
                    Some(s) if is_docstring(s) => self.after_line(m, s.end()),
                    _ => (TextSize::default(), false),
                }
            }
        }
    }

    /// Put statements under `guard` (`if RANK == 0:`): consecutive siblings, each alone on its
    /// lines, share one `if`, whose continuation lines are indented too (not inside triple-quoted
    /// strings). A statement that shares its line (`for x in xs: print(x)`) gets the condition
    /// inline: `cond and print(x)`, or `x = f() if cond else None`. Returns each group with its
    /// last statement (None for an inline guard).
    pub fn guard_statements(
        &mut self,
        rule: &'static str,
        stmts: &[StmtId],
        guard: &str,
        cond: &str,
    ) -> Vec<(Vec<StmtId>, Option<StmtId>)> {
        let idx = self.idx;
        let mut groups = Vec::new();
        let mut i = 0;
        while i < stmts.len() {
            let first = stmts[i];
            let m = idx.stmts[first].scope.module;
            if !self.stmt_alone(m, idx.stmts[first].stmt) {
                self.inline_guard(rule, first, cond);
                groups.push((vec![first], None));
                i += 1;
                continue;
            }
            let mut j = i;
            while j + 1 < stmts.len() {
                let (a, b) = (&idx.stmts[stmts[j]], &idx.stmts[stmts[j + 1]]);
                if b.body == a.body
                    && b.index_in_body == a.index_in_body + 1
                    && self.stmt_alone(m, b.stmt)
                {
                    j += 1;
                } else {
                    break;
                }
            }
            let last = stmts[j];
            let what: Vec<String> = stmts[i..=j]
                .iter()
                .map(|&s| {
                    let st = idx.stmts[s].stmt;
                    match stmt_call(st) {
                        Some(c) => format!("`{}`", self.text(m, &*c.func)),
                        None => format!("`{}`", self.text(m, st).lines().next().unwrap_or("")),
                    }
                })
                .collect();
            self.block_under(
                rule,
                first,
                last,
                guard,
                format!("only rank 0 runs {}", what.join(", ")),
            );
            groups.push((stmts[i..=j].to_vec(), Some(last)));
            i = j + 1;
        }
        groups
    }

    /// Put the consecutive sibling statements `first..=last` (each alone on its lines) into a
    /// block opened by `header` (`if RANK == 0:`, `with model.no_sync():`): the header line goes
    /// before `first` at its indentation, and every line of the run is indented one unit (not
    /// inside triple-quoted strings). Lines other rules insert before `first` (imports, the
    /// process-group setup after them) stay outside the block: the header is the last insertion
    /// at that offset, right before the statement it opens.
    pub fn block_under(
        &mut self,
        rule: &'static str,
        first: StmtId,
        last: StmtId,
        header: &str,
        message: String,
    ) {
        let idx = self.idx;
        let m = idx.stmts[first].scope.module;
        let (s0, s1) = (idx.stmts[first].stmt, idx.stmts[last].stmt);
        let indent = self.indent_of(m, s0).to_owned();
        let unit = self.indent_unit(m).to_owned();
        let nl = self.nl(m);
        self.edit(
            m,
            rule,
            s0.start(),
            Edit::insert(s0.start(), format!("{header}{nl}{indent}{unit}")).after(),
            message,
        );
        self.indent_continuation_lines(m, TextRange::new(s0.start(), s1.end()));
    }

    /// Is `word` an identifier of module `m`'s code (a name token, not text in a string or a
    /// comment)?
    pub fn has_identifier(&self, m: usize, word: &str) -> bool {
        has_identifier(self.idx, m, word)
    }

    fn inline_guard(&mut self, rule: &'static str, s: StmtId, cond: &str) {
        let info = &self.idx.stmts[s];
        let m = info.scope.module;
        match info.stmt {
            Stmt::Expr(e) => {
                let what = format!(
                    "only rank 0 runs `{}`",
                    self.text(m, &*e.value).lines().next().unwrap_or("")
                );
                self.edit(
                    m,
                    rule,
                    e.start(),
                    // After lines other rules insert at the statement's start, as a block's
                    // header is.
                    Edit::insert(e.value.start(), format!("{cond} and ")).after(),
                    what,
                );
            }
            Stmt::Assign(ruff_python_ast::StmtAssign { value, .. })
            | Stmt::AnnAssign(ruff_python_ast::StmtAnnAssign {
                value: Some(value), ..
            }) => {
                self.edit(
                    m,
                    rule,
                    info.stmt.start(),
                    Edit::insert(value.end(), format!(" if {cond} else None")),
                    "only rank 0 saves",
                );
            }
            _ => {}
        }
    }

    /// Apply the edits of `modules` with the re-parse guard, each file independently (in
    /// parallel), and encode the results. Files without edits are skipped; a file whose edits
    /// fail the guard or cannot be encoded gives an internal-error diagnostic instead.
    pub fn finish(self, modules: &[usize]) -> (Vec<FileChange>, Vec<Applied>, Vec<Diagnostic>) {
        let project = self.idx.project;
        let mut diags = self.diags;
        let mut edits = self.edits;
        let mut applied_by = self.applied;
        let work: Vec<(usize, Vec<Edit>, Vec<Applied>, u8)> = modules
            .iter()
            .map(|&m| {
                let unit = &self.styles[m].0;
                let width = if unit.starts_with('\t') {
                    4
                } else {
                    unit.len().clamp(1, 8)
                };
                (
                    m,
                    std::mem::take(&mut edits[m]),
                    std::mem::take(&mut applied_by[m]),
                    width as u8,
                )
            })
            .filter(|(_, e, _, _)| !e.is_empty())
            .collect();
        use rayon::prelude::*;
        type FileResult = Result<(FileChange, Vec<Applied>), Box<Diagnostic>>;
        let results: Vec<FileResult> = work
            .into_par_iter()
            .map(|(m, edits, applied, indent_width)| {
                let pm = &project.modules[m];
                // Statements the rules made longer than the file's lines: wrapped as Black would.
                let edits = ranklift_python::wrap::wrap_long_statements(
                    &pm.parsed.text,
                    pm.parsed.suite(),
                    edits,
                    indent_width,
                );
                let units =
                    ranklift_python::guard::units(&pm.parsed.text, pm.parsed.parsed.syntax());
                let new_text =
                    ranklift_python::guard::apply_checked_units(&pm.parsed.text, &edits, &units)
                        .map_err(|e| {
                            Box::new(
                                Diagnostic::file_level(
                                    &pm.rel_path,
                                    codes::INTERNAL,
                                    Severity::Error,
                                    format!("internal error: {e}; nothing was written"),
                                )
                                .with_hint("please report this with the input file"),
                            )
                        })?;
                let bytes = pm.parsed.file.encode(&new_text).map_err(|e| {
                    Box::new(Diagnostic::file_level(
                        &pm.rel_path,
                        codes::INTERNAL,
                        Severity::Error,
                        format!("the rewritten file cannot be encoded as the original: {e}"),
                    ))
                })?;
                Ok((
                    FileChange {
                        path: pm.rel_path.clone(),
                        original: pm.parsed.text.to_string(),
                        new_text,
                        bytes,
                        edits,
                        created: false,
                    },
                    applied,
                ))
            })
            .collect();
        let mut changes = Vec::new();
        let mut applied = Vec::new();
        for r in results {
            match r {
                Ok((c, a)) => {
                    changes.push(c);
                    applied.extend(a);
                }
                Err(d) => diags.push(*d),
            }
        }
        ranklift_python::diagnostics::sort(&mut diags);
        applied.sort_by(|a, b| (&a.path, a.line).cmp(&(&b.path, b.line)));
        (changes, applied, diags)
    }
}

/// Is `word` a name token of module `m` (an identifier of its code, not text in a string or a
/// comment)?
pub fn has_identifier(idx: &Index, m: usize, word: &str) -> bool {
    let pm = &idx.project.modules[m].parsed;
    pm.parsed
        .tokens()
        .iter()
        .any(|t| t.kind() == ruff_python_ast::token::TokenKind::Name && &pm.text[t.range()] == word)
}

/// The call a statement makes: an expression statement's, or an assignment's value.
/// The nearest `for` or `while` statement around statement `s`, within its function.
pub fn nearest_loop(idx: &Index, s: StmtId) -> Option<StmtId> {
    let mut cur = idx.stmts[s].parent;
    while let Some(p) = cur {
        match idx.stmts[p].stmt {
            Stmt::For(_) | Stmt::While(_) => return Some(p),
            Stmt::FunctionDef(_) | Stmt::ClassDef(_) => return None,
            _ => cur = idx.stmts[p].parent,
        }
    }
    None
}

/// Is statement `s` statement `ancestor` or nested inside it?
pub fn within(idx: &Index, mut s: StmtId, ancestor: StmtId) -> bool {
    loop {
        if s == ancestor {
            return true;
        }
        match idx.stmts[s].parent {
            Some(p) => s = p,
            None => return false,
        }
    }
}

pub fn stmt_call(stmt: &Stmt) -> Option<&ruff_python_ast::ExprCall> {
    let v = match stmt {
        Stmt::Expr(e) => &*e.value,
        Stmt::Assign(a) => &*a.value,
        Stmt::AnnAssign(a) => a.value.as_deref()?,
        _ => return None,
    };
    match v {
        Expr::Call(c) => Some(c),
        _ => None,
    }
}

/// Does the call's text use a name bound, in its scope, to the process's rank
/// (`rank = os.environ.get("HOROVOD_RANK", "0")`, `r = hvd.rank()`, `r = dist.get_rank()`)? A
/// file whose path names the rank is per process already: guarding it would lose the other
/// ranks' files.
pub fn per_rank_path(
    idx: &Index,
    scope: crate::index::Scope,
    call: &ruff_python_ast::ExprCall,
) -> bool {
    let m = scope.module;
    let src = idx.source(m);
    let args = &src[call.arguments.range()];
    idx.modules[m].stmts.clone().any(|st| {
        let info = &idx.stmts[st];
        let Stmt::Assign(a) = info.stmt else {
            return false;
        };
        if info.scope != scope {
            return false;
        }
        let value = &src[a.value.range()];
        let is_rank = value.contains("RANK")
            || value.contains(".rank()")
            || value.contains("local_rank()")
            || value.contains("get_rank()");
        is_rank
            && a.targets
                .iter()
                .any(|t| matches!(t, Expr::Name(n) if contains_word(args, n.id.as_str())))
    })
}

/// Statements that may sit between imports in a leading import section.
fn is_setup(s: &Stmt) -> bool {
    match s {
        Stmt::Expr(e) => matches!(&*e.value, Expr::StringLiteral(_) | Expr::Call(_)),
        Stmt::Assign(a) => a
            .targets
            .iter()
            .all(|t| matches!(t, Expr::Subscript(_) | Expr::Attribute(_))),
        _ => false,
    }
}

pub fn is_docstring(s: &Stmt) -> bool {
    matches!(s, Stmt::Expr(e) if matches!(&*e.value, Expr::StringLiteral(_)))
}

/// True if `word` occurs in `src` as a whole identifier.
pub fn contains_word(src: &str, word: &str) -> bool {
    let b = src.as_bytes();
    let is_id = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let mut from = 0;
    while let Some(i) = src[from..].find(word) {
        let s = from + i;
        let e = s + word.len();
        if (s == 0 || !is_id(b[s - 1])) && (e >= b.len() || !is_id(b[e])) {
            return true;
        }
        from = s + 1;
    }
    false
}

/// Is `e` an atom that needs no parentheses as an operand of `*` or `//`?
pub fn is_atomic(e: &Expr) -> bool {
    matches!(
        e,
        Expr::Name(_)
            | Expr::Attribute(_)
            | Expr::Call(_)
            | Expr::Subscript(_)
            | Expr::NumberLiteral(_)
            | Expr::List(_)
            | Expr::Dict(_)
    ) || matches!(e, Expr::Tuple(t) if t.parenthesized)
        || matches!(e, Expr::StringLiteral(_) | Expr::FString(_))
}

/// Insert edits turning `expr` into `(expr)<sep><text>` (parentheses only when needed).
fn extend_edits(e: &Expr, sep: &str, text: &str) -> Vec<Edit> {
    if is_atomic(e) {
        vec![Edit::insert(e.end(), format!("{sep}{text}"))]
    } else {
        vec![
            Edit::insert(e.start(), "("),
            Edit::insert(e.end(), format!("){sep}{text}")),
        ]
    }
}

/// Where to add a keyword argument to a call: right after the last argument, or inside the
/// parentheses if there is none (a trailing comma stays where it was). When every argument starts
/// a line of its own, the new keyword gets its own line too.
pub fn add_keyword_edit(src: &str, call: &ruff_python_ast::ExprCall, kw: &str) -> Edit {
    let args = &call.arguments;
    let mut all: Vec<TextRange> = args
        .args
        .iter()
        .map(|a| a.range())
        .chain(args.keywords.iter().map(|k| k.range()))
        .collect();
    all.sort_by_key(|r| r.start());
    let Some(last) = all.last() else {
        return Edit::insert(args.start() + TextSize::from(1), kw.to_owned()).after();
    };
    let starts_line = |r: &TextRange| {
        let s = usize::from(r.start());
        let ls = src[..s].rfind('\n').map_or(0, |i| i + 1);
        src[ls..s].chars().all(|c| c == ' ' || c == '\t')
    };
    if all.len() > 1 && all.iter().all(starts_line) {
        let s = usize::from(last.start());
        let ls = src[..s].rfind('\n').map_or(0, |i| i + 1);
        let indent = &src[ls..s];
        let nl = if src.contains("\r\n") { "\r\n" } else { "\n" };
        return Edit::insert(last.end(), format!(",{nl}{indent}{kw}")).after();
    }
    Edit::insert(last.end(), format!(", {kw}")).after()
}
