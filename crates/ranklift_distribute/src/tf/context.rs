//! The rewrite context of the TensorFlow → Horovod rules: an [`Editor`] (edits, diagnostics, text
//! helpers; `Cx` derefs to it) plus what the Horovod rules share (the pattern, what the main script
//! reaches, the Horovod import block, broadcast flags, `global` declarations).
//!
//! Rules never touch text directly; they describe edits through [`Cx`]. After all rules ran,
//! [`Cx::finish_module`] adds what the edits depend on (the Horovod import block, broadcast flags,
//! `global` declarations) and the edit engine applies everything with a re-parse guard.

use std::collections::BTreeMap;

use ranklift_python::{Edit, Severity};
use ruff_python_ast::Stmt;
use ruff_text_size::{Ranged, TextSize};

use crate::Options;
pub use crate::editor::{
    Applied, Editor, add_keyword_edit, contains_word, is_atomic, is_docstring,
};
use crate::index::{CallInfo, FuncId, Index, Scope, StmtId, StmtInfo};
use crate::tf::names as tf;
use crate::tf::pattern::{Pattern, Reach};

/// Per-module rewrite state.
#[derive(Default)]
pub struct ModState {
    /// Some edit refers to `hvd`.
    pub uses_hvd: bool,
    /// Some edit refers to `hvd` in code that runs at import time (module level).
    pub hvd_at_import: bool,
    /// Module-level broadcast flags to define (`hvd_broadcast_done = False`).
    pub flags: Vec<String>,
    /// Those of `flags` read in graph mode, defined as `tf.Variable(False, trainable=False)`.
    pub variable_flags: Vec<String>,
    /// Functions (by def statement) that need `global <names>`.
    pub globals: BTreeMap<StmtId, Vec<String>>,
    /// An edit uses `tf` but the module binds no name to `tensorflow`.
    pub needs_tf_import: bool,
    /// Code refers to `hvd_tf` (`horovod.tensorflow`, in a Keras program whose `hvd` is
    /// `horovod.tensorflow.keras`, which has no `DistributedGradientTape`).
    pub needs_hvd_tf: bool,
}

/// The engine under the `hvd.*` names the TensorFlow rules emit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Engine {
    /// Horovod (`horovodrun`): TensorFlow ≤ 2.15, Keras 2.
    Horovod,
    /// TensorFlow's own multi-worker collectives through `ranklift_tf` (a Horovod-shaped module
    /// ranklift writes next to the program; `ranklift launch`): TensorFlow ≥ 2.16, Keras 3 or
    /// tf_keras. The rules are the same; only the engine under `hvd` changes.
    Collectives,
}

/// The module the collectives engine's programs import as `hvd` (written next to the program).
pub const COLLECTIVES_MODULE: &str = "ranklift_tf";

pub struct Cx<'a, 'i> {
    pub ed: Editor<'a, 'i>,
    pub idx: &'i Index<'a>,
    pub reach: &'i Reach,
    pub pattern: Pattern,
    pub engine: Engine,
    pub opts: &'i Options,
    pub mods: Vec<ModState>,
    /// Tapes wrapped by `distributed_gradient_tape`: (scope, variable name, the source from
    /// the `with` to the scope's next tape, where its gradients are taken).
    pub wrapped_tapes: Vec<(Scope, String, ruff_text_size::TextRange)>,
    /// Dataset expressions already given a `.shard(...)` (module, start offset): a source read by
    /// two loops or two `fit` calls is sharded once.
    pub sharded: std::collections::BTreeSet<(usize, TextSize)>,
}

impl<'a, 'i> std::ops::Deref for Cx<'a, 'i> {
    type Target = Editor<'a, 'i>;
    fn deref(&self) -> &Editor<'a, 'i> {
        &self.ed
    }
}

impl std::ops::DerefMut for Cx<'_, '_> {
    fn deref_mut(&mut self) -> &mut Self::Target {
        &mut self.ed
    }
}

impl<'a, 'i> Cx<'a, 'i> {
    pub fn new(
        idx: &'i Index<'a>,
        reach: &'i Reach,
        pattern: Pattern,
        engine: Engine,
        opts: &'i Options,
    ) -> Self {
        Cx {
            ed: Editor::new(idx),
            idx,
            reach,
            pattern,
            engine,
            opts,
            mods: (0..idx.project.modules.len())
                .map(|_| ModState::default())
                .collect(),
            wrapped_tapes: Vec::new(),
            sharded: std::collections::BTreeSet::new(),
        }
    }

