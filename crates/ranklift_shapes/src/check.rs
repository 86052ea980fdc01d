//! Checking files: load, parse, interpret, and turn findings into diagnostics.
//!
//! Each file given (or found under a directory given) is run as `__main__`; the sibling modules
//! it imports are loaded and interpreted too (their findings are reported when they are checked
//! themselves). Files are checked in parallel.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use ranklift_python::notebook::Notebook;
use ranklift_python::{Diagnostic, Project, Severity};
use rayon::prelude::*;
use ruff_text_size::Ranged;

use crate::Certainty;
use crate::interp::state::FxSet;
use crate::interp::{Config, Interp, SourceModule};

/// Options of `ranklift shapes`.
#[derive(Debug, Clone)]
pub struct Options {
    /// Also report errors that only may happen.
    pub possible: bool,
    /// Interpreter steps per file before the analysis stops (a backstop; see `interp`).
    pub fuel: u64,
    /// The Python version the code must run on: newer syntax is a fatal error (RL004).
    pub python_version: Option<(u8, u8)>,
    /// The NumPy the code runs with (names, messages).
    pub numpy: crate::numpy::NumpyVersion,
    /// Stops the analysis when set (the language server's time budget and cancellation); what
    /// was found so far is reported with the "budget exhausted" note.
    pub stop: Option<Arc<std::sync::atomic::AtomicBool>>,
    /// What directory walks leave out (Ruff's default excludes unless configured).
    pub excludes: ranklift_python::files::Excludes,
    /// Also return what was inferred for the entry's names ([`FileResult::types`]).
    pub types: bool,
    /// Wall time one file's analysis may take (with the imported modules it runs) before it
    /// stops with the "budget exhausted" note, whatever fuel is left.
    pub time_budget: Option<std::time::Duration>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            possible: false,
            fuel: Config::default().fuel,
            python_version: None,
            numpy: crate::numpy::NumpyVersion::default(),
            stop: None,
            excludes: Default::default(),
            types: false,
            time_budget: Some(DEFAULT_TIME_BUDGET),
        }
    }
}

/// The result for one file.
#[derive(Debug)]
pub struct FileResult {
    pub path: String,
    /// Findings, in source order.
    pub findings: Vec<Diagnostic>,
    /// The file could not be read or parsed.
    pub fatal: Option<Diagnostic>,
    /// The analysis ran out of fuel: the findings so far are reported, the rest of the file
    /// was not analysed.
    pub incomplete: bool,
    /// Time spent loading and parsing (the entry and the modules it imports).
    pub parse_time: std::time::Duration,
    /// Time spent interpreting.
    pub analysis_time: std::time::Duration,
    /// With [`Options::types`]: what the analysis inferred for names of the file (the editor's
    /// hover), as (range of the name, `ndarray (32, 128)`).
    pub types: Vec<(ruff_text_size::TextRange, String)>,
    /// What the analysis understood of the file (empty when it was not analysed).
    pub coverage: crate::interp::coverage::CoverageSummary,
    /// Where the analysis lost values (`coverage.causes`, located).
    pub causes: Vec<Cause>,
}

/// The default wall-time budget of one file: generous (the slowest file of 2.3M lines of
/// PyPI packages takes well under it with a debug build), so that results do not depend on the
/// machine, but a pathological file cannot hold a run for minutes.
pub const DEFAULT_TIME_BUDGET: std::time::Duration = std::time::Duration::from_secs(20);

/// Code for syntax the requested `--python-version` does not have (exit 2): a `match`
/// statement with `--python-version 3.9`, as that interpreter would refuse the file.
///
/// ```python
/// match command:             # RL004 with --python-version 3.9
/// ```
pub const UNSUPPORTED_SYNTAX: &str = "RL004";

/// Internal error of the analysis of one file (a panic caught at the file's boundary): the other
/// files are still analysed. A bug in ranklift, never the user's.
///
/// Fix: report it with the file; `# ranklift: ignore` does not apply, exclude the file meanwhile.
pub const INTERNAL: &str = "RL900";

/// Code for a file the interpreter stopped analysing early (a note): the analysis budget
/// (`--fuel`, or the editor's time budget) ran out. Findings reported before it are still
/// certain; what comes after was not analysed.
///
/// Fix: `--fuel 2000000` (or `fuel =` under `[tool.ranklift.shapes]`).
pub const INCOMPLETE: &str = "RL003";

