//! `ranklift distribute`: rewrite a single-GPU TensorFlow 2 training program (a file or a whole
//! project) into a Horovod data-parallel program.
//!
//! Data flow: [`ranklift_python::Project`] (parsed modules) → [`index::Index`] (names, kinds,
//! calls) → [`pattern::reach`] (what the main script runs, which pattern) → [`checks`]
//! (restrictions, as diagnostics) → [`rules`] (edits, one file per rule) → the edit engine with its
//! re-parse guard → [`Outcome`]. Nothing here writes files: the CLI does, and only when the outcome
//! has no error.

pub mod editor;
pub mod imports;
pub mod index;
mod options;
pub mod rank0_files;
mod star_imports;
pub mod tf;
pub mod torch;
pub mod verify;
pub mod writers;

use ranklift_python::{Diagnostic, Project, Severity};
use ruff_python_ast::{Expr, Stmt};
use serde::Serialize;

pub use options::{Options, TfOptions, TorchOptions};
pub use tf::Pattern;
pub use tf::context::Applied;

use crate::index::Index;

/// How a run ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Status {
    /// Files were rewritten.
    Rewritten,
    /// The program already uses Horovod; nothing changes.
    AlreadyDistributed,
    /// A restriction is violated, or the program is not a (supported) training program.
    CannotDistribute,
    /// Files could not be read or parsed.
    InputError,
}

/// A rewritten file.
#[derive(Debug, Clone, Serialize)]
pub struct FileChange {
    pub path: String,
    #[serde(skip)]
    pub original: String,
    #[serde(skip)]
    pub new_text: String,
    /// The new file's bytes, in the file's own encoding.
    #[serde(skip)]
    pub bytes: Vec<u8>,
    /// The edits that turn `original` into `new_text`.
    #[serde(skip)]
    pub edits: Vec<ranklift_python::Edit>,
    /// A file the project does not have: a module the rewrite imports, written next to the
    /// main script (`ranklift_tf.py` of the collectives engine). Never one of the project's
    /// modules, so it does not make a script's output a whole project.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub created: bool,
}

impl FileChange {
    /// A new file with `text` (UTF-8) at `path`.
    pub fn created(path: String, text: &str) -> FileChange {
        FileChange {
            path,
            original: String::new(),
            new_text: text.to_owned(),
            bytes: text.as_bytes().to_vec(),
            edits: vec![ranklift_python::Edit::insert(0.into(), text.to_owned())],
            created: true,
        }
    }

    /// Unified diff (3 lines of context) of this change, built from the edits; a created file
    /// is one hunk from `/dev/null`, as `git diff` shows it (and `git apply` takes it).
    pub fn unified_diff(&self) -> String {
        if self.created {
            let lines: Vec<&str> = self.new_text.lines().collect();
            let mut d = format!(
                "--- /dev/null\n+++ b/{}\n@@ -0,0 +1,{} @@\n",
                self.path,
                lines.len()
            );
            for l in lines {
                d.push('+');
                d.push_str(l);
                d.push('\n');
            }
            return d;
        }
        ranklift_python::edit::unified_diff(&self.path, &self.original, &self.edits)
    }
}

/// Where something was found, for `--explain` and JSON.
#[derive(Debug, Clone, Serialize)]
pub struct Site {
    pub path: String,
    pub line: usize,
    pub code: String,
}

#[derive(Debug, Default, Clone, Serialize)]
pub struct Facts {
    pub models: Vec<Site>,
    pub optimizers: Vec<Site>,
    pub datasets: Vec<Site>,
    pub checkpoints: Vec<Site>,
    pub tapes: Vec<Site>,
    /// TF1 sessions, monitored sessions and estimators.
    pub sessions: Vec<Site>,
    pub training_calls: Vec<Site>,
    /// Device expressions (PyTorch).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub devices: Vec<Site>,
}

/// The training pattern, of either target.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum AnyPattern {
    Tf(Pattern),
    Torch(torch::TorchPattern),
}

impl AnyPattern {
    pub fn describe(self) -> &'static str {
        match self {
            AnyPattern::Tf(p) => p.describe(),
            AnyPattern::Torch(p) => p.describe(),
        }
    }
}

/// Which engine the output runs on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Framework {
    /// TensorFlow → Horovod (`horovodrun`).
    Tensorflow,
    /// PyTorch → DistributedDataParallel (`torchrun`).
    Torch,
}