    // `edit`, `note` and `diag` are the editor's, repeated here so that their arguments may
    // borrow `cx` (two-phase borrows do not reach through `DerefMut`).
    pub fn edit(
        &mut self,
        m: usize,
        rule: &'static str,
        anchor: TextSize,
        edit: Edit,
        message: impl Into<String>,
    ) {
        self.ed.edit(m, rule, anchor, edit, message)
    }
    pub fn note(
        &mut self,
        m: usize,
        rule: &'static str,
        anchor: TextSize,
        message: impl Into<String>,
    ) {
        self.ed.note(m, rule, anchor, message)
    }
    pub fn diag(
        &mut self,
        m: usize,
        range: ruff_text_size::TextRange,
        code: &'static str,
        sev: Severity,
        msg: impl Into<String>,
        hint: impl Into<String>,
    ) {
        self.ed.diag(m, range, code, sev, msg, hint)
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

    pub fn use_hvd(&mut self, scope: Scope) {
        let st = &mut self.mods[scope.module];
        st.uses_hvd = true;
        if scope.func.is_none() {
            st.hvd_at_import = true;
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
        if legacy || self.opts.tf.target_tf < (2, 11) {
            format!("{opt}.variables()")
        } else {
            format!("{opt}.variables")
        }
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
        // `ranklift_tf` is one module: its Keras callbacks and its tape side by side.
        if self.pattern == Pattern::KerasFit && self.engine == Engine::Horovod {
            self.mods[m].needs_hvd_tf = true;
            format!("hvd_tf.{name}")
        } else {
            format!("hvd.{name}")
        }
    }

    pub fn hvd_module(&self) -> &'static str {
        match (self.engine, self.pattern) {
            (Engine::Collectives, _) => COLLECTIVES_MODULE,
            (Engine::Horovod, Pattern::KerasFit) => "horovod.tensorflow.keras",
            (Engine::Horovod, _) => "horovod.tensorflow",
        }
    }

    /// Add the Horovod block, flags and `global` declarations a module's edits depend on.
    pub fn finish_module(&mut self, m: usize, is_main: bool) {
        let idx = self.idx;
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
        // (rule `tf1_session_config`), as Horovod's TF1 guide does. `ranklift_tf.init()` pins it
        // itself: TensorFlow's collectives must start before any device is initialised.
        if is_main && !self.pattern.is_tf1() && self.engine == Engine::Horovod {
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
            if self.mods[m].variable_flags.contains(f) {
                let tfn = self.tf_name(m).unwrap_or_else(|| "tf".into());
                lines.push(format!("{f} = {tfn}.Variable(False, trainable=False)"));
            } else {
                lines.push(format!("{f} = False"));
            }
        }
        let (at, need_nl) = self.block_insertion_point(m, is_main);
        // Above a late `import tensorflow as tf` (a rank guard read `hvd` first), the block's own
        // uses of `tf` (the GPU pinning) need the import there too: the same binding, earlier.
        if let Some(name) = self.tf_name(m)
            && lines.iter().any(|l| contains_word(l, &name))
            && !lines.iter().any(|l| l.starts_with("import tensorflow"))
            && self.idx.modules[m]
                .tf_imports
                .iter()
                .all(|&s| self.idx.stmts[s].stmt.start() >= at)
        {
            let import = if name == "tensorflow" {
                "import tensorflow".to_owned()
            } else {
                format!("import tensorflow as {name}")
            };
            lines.insert(0, import);
        }
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
        } else if is_main && self.engine == Engine::Collectives {
            format!(
                "import {} as hvd, hvd.init() (TensorFlow's collectives; it pins the GPU by local rank)",
                self.hvd_module()
            )
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
                    crate::codes::SHARED_LINE,
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

    /// Where the Horovod block goes: after the leading import section, and never before the main
    /// module's `tensorflow` import that binds the name the block uses (`tf`). Not after a later
    /// one: a guide that spreads its imports through the file uses `hvd` (a scaled learning
    /// rate) before its last `from tensorflow import keras`.
    fn block_insertion_point(&self, m: usize, is_main: bool) -> (TextSize, bool) {
        let imports = &self.idx.modules[m].tf_imports;
        let tf_name = self.tf_name(m);
        let binds = |s: &Stmt| match (s, &tf_name) {
            (Stmt::Import(i), Some(name)) => i.names.iter().any(|a| {
                a.asname.as_ref().map_or_else(
                    || a.name.as_str().split('.').next() == Some(name.as_str()),
                    |n| n.as_str() == name,
                )
            }),
            _ => false,
        };
        let tf_import = imports
            .iter()
            .map(|&s| self.idx.stmts[s].stmt)
            .find(|s| binds(s))
            .or_else(|| imports.first().map(|&s| self.idx.stmts[s].stmt))
            .filter(|_| is_main);
        // Code that runs at import time and reads `hvd` above a late `import tensorflow` (a
        // rank guard put on a `print` between argument parsing and the import) needs the block
        // first: after the leading imports, not after TensorFlow's.
        let tf_import = tf_import.filter(|f| {
            self.first_import_time_hvd_use(m)
                .is_none_or(|u| u >= f.start())
        });
        self.import_block_point(m, tf_import)
    }

    /// Where the first edit that reads `hvd` in code run at import time (the module's top level,
    /// not a function or class body) starts.
    fn first_import_time_hvd_use(&self, m: usize) -> Option<TextSize> {
        let suite = self.idx.project.modules[m].parsed.suite();
        self.edits[m]
            .iter()
            .filter(|e| contains_word(&e.text, "hvd"))
            .map(|e| e.range.start())
            .filter(|&at| {
                suite.iter().any(|s| {
                    s.range().contains(at) && !matches!(s, Stmt::FunctionDef(_) | Stmt::ClassDef(_))
                })
            })
            .min()
    }
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