/// Expand directories into the `.py` files under them (honouring `.gitignore`), keep files.
pub fn collect_files(paths: &[PathBuf]) -> Vec<PathBuf> {
    collect_files_excluding(paths, &Default::default())
}

/// [`collect_files`] with the given excludes applied inside directories (a path named in
/// `paths` is always kept).
pub fn collect_files_excluding(
    paths: &[PathBuf],
    excludes: &ranklift_python::files::Excludes,
) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for p in paths {
        if p.is_dir() {
            let root = p.clone();
            let excludes = excludes.clone();
            let above = ranklift_python::files::ParentIgnores::stderr(p);
            let mut found: Vec<PathBuf> = ignore::WalkBuilder::new(p)
                .require_git(false)
                .parents(false)
                .filter_entry(move |e| {
                    let is_dir = e.file_type().is_some_and(|t| t.is_dir());
                    if e.depth() > 0 && above.ignored(&root, e.path(), is_dir) {
                        return false;
                    }
                    let rel = e.path().strip_prefix(&root).unwrap_or(e.path());
                    let rel = rel.to_string_lossy().replace('\\', "/");
                    e.depth() == 0 || !excludes.excluded(&rel, is_dir.then(|| e.path()))
                })
                .build()
                .filter_map(Result::ok)
                .filter(|e| e.file_type().is_some_and(|t| t.is_file()))
                .map(ignore::DirEntry::into_path)
                .filter(|p| p.extension().is_some_and(|x| x == "py" || x == "ipynb"))
                .collect();
            found.sort();
            out.extend(found);
        } else {
            out.push(p.clone());
        }
    }
    out
}

/// Stack size of the threads that analyse files: the interpreter recurses over nested
/// expressions and calls (up to 256 deep).
const STACK: usize = 256 << 20;

/// Check several files in parallel; results in the order of `files`.
pub fn check_files(files: &[PathBuf], opts: &Options) -> Vec<FileResult> {
    check_files_with_imported(files, opts)
        .into_iter()
        .map(|(r, _)| r)
        .collect()
}

/// As [`check_files`], with each file's certain findings inside the project modules it imports.
fn check_files_with_imported(
    files: &[PathBuf],
    opts: &Options,
) -> Vec<(FileResult, Vec<Diagnostic>)> {
    if files.len() <= 1 {
        return files
            .iter()
            .map(|f| check_file_with_imported(f, opts))
            .collect();
    }
    // A pool of its own, with big stacks, so that no worker blocks waiting for another thread.
    match rayon::ThreadPoolBuilder::new().stack_size(STACK).build() {
        Ok(pool) => pool.install(|| {
            files
                .par_iter()
                .with_max_len(1)
                .map(|f| guarded(f, opts))
                .collect()
        }),
        Err(_) => files
            .iter()
            .map(|f| check_file_with_imported(f, opts))
            .collect(),
    }
}

/// Check one file, in a thread with a big stack.
pub fn check_file(path: &Path, opts: &Options) -> FileResult {
    check_file_with_imported(path, opts).0
}

/// Check `text` as the content of `path` (an editor's unsaved buffer): the modules it imports
/// are read from `path`'s directory. In a thread with a big stack; a bug is a diagnostic.
pub fn check_text(path: &Path, text: String, opts: &Options) -> FileResult {
    let owned = (path.to_path_buf(), opts.clone());
    let worker = std::thread::Builder::new()
        .stack_size(STACK)
        .spawn(move || {
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                check_loaded(
                    &owned.0,
                    Project::load_file_in_package(&owned.0, Some(text), &|_| true),
                    std::time::Instant::now(),
                    &owned.1,
                )
                .0
            }))
            .unwrap_or_else(|_| internal_error(&owned.0))
        });
    match worker.map(|h| h.join()) {
        Ok(Ok(r)) => r,
        _ => internal_error(path),
    }
}

/// Check one file; also the certain findings inside the project modules it imports.
fn check_file_with_imported(path: &Path, opts: &Options) -> (FileResult, Vec<Diagnostic>) {
    let owned = (path.to_path_buf(), opts.clone());
    let worker = std::thread::Builder::new()
        .stack_size(STACK)
        .spawn(move || guarded(&owned.0, &owned.1));
    match worker.map(|h| h.join()) {
        Ok(Ok(r)) => r,
        _ => (internal_error(path), Vec::new()),
    }
}

