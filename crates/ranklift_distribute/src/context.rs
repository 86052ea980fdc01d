//! The rewrite context shared by every rule: per-module edit lists and the text helpers that make
//! inserted code follow the file's own indentation, quotes and line endings.
//!
//! Rules never touch text directly; they describe edits through [`Cx`]. After all rules ran,
//! [`Cx::finish_module`] adds what the edits depend on (the Horovod import block, broadcast flags,
//! `global` declarations) and the edit engine applies everything with a re-parse guard.

use std::collections::BTreeMap;

use ranklift_python::{Diagnostic, Edit, Severity};
use ruff_python_ast::{Expr, Stmt};
use ruff_python_codegen::Stylist;
use ruff_text_size::{Ranged, TextRange, TextSize};

use crate::index::{CallInfo, FuncId, Index, Scope, StmtId, StmtInfo};
use crate::pattern::{Pattern, Reach};
use crate::tf;

/// One rewrite that was made, for `--explain` and JSON.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Applied {
    pub rule: &'static str,
    pub path: String,
    pub line: usize,
    pub message: String,
}

/// Per-module rewrite state.
#[derive(Default)]
pub struct ModState {
    pub edits: Vec<Edit>,
    pub applied: Vec<Applied>,
    /// Some edit refers to `hvd`.
    pub uses_hvd: bool,
    /// Some edit refers to `hvd` in code that runs at import time (module level).
    pub hvd_at_import: bool,
    /// Module-level broadcast flags to define (`hvd_broadcast_done = False`).
    pub flags: Vec<String>,
    /// Functions (by def statement) that need `global <names>`.
    pub globals: BTreeMap<StmtId, Vec<String>>,
    /// An edit uses `tf` but the module binds no name to `tensorflow`.
    pub needs_tf_import: bool,
    /// Code refers to `hvd_tf` (`horovod.tensorflow`, in a Keras program whose `hvd` is
    /// `horovod.tensorflow.keras`, which has no `DistributedGradientTape`).
    pub needs_hvd_tf: bool,
}

/// Options that change the generated code.
#[derive(Debug, Clone)]
pub struct Options {
    /// The TensorFlow version the output targets: from 2.11 on, a Keras optimizer's `variables`
    /// is a property, before it a method.
    pub target_tf: (u32, u32),
    /// Collect [`crate::Facts`] (for `--explain` and JSON output).
    pub facts: bool,
    /// Epochs of Horovod's learning-rate warmup added to Keras `fit` when the rate is scaled
    /// (0: none).
    pub lr_warmup_epochs: u32,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            target_tf: (2, 13),
            facts: true,
            lr_warmup_epochs: 3,
        }
    }
}

pub struct Cx<'a, 'i> {
    pub idx: &'i Index<'a>,
    pub reach: &'i Reach,
    pub pattern: Pattern,
    pub opts: &'i Options,
    pub mods: Vec<ModState>,
    pub diags: Vec<Diagnostic>,
    /// Tapes wrapped by `distributed_gradient_tape`: (scope, variable name).
    pub wrapped_tapes: Vec<(Scope, String)>,
    styles: Vec<(String, char, &'static str)>,
}

impl<'a, 'i> Cx<'a, 'i> {
    pub fn new(idx: &'i Index<'a>, reach: &'i Reach, pattern: Pattern, opts: &'i Options) -> Self {
        let styles = idx
            .project
            .modules
            .iter()
            .map(|m| {
                let st = Stylist::from_tokens(m.parsed.parsed.tokens(), &m.parsed.text);
                let indent = st.indentation().as_str().to_owned();
                let indent = if indent.is_empty() || !indent.chars().all(|c| c == ' ' || c == '\t')
                {
                    "    ".to_owned()
                } else {
                    indent
                };
                (indent, st.quote().as_char(), st.line_ending().as_str())
            })
            .collect();
        Cx {
            idx,
            reach,
            pattern,
            opts,
            mods: (0..idx.project.modules.len())
                .map(|_| ModState::default())
                .collect(),
            diags: Vec::new(),
            wrapped_tapes: Vec::new(),
            styles,
        }
    }

    /// Modules whose code is rewritten: the ones the main script reaches.
    pub fn modules(&self) -> Vec<usize> {
        self.reach.modules.iter().copied().collect()
    }