#[derive(Debug, Clone, Serialize)]
pub struct Outcome {
    pub status: Status,
    pub framework: Framework,
    pub main: Option<String>,
    pub pattern: Option<AnyPattern>,
    /// How to launch the output: the words before and after the written main script's path
    /// (the command line adds the path as the user can type it).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub launch: Option<Launch>,
    pub facts: Facts,
    pub changes: Vec<FileChange>,
    pub applied: Vec<Applied>,
    pub diagnostics: Vec<Diagnostic>,
}

/// The commands that run a distributed program, without the script's path: each is the words
/// that go before it. Every word is concrete, except `HOST` in the multi-node forms (the first
/// node's address, which only the user knows).
#[derive(Debug, Clone, Serialize)]
pub struct Launch {
    /// One machine: `torchrun --standalone --nproc-per-node gpu`.
    pub single: Vec<String>,
    /// Each of two machines, the same command on both.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nodes: Option<Vec<String>>,
    /// The same from a SLURM batch script (one task per node).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub slurm: Option<Vec<String>>,
    /// The program opens files by relative paths: it must start in its own directory.
    pub relative_paths: bool,
    /// The main script lives below the project root and imports the project's packages from it
    /// (`projects/chargpt/chargpt.py` importing `mingpt`, installed with `pip install -e .`):
    /// the root, relative to the script's directory, goes on `PYTHONPATH`, so that the rewritten
    /// packages are the ones imported.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pythonpath: Option<String>,
}

fn set_after(words: &mut [String], flag: &str, value: &str) {
    if let Some(i) = words.iter().position(|w| w == flag)
        && let Some(w) = words.get_mut(i + 1)
    {
        *w = value.to_owned();
    }
}

fn words(s: &str) -> Vec<String> {
    s.split(' ').map(str::to_owned).collect()
}

impl Launch {
    /// The `--nproc-per-node` of the single-machine command, if it has one.
    pub fn nproc_per_node(&self) -> Option<&str> {
        let i = self.single.iter().position(|w| w == "--nproc-per-node")?;
        self.single.get(i + 1).map(String::as_str)
    }

    /// Every command's `--nproc-per-node` set to `n` (what the user asked for).
    pub fn set_nproc_per_node(&mut self, n: &str) {
        for words in [
            Some(&mut self.single),
            self.nodes.as_mut(),
            self.slurm.as_mut(),
        ]
        .into_iter()
        .flatten()
        {
            set_after(words, "--nproc-per-node", n);
        }
    }

    /// The single-machine command's `--nproc-per-node` set to `n` (this machine's choice; the
    /// multi-machine forms keep theirs, for the machines they run on).
    pub fn set_nproc_per_node_single(&mut self, n: &str) {
        set_after(&mut self.single, "--nproc-per-node", n);
    }
    /// `torchrun`: `gpu` processes per node (one per GPU), or `auto` (one per GPU, else one per
    /// CPU) when the program falls back to the CPU without CUDA.
    pub fn torchrun(cpu_fallback: bool, relative_paths: bool) -> Launch {
        let n = if cpu_fallback { "auto" } else { "gpu" };
        Launch {
            single: words(&format!("torchrun --standalone --nproc-per-node {n}")),
            nodes: Some(words(&format!(
                "torchrun --nnodes 2 --nproc-per-node {n} --rdzv-id ranklift --rdzv-backend c10d --rdzv-endpoint HOST:29500"
            ))),
            slurm: Some(words(&format!(
                "srun --nodes 2 --ntasks-per-node 1 torchrun --nnodes 2 --nproc-per-node {n} --rdzv-id $SLURM_JOB_ID --rdzv-backend c10d --rdzv-endpoint $(scontrol show hostnames $SLURM_JOB_NODELIST | head -n 1):29500"
            ))),
            relative_paths,
            pythonpath: None,
        }
    }

    /// `ranklift launch` (TensorFlow's collectives, `TF_CONFIG` per worker): two workers on this
    /// machine; one per machine on two machines (the same worker list on both, each its own
    /// `--index`); `srun` under SLURM (the module reads SLURM's variables itself).
    pub fn ranklift_launch(relative_paths: bool) -> Launch {
        Launch {
            single: words("ranklift launch -n 2 python"),
            nodes: Some(words(
                "ranklift launch -n 1 --workers HOST:23456,HOST2:23456 --index 0 python",
            )),
            slurm: Some(words("srun --nodes 2 --ntasks-per-node 1 python")),
            relative_paths,
            pythonpath: None,
        }
    }

    /// `horovodrun` with two processes on this machine.
    pub fn horovodrun(relative_paths: bool) -> Launch {
        Launch {
            single: words("horovodrun -np 2 python"),
            nodes: Some(words("horovodrun -np 2 -H HOST:1,localhost:1 python")),
            slurm: None,
            relative_paths,
            pythonpath: None,
        }
    }
}