/// Run the analysis; an internal error (a bug) becomes a diagnostic, never a crash.
fn guarded(path: &Path, opts: &Options) -> (FileResult, Vec<Diagnostic>) {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        check_file_inner(path, opts)
    }))
    .unwrap_or_else(|_| (internal_error(path), Vec::new()))
}

fn internal_error(path: &Path) -> FileResult {
    let display = path.display().to_string();
    FileResult {
        fatal: Some(
            Diagnostic::file_level(
                &display,
                INTERNAL,
                Severity::Error,
                "internal error: the analysis of this file failed",
            )
            .with_hint("please report this file to the ranklift maintainers"),
        ),
        path: display,
        findings: Vec::new(),
        incomplete: false,
        parse_time: Default::default(),
        analysis_time: Default::default(),
        types: Vec::new(),
        coverage: Default::default(),
        causes: Vec::new(),
    }
}

fn check_file_inner(path: &Path, opts: &Options) -> (FileResult, Vec<Diagnostic>) {
    let display = path.display().to_string();
    let started = std::time::Instant::now();
    if path.extension().is_some_and(|e| e == "ipynb") {
        return check_notebook(path, display, opts);
    }
    let project = Project::load_file_in_package(path, None, &|_| true);
    check_loaded(path, project, started, opts)
}

/// Analyse a loaded single-file project (its entry is `path`).
fn check_loaded(
    path: &Path,
    project: Project,
    started: std::time::Instant,
    opts: &Options,
) -> (FileResult, Vec<Diagnostic>) {
    let display = path.display().to_string();
    let parse_time = started.elapsed();
    let Some(entry) = project.entry else {
        let fatal = project.errors.into_iter().next().map(|mut d| {
            d.path = display.clone();
            d
        });
        return (
            FileResult {
                path: display,
                findings: Vec::new(),
                fatal,
                incomplete: false,
                parse_time,
                analysis_time: Default::default(),
                types: Vec::new(),
                coverage: Default::default(),
                causes: Vec::new(),
            },
            Vec::new(),
        );
    };
    let array_like = Arc::new(project_array_like(&project));
    // The imported modules are under the project's root: the file's directory, or the
    // directory above the package the file is in.
    let display_of = |i: usize| {
        if i == entry {
            display.clone()
        } else {
            let p = project.root.join(&project.modules[i].rel_path);
            p.strip_prefix(".").unwrap_or(&p).display().to_string()
        }
    };
    analyse_entry(
        &project,
        &array_like,
        entry,
        &display_of,
        parse_time,
        opts,
        Start::Fresh,
    )
}

/// A notebook: its code cells as one program (`ranklift_python::notebook`), every finding on it
/// pointed back at its cell.
fn check_notebook(path: &Path, display: String, opts: &Options) -> (FileResult, Vec<Diagnostic>) {
    let started = std::time::Instant::now();
    let notebook = ranklift_python::source::read_regular(path)
        .map_err(|e| e.reason())
        .and_then(|b| String::from_utf8(b).map_err(|_| "not UTF-8 JSON".to_owned()))
        .and_then(|json| Notebook::parse(&json, &display));
    let notebook = match notebook {
        Ok(n) => n,
        Err(e) => {
            let d = Diagnostic::file_level(
                &display,
                ranklift_python::project::IO_ERROR,
                Severity::Error,
                format!("cannot read the notebook: {e}"),
            )
            .with_hint("ranklift reads Jupyter notebooks in nbformat 3 or 4 with a Python kernel");
            return (
                FileResult {
                    path: display,
                    findings: Vec::new(),
                    fatal: Some(d),
                    incomplete: false,
                    parse_time: started.elapsed(),
                    analysis_time: Default::default(),
                    types: Vec::new(),
                    coverage: Default::default(),
                    causes: Vec::new(),
                },
                Vec::new(),
            );
        }
    };
    let project = Project::load_file_with(path, Some(notebook.python.clone()), &|_| true);
    let (mut result, imported) = check_loaded(path, project, started, opts);
    for d in result.findings.iter_mut().chain(result.fatal.as_mut()) {
        if d.path == display {
            notebook.relocate(d);
        }
    }
    if result.fatal.is_none() {
        result.findings.extend(notebook.syntax_errors);
        result.findings.sort_by_key(|d| (d.cell, d.line, d.column));
    }
    (result, imported)
}