    /// The calls of reached modules, with their canonical callee names.
    pub fn reached_calls(
        &self,
    ) -> impl Iterator<Item = (&'i CallInfo<'a>, Option<std::sync::Arc<str>>)> + use<'a, 'i> {
        let idx = self.idx;
        let reach = self.reach;
        idx.calls
            .iter()
            .filter(move |c| reach.modules.contains(&c.scope.module))
            .map(move |c| (c, idx.canonical(c.scope.module, &c.call.func)))
    }

    /// The statements of reached modules, in source order.
    pub fn reached_stmts(&self) -> impl Iterator<Item = (StmtId, &'i StmtInfo<'a>)> + use<'a, 'i> {
        let idx = self.idx;
        self.reach
            .modules
            .iter()
            .flat_map(move |&m| idx.modules[m].stmts.clone())
            .map(move |s| (s, &idx.stmts[s]))
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
        let st = &mut self.mods[m];
        st.edits.push(edit);
        let message = message.into();
        if !message.is_empty() {
            st.applied.push(Applied {
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
        self.mods[m].applied.push(Applied {
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

    /// Note that code in `scope` now refers to `hvd`.
    pub fn use_hvd(&mut self, scope: Scope) {
        let st = &mut self.mods[scope.module];
        st.uses_hvd = true;
        if scope.func.is_none() {
            st.hvd_at_import = true;
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
        let pm = &self.idx.project.modules[m];
        Diagnostic::new(
            &pm.rel_path,
            &pm.parsed.text,
            &pm.parsed.index,
            range,
            code,
            sev,
            msg,
        )
        .with_hint(hint)
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
        let pm = &self.idx.project.modules[m];
        let d = Diagnostic::new(
            &pm.rel_path,
            &pm.parsed.text,
            &pm.parsed.index,
            range,
            code,
            sev,
            msg,
        )
        .with_hint(hint);
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
            if !inside_token {
                self.mods[m].edits.push(Edit::insert(off, unit.clone()));
            }
            pos = line_start;
        }
    }

    /// Make sure the function whose body holds `scope` declares `global name`.
    pub fn require_global(&mut self, scope: Scope, name: &str) {
        if let Some(f) = scope.func {
            let stmt = self.idx.funcs[f].stmt;
            let names = self.mods[scope.module].globals.entry(stmt).or_default();
            if !names.iter().any(|n| n == name) {
                names.push(name.to_owned());
            }
        }
    }

    /// A fresh module-level flag name for `hint` (`hvd_broadcast_done`, `hvd_broadcast_done_gen`).
    /// With `qualify`, the hint is always appended (several flags in one module read better when
    /// each names its optimizer).
    pub fn new_flag(&mut self, m: usize, base: &str, hint: &str, qualify: bool) -> String {
        let src = self.src(m);
        let taken =
            |n: &str, flags: &[String]| flags.iter().any(|f| f == n) || contains_word(src, n);
        let flags = &self.mods[m].flags;
        let mut name = base.to_owned();
        if qualify || taken(&name, flags) {
            let h: String = hint
                .chars()
                .map(|c| {
                    if c.is_ascii_alphanumeric() {
                        c.to_ascii_lowercase()
                    } else {
                        '_'
                    }
                })
                .collect::<String>()
                .trim_matches('_')
                .to_owned();
            let h = h.strip_prefix("self_").unwrap_or(&h).to_owned();
            name = format!("{base}_{h}");
            let mut n = 2;
            while taken(&name, flags) {
                name = format!("{base}_{h}_{n}");
                n += 1;
            }
        }
        self.mods[m].flags.push(name.clone());
        name
    }

    /// The expression naming module `tensorflow` in module `m` (`tf`), if one is bound.
    /// The module's name for TensorFlow: an alias of `tensorflow`, else of its compatibility
    /// module (`import tensorflow.compat.v1 as tf`: that `tf` has `config`, `keras` and
    /// `estimator` too, and importing `tensorflow as tf` beside it would rebind the user's name).
    pub fn tf_name(&self, m: usize) -> Option<String> {
        let pick = |want: &dyn Fn(&str) -> bool| {
            let mut best: Option<&String> = None;
            for (local, q) in &self.idx.modules[m].aliases {
                if want(q) && best.is_none_or(|b| local < b) {
                    best = Some(local);
                }
            }
            best.cloned()
        };
        pick(&|q| q == "tensorflow")
            .or_else(|| pick(&|q| q == "tensorflow.compat.v1" || q == "tensorflow.compat.v2"))
    }

    /// An expression for `tensorflow.keras` in module `m`, recording a `tensorflow` import need.
    pub fn keras_path(&mut self, m: usize) -> String {
        let mut best: Option<&String> = None;
        for (local, q) in &self.idx.modules[m].aliases {
            if tf::canonical(q) == "tensorflow.keras" && best.is_none_or(|b| local < b) {
                best = Some(local);
            }
        }
        if let Some(b) = best {
            return b.clone();
        }
        format!("{}.keras", self.tf_or_import(m))
    }

    /// `tf_name`, or `tf` with an import of `tensorflow as tf` scheduled.
    pub fn tf_or_import(&mut self, m: usize) -> String {
        match self.tf_name(m) {
            Some(t) => t,
            None => {
                self.mods[m].needs_tf_import = true;
                "tf".to_owned()
            }
        }
    }

    /// An expression for `tensorflow.compat.v1` in module `m` (`tf` after `import
    /// tensorflow.compat.v1 as tf`, else `tf.compat.v1`).
    pub fn v1_path(&mut self, m: usize) -> String {
        let mut best: Option<&String> = None;
        for (local, q) in &self.idx.modules[m].aliases {
            if q == "tensorflow.compat.v1" && best.is_none_or(|b| local < b) {
                best = Some(local);
            }
        }
        if let Some(b) = best {
            return b.clone();
        }
        format!("{}.compat.v1", self.tf_or_import(m))
    }

    /// `opt.variables` (TF ≥ 2.11 optimizers) or `opt.variables()` (legacy optimizers, TF < 2.11).
    pub fn optimizer_variables(&self, opt: &str, legacy: bool) -> String {
        if legacy || self.opts.target_tf < (2, 11) {
            format!("{opt}.variables()")
        } else {
            format!("{opt}.variables")
        }
    }

    pub fn quoted(&self, m: usize, s: &str) -> String {
        let q = self.quote(m);
        format!("{q}{s}{q}")
    }

    /// The Horovod module for this pattern.
    /// The expression naming `DistributedGradientTape` in module `m`.
    pub fn gradient_tape_wrapper(&mut self, m: usize) -> String {
        self.hvd_tf(m, "DistributedGradientTape")
    }

    /// The expression naming `horovod.tensorflow`'s `name` in module `m`: `hvd.name`, or under
    /// Keras (whose `hvd` is `horovod.tensorflow.keras`, without the tape, `broadcast_variables`
    /// and `broadcast_object`) `hvd_tf.name`, importing `horovod.tensorflow as hvd_tf`.
    pub fn hvd_tf(&mut self, m: usize, name: &str) -> String {
        if self.pattern == Pattern::KerasFit {
            self.mods[m].needs_hvd_tf = true;
            format!("hvd_tf.{name}")
        } else {
            format!("hvd.{name}")
        }
    }

    pub fn hvd_module(&self) -> &'static str {
        match self.pattern {
            Pattern::KerasFit => "horovod.tensorflow.keras",
            _ => "horovod.tensorflow",
        }
    }

    /// Add the Horovod block, flags and `global` declarations a module's edits depend on.
    pub fn finish_module(&mut self, m: usize, is_main: bool) {
        let idx = self.idx;
        let suite = idx.project.modules[m].parsed.suite();
        let st = &self.mods[m];
        if !(st.uses_hvd || is_main) {
            return;
        }
        let nl = self.nl(m);
        let unit = self.indent_unit(m).to_owned();
        let mut lines: Vec<String> = Vec::new();
        if st.needs_tf_import && self.tf_name(m).is_none() {
            lines.push("import tensorflow as tf".into());
        }
        lines.push(format!("import {} as hvd", self.hvd_module()));
        if st.needs_hvd_tf {
            lines.push("import horovod.tensorflow as hvd_tf".into());
        }
        if is_main || st.hvd_at_import {
            lines.push("hvd.init()".into());
        }
        // TF2 pins the GPU with tf.config; TF1 programs pin it through their ConfigProto
        // (rule `tf1_session_config`), as Horovod's TF1 guide does.
        if is_main && !self.pattern.is_tf1() {
            let tfn = self.tf_name(m).unwrap_or_else(|| "tf".into());
            let src = self.src(m);
            let (gpus, gpu) = if contains_word(src, "gpus") || contains_word(src, "gpu") {
                ("hvd_gpus", "hvd_gpu")
            } else {
                ("gpus", "gpu")
            };
            let q = |s: &str| self.quoted(m, s);
            lines.push(format!(
                "{gpus} = {tfn}.config.experimental.list_physical_devices({})",
                q("GPU")
            ));
            lines.push(format!("for {gpu} in {gpus}:"));
            lines.push(format!(
                "{unit}{tfn}.config.experimental.set_memory_growth({gpu}, True)"
            ));
            lines.push(format!("if {gpus}:"));
            lines.push(format!(
                "{unit}{tfn}.config.experimental.set_visible_devices({gpus}[hvd.local_rank()], {})",
                q("GPU")
            ));
            if self.tf_name(m).is_none() && !lines.iter().any(|l| l == "import tensorflow as tf") {
                lines.insert(0, "import tensorflow as tf".into());
            }
        }
        for f in &self.mods[m].flags {
            lines.push(format!("{f} = False"));
        }
        let (at, need_nl) = self.block_insertion_point(m, suite, is_main);
        let mut text = String::new();
        if need_nl {
            text.push_str(nl);
        }
        for l in &lines {
            text.push_str(l);
            text.push_str(nl);
        }
        let what = if is_main && self.pattern.is_tf1() {
            format!("import {} as hvd, hvd.init()", self.hvd_module())
        } else if is_main {
            format!(
                "import {} as hvd, hvd.init() and GPU pinning by local rank",
                self.hvd_module()
            )
        } else {
            format!("import {} as hvd", self.hvd_module())
        };
        self.edit(m, "horovod_init", at, Edit::insert(at, text).first(), what);
        // `global` declarations at the top of function bodies.
        let globals = std::mem::take(&mut self.mods[m].globals);
        for (def_stmt, names) in globals {
            let Stmt::FunctionDef(def) = idx.stmts[def_stmt].stmt else {
                continue;
            };
            let first = def
                .body
                .iter()
                .find(|s| !is_docstring(s))
                .or(def.body.last())
                .expect("function bodies are never empty");
            let names: Vec<&str> = names.iter().map(String::as_str).collect();
            let line = format!("global {}", names.join(", "));
            if is_docstring(first) {
                self.insert_lines_after(m, "broadcast_initial_state", first, &[line], "");
            } else if self.idx.modules[m]
                .stmts
                .clone()
                .find(|&o| {
                    self.idx.stmts[o].stmt.start() == first.start()
                        && self.idx.stmts[o].parent == Some(def_stmt)
                })
                .is_some_and(|o| self.lines_around_ok(o))
            {
                self.insert_lines_before(m, "broadcast_initial_state", first, &[line], "");
            } else {
                let r = first.range();
                self.diag(
                    m,
                    r,
                    "DST206",
                    Severity::Error,
                    format!(
                        "cannot add `{line}` to `{}`: its body shares a line with other code",
                        def.name
                    ),
                    "put the function body on its own lines",
                );
            }
        }
    }

    /// Where the Horovod block goes: after the last import of the module's leading import section
    /// (docstring, `__future__`, imports, and setup statements such as `os.environ[...] = ...`
    /// between them), and never before the main module's `tensorflow` import.
    fn block_insertion_point(&self, m: usize, suite: &[Stmt], is_main: bool) -> (TextSize, bool) {
        let mut anchor: Option<&Stmt> = None;
        // A setup statement between imports that another rule edits (a `print` guarded by
        // `hvd.rank()`) uses `hvd`: the block must come before it.
        let edited = |s: &Stmt| {
            self.mods[m]
                .edits
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
        if is_main && let Some(&last_tf) = self.idx.modules[m].tf_imports.last() {
            let tf_stmt = self.idx.stmts[last_tf].stmt;
            if anchor.is_none_or(|a| a.start() < tf_stmt.start())
                && stop_at.is_none_or(|s| tf_stmt.start() < s.start())
            {
                anchor = Some(tf_stmt);
            }
        }
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

/// Is the function at `f` (or an enclosing one) traced by `tf.function`?
pub fn traced(idx: &Index, f: Option<FuncId>) -> Option<FuncId> {
    let mut cur = f;
    while let Some(id) = cur {
        if idx.funcs[id].traced {
            return Some(id);
        }
        cur = idx.funcs[id].parent;
    }
    None
}