/// The project root relative to the main script's directory (`../..`), when the script lives
/// below the root and imports a package or module of the root by its absolute name.
pub(crate) fn root_on_path(project: &ranklift_python::Project, main: usize) -> Option<String> {
    use ruff_python_ast::visitor::{Visitor, walk_stmt};
    let m = &project.modules[main];
    let depth = m.rel_path.matches('/').count();
    if depth == 0 {
        return None;
    }
    struct V<'p> {
        project: &'p ranklift_python::Project,
        found: bool,
    }
    impl<'a> Visitor<'a> for V<'_> {
        fn visit_stmt(&mut self, s: &'a ruff_python_ast::Stmt) {
            let tops: Vec<&str> = match s {
                ruff_python_ast::Stmt::Import(i) => {
                    i.names.iter().map(|a| a.name.as_str()).collect()
                }
                ruff_python_ast::Stmt::ImportFrom(i) if i.level == 0 => {
                    i.module.iter().map(|n| n.as_str()).collect()
                }
                _ => Vec::new(),
            };
            for t in tops {
                let top = t.split('.').next().unwrap_or(t);
                if self.project.module(top).is_some() {
                    self.found = true;
                }
            }
            walk_stmt(self, s);
        }
    }
    let mut v = V {
        project,
        found: false,
    };
    for s in m.parsed.suite() {
        v.visit_stmt(s);
    }
    v.found.then(|| vec![".."; depth].join("/"))
}

/// Does the main script open files by relative paths (`open("data/x.csv")`, `root="./data"`,
/// `torch.save(..., "model.pt")`)? Then it must be launched from its own directory.
pub(crate) fn uses_relative_paths(suite: &[ruff_python_ast::Stmt]) -> bool {
    use ruff_python_ast::visitor::{Visitor, walk_expr};
    struct V(bool);
    const KEYWORDS: &[&str] = &[
        "root",
        "path",
        "filename",
        "file",
        "fname",
        "log_dir",
        "logdir",
        "save_dir",
        "out_dir",
        "output_dir",
        "data_dir",
        "checkpoint_dir",
        "filepath",
        "f",
    ];
    fn relative(e: &ruff_python_ast::Expr) -> bool {
        let ruff_python_ast::Expr::StringLiteral(s) = e else {
            return false;
        };
        let v = s.value.to_str();
        !v.is_empty()
            && !v.starts_with(['/', '~', '$'])
            && !v.contains("://")
            && !v.contains(char::is_whitespace)
            && (v.contains('/')
                || v.starts_with('.')
                || v.rsplit_once('.').is_some_and(|(a, b)| {
                    !a.is_empty()
                        && (1..=5).contains(&b.len())
                        && b.chars().all(|c| c.is_ascii_alphanumeric())
                }))
    }
    impl<'a> Visitor<'a> for V {
        fn visit_expr(&mut self, e: &'a ruff_python_ast::Expr) {
            if let ruff_python_ast::Expr::Call(c) = e {
                // `os.path.join(base, "x.pt")`: the result is relative only if `base` is.
                let joins = matches!(&*c.func, ruff_python_ast::Expr::Attribute(a) if a.attr.as_str() == "join");
                let args = c
                    .arguments
                    .args
                    .iter()
                    .take(if joins { 1 } else { 2 })
                    .any(relative);
                let kws = c.arguments.keywords.iter().any(|k| {
                    k.arg
                        .as_ref()
                        .is_some_and(|a| KEYWORDS.contains(&a.as_str()))
                        && relative(&k.value)
                });
                self.0 |= args || kws;
            }
            walk_expr(self, e);
        }
    }
    let mut v = V(false);
    v.visit_body(suite);
    v.0
}

impl Outcome {
    /// The project's rewritten files: relative path → new bytes.
    pub fn rewritten(&self) -> std::collections::HashMap<&str, &[u8]> {
        self.changes
            .iter()
            .filter(|c| !c.created)
            .map(|c| (c.path.as_str(), c.bytes.as_slice()))
            .collect()
    }

    /// The files the rewrite adds (`ranklift_tf.py`): relative path and bytes.
    pub fn created(&self) -> Vec<(&str, &[u8])> {
        self.changes
            .iter()
            .filter(|c| c.created)
            .map(|c| (c.path.as_str(), c.bytes.as_slice()))
            .collect()
    }