/// Add the certain findings reached inside imported modules to those modules' results, once
/// each (several entries may reach the same line), creating a result for a module that was
/// not itself checked.
fn merge_imported(results: &mut Vec<FileResult>, imported: Vec<Diagnostic>) {
    let mut touched = Vec::new();
    for d in imported {
        let at = match results.iter().position(|r| r.path == d.path) {
            Some(i) => i,
            None => {
                results.push(FileResult {
                    path: d.path.clone(),
                    findings: Vec::new(),
                    fatal: None,
                    incomplete: false,
                    parse_time: Default::default(),
                    analysis_time: Default::default(),
                    types: Vec::new(),
                    coverage: Default::default(),
                    causes: Vec::new(),
                });
                results.len() - 1
            }
        };
        let r = &mut results[at];
        if r.fatal.is_none()
            && !r
                .findings
                .iter()
                .any(|f| f.line == d.line && f.column == d.column && f.code == d.code)
        {
            r.findings.push(d);
            touched.push(at);
        }
    }
    for i in touched {
        results[i].findings.sort_by_key(|f| (f.line, f.column));
    }
}

/// Attribute names of the project's ndarray subclasses (see [`crate::interp::array_like`]).
fn project_array_like(project: &Project) -> FxSet<Arc<str>> {
    crate::interp::array_like::attrs(project.modules.iter().map(|m| m.parsed.suite()))
}

/// Check every `.py` file under `dir`, parsing the project once: each module is run as
/// `__main__` in turn, with the others available to its imports.
pub fn check_dir(dir: &Path, opts: &Options) -> Vec<FileResult> {
    let started = std::time::Instant::now();
    let project = Project::load_dir_excluding(dir, None, &opts.excludes, &|_, _| {});
    let parse_time = started.elapsed() / (project.modules.len().max(1) as u32);
    let mut out: Vec<FileResult> = project
        .errors
        .iter()
        .map(|d| {
            let mut d = d.clone();
            d.path = dir.join(&d.path).display().to_string();
            FileResult {
                path: d.path.clone(),
                findings: Vec::new(),
                fatal: Some(d),
                incomplete: false,
                parse_time: Default::default(),
                analysis_time: Default::default(),
                types: Vec::new(),
                coverage: Default::default(),
                causes: Vec::new(),
            }
        })
        .collect();
    let array_like = Arc::new(project_array_like(&project));
    let display_of = |i: usize| dir.join(&project.modules[i].rel_path).display().to_string();
    let n = project.modules.len();
    let pool = rayon::ThreadPoolBuilder::new()
        .stack_size(STACK)
        .build()
        .ok();
    // The imported modules' bodies run once, in an interpreter every entry starts from.
    let prime = || {
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            shared_imports(&project, &array_like, opts)
        }))
        .ok()
    };
    let base = match &pool {
        Some(pool) if n > 1 => pool.install(prime),
        _ => None,
    };
    let run = |i: usize| {
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            let start = match &base {
                Some(b) => Start::Fork(b),
                None => Start::Fresh,
            };
            analyse_entry(
                &project,
                &array_like,
                i,
                &display_of,
                parse_time,
                opts,
                start,
            )
        }))
        .unwrap_or_else(|_| (internal_error(Path::new(&display_of(i))), Vec::new()))
    };
    let analysed: Vec<(FileResult, Vec<Diagnostic>)> = match &pool {
        Some(pool) => pool.install(|| (0..n).into_par_iter().with_max_len(1).map(run).collect()),
        None => (0..n).map(run).collect(),
    };
    let mut imported = Vec::new();
    for (r, extra) in analysed {
        out.push(r);
        imported.extend(extra);
    }
    merge_imported(&mut out, imported);
    out.sort_by(|a, b| a.path.cmp(&b.path));
    out
}

/// Files and directories as given on the command line, in order.
pub fn check_paths(paths: &[PathBuf], opts: &Options) -> Vec<FileResult> {
    let files: Vec<PathBuf> = paths.iter().filter(|p| !p.is_dir()).cloned().collect();
    let mut imported = Vec::new();
    let mut by_file = check_files_with_imported(&files, opts)
        .into_iter()
        .map(|(r, extra)| {
            imported.extend(extra);
            r
        })
        .collect::<Vec<_>>()
        .into_iter();
    let mut out = Vec::new();
    for p in paths {
        if p.is_dir() {
            let dir = p.clone();
            let owned = opts.clone();
            let results = std::thread::Builder::new()
                .stack_size(STACK)
                .spawn(move || check_dir(&dir, &owned))
                .ok()
                .and_then(|h| h.join().ok());
            match results {
                Some(r) => out.extend(r),
                None => out.push(internal_error(p)),
            }
            // Notebooks under it: each its own program, with the directory's modules importable.
            let notebooks: Vec<PathBuf> =
                collect_files_excluding(std::slice::from_ref(p), &opts.excludes)
                    .into_iter()
                    .filter(|f| f.extension().is_some_and(|x| x == "ipynb"))
                    .collect();
            for (r, extra) in check_files_with_imported(&notebooks, opts) {
                out.push(r);
                imported.extend(extra);
            }
        } else if let Some(r) = by_file.next() {
            out.push(r);
        }
    }
    merge_imported(&mut out, imported);
    out
}

/// Where an entry's analysis starts.
enum Start<'s, 'a> {
    /// A new interpreter with the entry and the project modules it imports, transitively.
    Fresh,
    /// A fork of [`shared_imports`]' interpreter (slot `k + 1` is project module `k`).
    Fork(&'s Interp<'a>),
}

/// The interpreter of a directory's run after the bodies of every module some other module
/// imports have run ([`Interp::prime`]): slot 0 is left for the entry, slot `k + 1` is project
/// module `k`. Its own time budget is the one of a file.
fn shared_imports<'a>(
    project: &'a Project,
    array_like: &Arc<FxSet<Arc<str>>>,
    opts: &Options,
) -> Interp<'a> {
    let mut imported = vec![false; project.modules.len()];
    for m in &project.modules {
        for name in ranklift_python::project::imported_module_names(m) {
            if let Some(i) = project.module(&name) {
                imported[i] = true;
            }
        }
    }
    let entry_slot = SourceModule {
        name: "__main__".into(),
        suite: &[],
        report: false,
        is_package: false,
    };
    let modules = std::iter::once(entry_slot)
        .chain(project.modules.iter().map(|m| SourceModule {
            name: m.name.clone(),
            suite: m.parsed.suite(),
            report: false,
            is_package: m.is_package,
        }))
        .collect();
    let config = Config {
        fuel: opts.fuel,
        numpy: opts.numpy,
        array_like: array_like.clone(),
        stop: opts.stop.clone(),
        collect_types: false,
        deadline: opts.time_budget.map(|b| std::time::Instant::now() + b),
    };
    let mut interp = Interp::new(modules, &config);
    interp.prime(
        imported
            .iter()
            .enumerate()
            .filter(|(_, imported)| **imported)
            .map(|(k, _)| k as u32 + 1),
    );
    interp
}