    pub(crate) fn new(status: Status, diagnostics: Vec<Diagnostic>) -> Outcome {
        Outcome {
            status,
            framework: Framework::Tensorflow,
            main: None,
            pattern: None,
            launch: None,
            facts: Facts::default(),
            changes: Vec::new(),
            applied: Vec::new(),
            diagnostics,
        }
    }
    pub fn has_errors(&self) -> bool {
        self.diagnostics
            .iter()
            .any(|d| d.severity == Severity::Error)
    }
}

pub mod codes;

/// Analyse `project` and compute the rewrite. `main` names the main script (a path relative to the
/// project root) when the project is a directory with several candidates.
pub fn distribute(project: &Project, main: Option<&str>, opts: &Options) -> Outcome {
    if !project.errors.is_empty() {
        let mut d = project.errors.clone();
        ranklift_python::diagnostics::sort(&mut d);
        return Outcome::new(Status::InputError, d);
    }
    let keep = scripts_reach(project, main);
    let mut idx = Index::build_names(project, Some(&keep));
    let run_torch = |idx: &Index| {
        let mut o = torch::distribute(idx, main, opts);
        o.framework = Framework::Torch;
        o
    };
    if torch::is_torch_project(&idx) {
        return run_torch(&idx);
    }
    idx.complete_kinds();
    let tf = tf::distribute_tf(&idx, main, opts);
    // A PyTorch program that imports TensorFlow for something else (its summaries, a dataset
    // helper) has no TensorFlow training loop: the PyTorch target decides.
    let no_tf_loop = tf.status == Status::CannotDistribute
        && tf
            .diagnostics
            .iter()
            .any(|d| d.code == codes::NO_TRAINING_LOOP || d.code == codes::NOT_TENSORFLOW);
    if no_tf_loop && (0..idx.modules.len()).any(|m| torch::plan::imports_torch(&idx, m)) {
        let o = run_torch(&idx);
        // A project that never imports TensorFlow hears about PyTorch, whatever was found.
        let tf_anywhere = (0..idx.modules.len()).any(|m| tf::pattern::imports_tensorflow(&idx, m));
        if !tf_anywhere
            || !o
                .diagnostics
                .iter()
                .any(|d| d.code == codes::NO_TRAINING_LOOP)
        {
            return o;
        }
    }
    tf
}

pub(crate) fn has_main_guard(suite: &[Stmt]) -> bool {
    suite.iter().any(|s| match s {
        Stmt::If(i) => match &*i.test {
            Expr::Compare(c) => matches!(&*c.left, Expr::Name(n) if n.id.as_str() == "__name__"),
            _ => false,
        },
        _ => false,
    })
}

/// Can module `m` be run as a script: a file at the project's top level, a file with an
/// `if __name__ == "__main__":` block, or a file in a directory that is not a package (no
/// `__init__.py`) that no other module imports (`projects/chargpt/chargpt.py`,
/// `tools/train.py`)? `imported[m]` says whether another module imports `m`.
pub(crate) fn is_script(project: &Project, m: usize, imported: &[bool]) -> bool {
    let pm = &project.modules[m];
    let Some((dir, _)) = pm.rel_path.rsplit_once('/') else {
        return true;
    };
    if has_main_guard(pm.parsed.suite()) {
        return true;
    }
    let init = format!("{dir}/__init__.py");
    !imported[m] && !pm.is_package && !project.modules.iter().any(|o| o.rel_path == init)
}

/// Per module: does another module of the project import it?
pub(crate) fn imported_modules(project: &Project) -> Vec<bool> {
    let mut out = vec![false; project.modules.len()];
    for m in 0..project.modules.len() {
        for i in index::module_imports(project, m) {
            if i != m {
                out[i] = true;
            }
        }
    }
    out
}

/// The modules any candidate main script reaches through imports: the single file, the `--main`
/// script, or every script of the project (a top-level file or one with a main guard). Only
/// these are indexed: nothing else can change what a rewrite of a main script does.
fn scripts_reach(project: &Project, main: Option<&str>) -> Vec<bool> {
    let n = project.modules.len();
    let mut keep = vec![false; n];
    let roots: Vec<usize> = match (
        project.entry,
        main.and_then(|name| main_by_name(project, name).ok()),
    ) {
        (Some(e), _) => vec![e],
        (None, Some(m)) => vec![m],
        (None, None) => {
            let imported = imported_modules(project);
            (0..n)
                .filter(|&m| is_script(project, m, &imported))
                .collect()
        }
    };
    let mut todo = roots;
    while let Some(m) = todo.pop() {
        if std::mem::replace(&mut keep[m], true) {
            continue;
        }
        todo.extend(
            index::module_imports(project, m)
                .into_iter()
                .filter(|&i| !keep[i]),
        );
    }
    keep
}