/// Analyse module `entry` as `__main__`: its findings, and the certain findings its run reached
/// inside the project modules it imports (each at its own file and line).
fn analyse_entry(
    project: &Project,
    array_like: &Arc<FxSet<Arc<str>>>,
    entry: usize,
    display_of: &dyn Fn(usize) -> String,
    parse_time: std::time::Duration,
    opts: &Options,
    start: Start,
) -> (FileResult, Vec<Diagnostic>) {
    let display = display_of(entry);
    if let Some((major, minor)) = opts.python_version {
        let m = &project.modules[entry].parsed;
        if let Some((range, message)) =
            ranklift_python::parse::unsupported_syntax(&m.text, major, minor)
        {
            let d = Diagnostic::new(
                &display,
                &m.text,
                &m.index,
                range,
                UNSUPPORTED_SYNTAX,
                Severity::Error,
                format!("SyntaxError: {message}"),
            )
            .with_hint(format!(
                "the file uses syntax that Python {major}.{minor} (--python-version) rejects"
            ));
            return (
                FileResult {
                    path: display,
                    findings: Vec::new(),
                    fatal: Some(d),
                    incomplete: false,
                    parse_time,
                    analysis_time: Default::default(),
                    types: Vec::new(),
                    coverage: Default::default(),
                    causes: Vec::new(),
                },
                Vec::new(),
            );
        }
    }
    // Module 0 is the entry; the rest are the project modules it imports, transitively (or,
    // forked, every project module).
    let source = |i: usize| SourceModule {
        name: project.modules[i].name.clone(),
        suite: project.modules[i].parsed.suite(),
        report: i == entry,
        is_package: project.modules[i].is_package,
    };
    let mut order = vec![entry];
    match start {
        Start::Fork(_) => order.extend(0..project.modules.len()),
        Start::Fresh => {
            let mut seen = vec![false; project.modules.len()];
            seen[entry] = true;
            let mut next = 0;
            while next < order.len() {
                let m = &project.modules[order[next]];
                next += 1;
                for name in ranklift_python::project::imported_module_names(m) {
                    if let Some(i) = project.module(&name)
                        && !seen[i]
                    {
                        seen[i] = true;
                        order.push(i);
                    }
                }
            }
        }
    }
    let config = Config {
        fuel: opts.fuel,
        numpy: opts.numpy,
        array_like: array_like.clone(),
        stop: opts.stop.clone(),
        collect_types: opts.types,
        deadline: opts.time_budget.map(|b| std::time::Instant::now() + b),
    };
    let started = std::time::Instant::now();
    let crate::interp::RunOutput {
        findings,
        out_of_fuel,
        origins,
        types,
        unknown,
        coverage,
    } = match start {
        Start::Fork(base) => base.fork(source(entry), &config),
        Start::Fresh => Interp::new(order.iter().map(|&i| source(i)).collect(), &config),
    }
    .run(0);
    let mut types: Vec<(ruff_text_size::TextRange, String)> = types
        .into_iter()
        .map(|(r, (tensor, s))| {
            let kind = if tensor { "Tensor" } else { "ndarray" };
            (r, format!("{kind} {}", crate::explain::shape_text(&s)))
        })
        .collect();
    types.extend(unknown.into_iter().map(|(r, cause)| {
        let why = if cause == crate::interp::coverage::NO_CALLER {
            "it comes from the arguments of a function never called here".to_owned()
        } else if cause == crate::interp::coverage::CALL_BUDGET {
            "it comes from a call the analysis cut short (its step budget)".to_owned()
        } else {
            format!("it comes from `{cause}`, which the analysis does not model")
        };
        (r, format!("unknown shape ({why})"))
    }));
    types.sort_by_key(|(r, _)| r.start());
    let parsed_of = |m: u32| &project.modules[order[m as usize]].parsed;
    let line_of = |m: u32, r: ruff_text_size::TextRange| {
        let p = parsed_of(m);
        Some(p.index.line_column(r.start(), &p.text).line.get())
    };
    let explain = |f: &crate::interp::Finding| {
        let p = parsed_of(f.module);
        crate::explain::explain(f, &p.text, p.suite(), &origins, &line_of)
    };
    // Headline with the operands' shapes, NumPy's wording kept, notes on where they came from.
    let explained = |mut d: Diagnostic, e: Option<crate::explain::Explained>, f_module: u32| {
        if let Some(e) = e {
            let index = &parsed_of(f_module).index;
            let tail = d
                .message
                .find(" [possible: ")
                .map(|i| d.message[i..].to_owned())
                .unwrap_or_default();
            d.runtime_message = Some(d.message.trim_end_matches(&tail).to_owned());
            d.message = format!("{}{tail}", e.headline);
            for (r, msg) in e.notes {
                d = d.with_note(index, r, msg);
            }
        }
        d
    };
    let analysis_time = started.elapsed();
    let m = &project.modules[entry].parsed;
    let text: &Arc<str> = &m.text;
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    let mut imported = Vec::new();
    for f in findings {
        let why = explain(&f);
        let f_module = f.module;
        let possible = match &f.certainty {
            Certainty::Certain => None,
            Certainty::Possible(reason) => Some(reason.clone()),
        };
        if possible.is_some() && !opts.possible {
            continue;
        }
        // Inside an imported module: certain shape errors (W5xx, and unpacking a value of a
        // known number of items, E018) only, at that module's own file and line, and not
        // under a condition of their function that the analysis could not decide. A possible
        // finding there depends on what this entry passed; a type or attribute error on the
        // entry's arguments usually sits behind a duck-typing dispatch the analysis cannot
        // follow (`if hasattr(X, "columns")` on a pandas frame). And the user's own question:
        // a `reveal_shape(x)` there, as the entry's run reached it.
        if f.module != 0 {
            let shape_error = f.code.starts_with("W5") || f.code == "E018";
            if possible.is_none() && (f.code == "W304" || !f.guarded && shape_error) {
                let pm = &project.modules[order[f.module as usize]];
                let line_text = |d: &Diagnostic| {
                    pm.parsed
                        .text
                        .lines()
                        .nth(d.line - 1)
                        .unwrap_or("")
                        .to_owned()
                };
                let severity = crate::codes::severity(f.code, true);
                let mut d = Diagnostic::new(
                    &display_of(order[f.module as usize]),
                    &pm.parsed.text,
                    &pm.parsed.index,
                    f.range,
                    f.code,
                    severity,
                    f.message,
                );
                d = explained(d, why, f_module);
                if !ignored(&line_text(&d), f.code) {
                    let reached = format!("reached by running {display}");
                    d = d.with_hint(match crate::codes::hint(f.code) {
                        Some(h) => format!("{h} ({reached})"),
                        None => reached,
                    });
                    imported.push(d);
                }
            }
            continue;
        }
        let d = Diagnostic::new(
            &display,
            text,
            &m.index,
            f.range,
            f.code,
            crate::codes::severity(f.code, possible.is_none()),
            match &possible {
                Some(reason) => format!("{} [possible: {reason}]", f.message),
                None => f.message,
            },
        );
        let mut d = explained(d, why, f_module);
        if ignored(lines.get(d.line - 1).copied().unwrap_or(""), f.code) {
            continue;
        }
        if let Some(h) = crate::codes::hint(f.code) {
            d = d.with_hint(h);
        }
        out.push(d);
    }
    if out_of_fuel {
        let end = project.modules[entry]
            .parsed
            .suite()
            .first()
            .map(|s| s.range())
            .unwrap_or_default();
        out.push(
            Diagnostic::new(
                &display,
                text,
                &m.index,
                ruff_text_size::TextRange::empty(end.start()),
                INCOMPLETE,
                Severity::Note,
                "analysis budget exhausted: part of this file was not analysed",
            )
            .with_hint(
                "findings above are still certain; raise the budget with --fuel (steps) or --time-budget (seconds)",
            ),
        );
    }
    let causes = coverage
        .causes
        .iter()
        .take(50)
        .map(|c| {
            let p = parsed_of(c.module);
            let lc = p.index.line_column(c.range.start(), &p.text);
            Cause {
                name: c.name.clone(),
                path: display_of(order[c.module as usize]),
                line: lc.line.get(),
                column: lc.column.get(),
                uses: c.uses,
                darkened: c.darkened,
            }
        })
        .collect();
    (
        FileResult {
            path: display,
            findings: out,
            fatal: None,
            incomplete: out_of_fuel,
            parse_time,
            analysis_time,
            types,
            coverage,
            causes,
        },
        imported,
    )
}

/// A cause of unknown values, located: a library attribute the analysis does not model (or
/// the arguments of functions never called), how often it was met, and how many of the
/// file's expressions were left unknown by it.
#[derive(Debug, Clone)]
pub struct Cause {
    pub name: String,
    pub path: String,
    pub line: usize,
    pub column: usize,
    pub uses: u32,
    pub darkened: u32,
}

/// `# ranklift: ignore` or `# ranklift: ignore[W502, E001]` on the line (also `pytropos:`).
fn ignored(line: &str, code: &str) -> bool {
    let Some(pos) = line
        .find("# ranklift: ignore")
        .or_else(|| line.find("# pytropos: ignore"))
    else {
        return false;
    };
    let rest = &line[pos..];
    let rest = &rest[rest.find("ignore").unwrap_or(0) + "ignore".len()..];
    match rest.strip_prefix('[') {
        Some(list) => list
            .split(']')
            .next()
            .unwrap_or("")
            .split(',')
            .any(|c| c.trim() == code),
        None => true,
    }
}

#[cfg(test)]
mod tests {
    use super::ignored;

    #[test]
    fn ignore_comments() {
        assert!(ignored("x = a + b  # ranklift: ignore[W502]", "W502"));
        assert!(ignored("x = a + b  # ranklift: ignore[E001, W502]", "W502"));
        assert!(!ignored("x = a + b  # ranklift: ignore[W503]", "W502"));
        assert!(ignored("x = a + b  # ranklift: ignore", "W502"));
        assert!(!ignored("x = a + b", "W502"));
    }
}