/// The module `--main NAME` names (a path relative to the project directory).
pub(crate) fn main_by_name(project: &Project, name: &str) -> Result<usize, Vec<Diagnostic>> {
    let name = name.trim_start_matches("./");
    project
        .modules
        .iter()
        .position(|m| m.rel_path == name)
        .ok_or_else(|| {
            vec![
                Diagnostic::file_level(
                    name,
                    codes::NO_MAIN,
                    Severity::Error,
                    format!("`{name}` is not a Python file of the project"),
                )
                .with_hint("give --main as a path relative to the project directory"),
            ]
        })
}

/// The main script of a project, for any target: the entry when one file was given, the one
/// named with `--main`, else the one script (`is_script`) for which `trains` finds training
/// (`T`: what it computed, kept for the caller). Among several, scripts at the top or with a
/// `__main__` block come before files in a subdirectory that merely nothing imports
/// (`projects/x/train.py`, `demos/demo.py`), and a script another candidate `reaches` is that
/// one's library (its own `__main__` block a self-test or a demo, not the program). None or
/// several left: `NO_TRAINING_LOOP` (`none_msg`, `none_hint`) or `AMBIGUOUS_MAIN`.
pub(crate) fn pick_main<T>(
    idx: &Index,
    main: Option<&str>,
    trains: impl Fn(usize) -> Option<T>,
    reaches: impl Fn(&T, usize) -> bool,
    none_msg: &str,
    none_hint: &str,
) -> Result<(usize, Option<T>), Vec<Diagnostic>> {
    let project = idx.project;
    if let Some(e) = project.entry {
        return Ok((e, None));
    }
    if let Some(name) = main {
        return main_by_name(project, name).map(|m| (m, None));
    }
    let imported = imported_modules(project);
    let mut found: Vec<(usize, bool, T)> = Vec::new();
    for (m, pm) in project.modules.iter().enumerate() {
        if !is_script(project, m, &imported) {
            continue;
        }
        let guard = has_main_guard(pm.parsed.suite());
        let top = !pm.rel_path.contains('/');
        if let Some(t) = trains(m) {
            found.push((m, guard && top, t));
        }
    }
    let plain = |m: usize| {
        let pm = &project.modules[m];
        pm.rel_path.contains('/') && !has_main_guard(pm.parsed.suite())
    };
    if found.iter().any(|(m, _, _)| !plain(*m)) {
        found.retain(|(m, _, _)| !plain(*m));
    }
    let libraries: Vec<usize> = found
        .iter()
        .filter(|(m, _, _)| found.iter().any(|(o, _, t)| o != m && reaches(t, *m)))
        .map(|(m, _, _)| *m)
        .collect();
    if libraries.len() < found.len() {
        found.retain(|(m, _, _)| !libraries.contains(m));
    }
    choose_main(project, found, none_msg, none_hint)
}

/// The one candidate main script (module, is a top-level script with a main guard, what was
/// computed for it), preferring the only top-level script with a main guard; else an error
/// (none: `none_msg`; several: ambiguous, with `--main` as the hint).
fn choose_main<T>(
    project: &Project,
    mut found: Vec<(usize, bool, T)>,
    none_msg: &str,
    none_hint: &str,
) -> Result<(usize, Option<T>), Vec<Diagnostic>> {
    if found.len() > 1 && found.iter().filter(|f| f.1).count() == 1 {
        found.retain(|f| f.1);
    }
    // The project itself, as a path relative to its root (like every module's): a front end
    // that shows paths from where the user stands joins it to the root.
    let root = ".".to_owned();
    match found.len() {
        1 => {
            let (m, _, r) = found.pop().expect("one candidate");
            Ok((m, Some(r)))
        }
        0 => Err(vec![
            Diagnostic::file_level(&root, codes::NO_TRAINING_LOOP, Severity::Error, none_msg)
                .with_hint(none_hint),
        ]),
        _ => {
            let names: Vec<&str> = found
                .iter()
                .map(|(m, _, _)| project.modules[*m].rel_path.as_str())
                .collect();
            Err(vec![
                Diagnostic::file_level(
                    &root,
                    codes::AMBIGUOUS_MAIN,
                    Severity::Error,
                    format!(
                        "several scripts train a model ({}); which one is the main script is ambiguous",
                        names.join(", ")
                    ),
                )
                .with_hint(format!("pass --main {}", names[0])),
            ])
        }
    }
}
