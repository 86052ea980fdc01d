//! Projects: the set of files ranklift reads, the Python modules among them, and imports between
//! them.
//!
//! A project is either a directory (walked recursively, honouring `.gitignore`, `.ignore` and
//! hidden-file rules even outside a git repository) or a single `.py` file plus the modules of its
//! own directory that it imports, transitively (loaded on demand, so pointing ranklift at one file
//! in a large directory stays cheap).

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use rayon::prelude::*;

use crate::diagnostics::{Diagnostic, Severity};
use crate::files::Excludes;
use crate::parse::ParsedModule;
use crate::source::SourceFile;

/// Code for a file that cannot be read or decoded (exit 2): permissions, not a regular file,
/// larger than the size bound, bytes that are not valid in the file's encoding (located at
/// the byte, as CPython reports it), a notebook that is not one or runs another language.
/// The other files are still processed.
pub const IO_ERROR: &str = "RL002";

/// A file ranklift writes at the top of every output directory it creates. Directories holding
/// it are earlier outputs: never analysed as part of a project, and replaceable by a new output.
pub const OUTPUT_MARKER: &str = ".ranklift-output";

/// One Python module of a project.
pub struct Module {
    /// Path relative to the project root, with `/` separators (used in all output).
    pub rel_path: String,
    /// Dotted module name (`pkg.sub.mod`; `pkg` for `pkg/__init__.py`).
    pub name: String,
    pub is_package: bool,
    pub parsed: ParsedModule,
}

pub struct Project {
    pub root: PathBuf,
    /// Every file of the project (relative paths), Python or not, for copying.
    pub files: Vec<String>,
    pub modules: Vec<Module>,
    by_name: HashMap<String, usize>,
    /// For a single-file project: the index of that file.
    pub entry: Option<usize>,
    /// Files that could not be read, decoded or parsed.
    pub errors: Vec<Diagnostic>,
}

fn module_name(rel: &str) -> (String, bool) {
    let no_ext = rel.strip_suffix(".py").unwrap_or(rel);
    let mut parts: Vec<&str> = no_ext.split('/').collect();
    let is_package = parts.last() == Some(&"__init__");
    if is_package {
        parts.pop();
    }
    (parts.join("."), is_package)
}

fn rel_string(root: &Path, path: &Path) -> String {
    let rel = path.strip_prefix(root).unwrap_or(path);
    rel.components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join("/")
}

fn load_module(root: &Path, rel: &str) -> Result<Module, Box<Diagnostic>> {
    let path = root.join(rel);
    let file = SourceFile::load(&path).map_err(|e| Box::new(e.to_diagnostic(rel)))?;
    let parsed = ParsedModule::parse(file, rel)?;
    let (name, is_package) = module_name(rel);
    Ok(Module {
        rel_path: rel.to_owned(),
        name,
        is_package,
        parsed,
    })
}

/// A module whose text is already in memory (its name is the file's path without its
/// extension: `nb` for `nb.ipynb`, `pkg.models.net` for `pkg/models/net.py`).
fn module_from_text(path: &Path, rel: &str, text: String) -> Result<Module, Box<Diagnostic>> {
    let file = SourceFile {
        path: path.to_path_buf(),
        text,
        encoding: crate::source::Encoding::Utf8,
    };
    let parsed = ParsedModule::parse(file, rel)?;
    let stem = rel.rsplit_once('.').map_or(rel, |(s, _)| s);
    let (name, is_package) = module_name(&format!("{stem}.py"));
    Ok(Module {
        rel_path: rel.to_owned(),
        name,
        is_package,
        parsed,
    })
}

impl Project {
    /// Load a directory project: every file, and every `.py` file parsed (in parallel).
    /// `exclude` is a directory left out of the walk (e.g. an output directory inside the project).
    /// The default excludes apply (`crate::files`).
    pub fn load_dir(
        root: &Path,
        exclude: Option<&Path>,
        on_progress: &(dyn Fn(usize, usize) + Sync),
    ) -> Project {
        Project::load_dir_excluding(root, exclude, &Excludes::default(), on_progress)
    }

    /// [`Project::load_dir`] with the given excludes (`[tool.ranklift] exclude`, `--exclude`).
    pub fn load_dir_excluding(
        root: &Path,
        exclude: Option<&Path>,
        excludes: &Excludes,
        on_progress: &(dyn Fn(usize, usize) + Sync),
    ) -> Project {
        let mut files = Vec::new();
        let exclude = exclude.and_then(|e| e.canonicalize().ok());
        let excludes = excludes.clone();
        let base = root.to_path_buf();
        let above = crate::files::ParentIgnores::stderr(root);
        let walker = ignore::WalkBuilder::new(root)
            .require_git(false)
            .parents(false)
            .hidden(true)
            .sort_by_file_name(|a, b| a.cmp(b))
            .filter_entry(move |e| {
                let is_dir = e.file_type().is_some_and(|t| t.is_dir());
                if e.depth() > 0 && above.ignored(&base, e.path(), is_dir) {
                    return false;
                }
                if is_dir && e.depth() > 0 && e.path().join(OUTPUT_MARKER).is_file() {
                    return false;
                }
                if e.depth() > 0
                    && excludes.excluded(&rel_string(&base, e.path()), is_dir.then(|| e.path()))
                {
                    return false;
                }
                match (&exclude, e.path().canonicalize()) {
                    (Some(x), Ok(p)) => !p.starts_with(x),
                    _ => true,
                }
            })
            .build();
        let mut errors = Vec::new();
        for entry in walker {
            match entry {
                // A symlinked module is part of the program: follow links to regular files.
                Ok(e)
                    if e.file_type()
                        .is_some_and(|t| t.is_file() || (t.is_symlink() && e.path().is_file())) =>
                {
                    files.push(rel_string(root, e.path()))
                }
                Ok(_) => {}
                Err(err) => errors.push(Diagnostic::file_level(
                    &root.display().to_string(),
                    IO_ERROR,
                    Severity::Error,
                    format!("cannot walk the project: {err}"),
                )),
            }
        }
        let py: Vec<&String> = files.iter().filter(|f| f.ends_with(".py")).collect();
        let total = py.len();
        let done = std::sync::atomic::AtomicUsize::new(0);
        let results: Vec<Result<Module, Box<Diagnostic>>> = py
            .par_iter()
            .map(|rel| {
                let r = load_module(root, rel);
                let n = done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
                on_progress(n, total);
                r
            })
            .collect();
        let mut project = Project {
            root: root.to_path_buf(),
            files,
            modules: Vec::new(),
            by_name: HashMap::new(),
            entry: None,
            errors,
        };
        for r in results {
            match r {
                Ok(m) => project.push(m),
                Err(d) => project.errors.push(*d),
            }
        }
        project
    }

    /// Load a single-file project. `follow` decides, from the parsed entry module, whether to load
    /// the sibling modules it imports (transitively).
    pub fn load_file(path: &Path, follow: &dyn Fn(&Module) -> bool) -> Project {
        Project::load_file_with(path, None, follow)
    }

    /// As [`Project::load_file`], with the entry's text given instead of read from `path` (an
    /// editor's unsaved buffer, a notebook's code cells); its siblings are still read from disk.
    pub fn load_file_with(
        path: &Path,
        text: Option<String>,
        follow: &dyn Fn(&Module) -> bool,
    ) -> Project {
        let root = path.parent().map(Path::to_path_buf).unwrap_or_default();
        let root = if root.as_os_str().is_empty() {
            PathBuf::from(".")
        } else {
            root
        };
        let rel = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        Project::single(path, root, rel, text, follow)
    }

    /// As [`Project::load_file_with`], for a file that may sit inside a package (its directory
    /// holds an `__init__.py`): the project's root is then the directory above the outermost
    /// package, which is what Python (and pytest's default import mode) puts on `sys.path`, so
    /// the file's relative imports and the absolute imports of its own package resolve
    /// (`pkg/models/resnet.py` with `from .layers import Block`, `pkg/tests/test_x.py` with
    /// `from pkg.models import Net`). Only directory entries are looked at, at most
    /// [`MAX_PACKAGE_DEPTH`] levels up; a file outside any package loads as `load_file_with`.
    pub fn load_file_in_package(
        path: &Path,
        text: Option<String>,
        follow: &dyn Fn(&Module) -> bool,
    ) -> Project {
        let Some((root, rel)) = package_root(path) else {
            return Project::load_file_with(path, text, follow);
        };
        Project::single(path, root, rel, text, follow)
    }

    /// A project of one entry module (`path`, which is `rel` under `root`; its text read, or
    /// given) and, if `follow` says so, the modules under `root` it imports, transitively.
    fn single(
        path: &Path,
        root: PathBuf,
        rel: String,
        text: Option<String>,
        follow: &dyn Fn(&Module) -> bool,
    ) -> Project {
        let loaded = match text {
            None => load_module(&root, &rel),
            Some(text) => module_from_text(path, &rel, text),
        };
        let mut project = Project {
            root,
            files: vec![rel],
            modules: Vec::new(),
            by_name: HashMap::new(),
            entry: None,
            errors: Vec::new(),
        };
        match loaded {
            Ok(m) => {
                let follow_imports = follow(&m);
                project.push(m);
                project.entry = Some(0);
                if follow_imports {
                    project.load_imported_siblings();
                }
            }
            Err(d) => project.errors.push(*d),
        }
        project
    }

    fn push(&mut self, m: Module) {
        self.by_name.insert(m.name.clone(), self.modules.len());
        self.modules.push(m);
    }

    /// Load, transitively, the modules of the root directory that loaded modules import.
    fn load_imported_siblings(&mut self) {
        let mut next = 0;
        while next < self.modules.len() {
            let wanted: Vec<String> = imported_module_names(&self.modules[next]);
            next += 1;
            for name in wanted {
                if self.by_name.contains_key(&name) {
                    continue;
                }
                let rel_file = format!("{}.py", name.replace('.', "/"));
                let rel_pkg = format!("{}/__init__.py", name.replace('.', "/"));
                for rel in [rel_file, rel_pkg] {
                    if self.root.join(&rel).is_file() {
                        match load_module(&self.root, &rel) {
                            Ok(m) => {
                                self.files.push(rel.clone());
                                self.push(m);
                            }
                            Err(d) => self.errors.push(*d),
                        }
                        break;
                    }
                }
            }
        }
    }

    pub fn module(&self, name: &str) -> Option<usize> {
        self.by_name.get(name).copied()
    }

    /// Resolve `from <level dots><name> import ...` / `import <name>` written in module `from` to a
    /// module of this project. Absolute names are looked up from the project root and from the
    /// importing file's directory (the script directory is `sys.path[0]` when it is run).
    pub fn resolve_import(&self, from: usize, level: u32, name: &str) -> Option<usize> {
        let m = &self.modules[from];
        if level > 0 {
            let mut pkg: Vec<&str> = m.name.split('.').collect();
            if !m.is_package {
                pkg.pop();
            }
            for _ in 1..level {
                pkg.pop()?;
            }
            let mut full = pkg.join(".");
            if !name.is_empty() {
                if !full.is_empty() {
                    full.push('.');
                }
                full.push_str(name);
            }
            return self.module(&full);
        }
        if let Some(i) = self.module(name) {
            return Some(i);
        }
        // Relative to the importing file's directory.
        let dir: Vec<&str> = m.rel_path.split('/').collect();
        if dir.len() > 1 {
            let prefix = dir[..dir.len() - 1].join(".");
            return self.module(&format!("{prefix}.{name}"));
        }
        None
    }
}

/// Packages nested deeper than this are not looked for above a file.
pub const MAX_PACKAGE_DEPTH: usize = 16;

/// For a `.py` file inside a package: the directory above its outermost package and the
/// file's path from there (`/`-separated). The root is spelled as the file's own path is
/// (relative paths stay relative, walking up with `..` only when the given path is too short).
fn package_root(path: &Path) -> Option<(PathBuf, String)> {
    let dir = path.parent().filter(|p| !p.as_os_str().is_empty());
    let dir = dir.map_or_else(|| PathBuf::from("."), Path::to_path_buf);
    if !dir.join("__init__.py").is_file() || path.extension().is_none_or(|e| e != "py") {
        return None;
    }
    let canonical = std::fs::canonicalize(&dir).ok()?;
    let mut root = canonical.as_path();
    let mut depth = 0;
    while root.join("__init__.py").is_file() {
        root = root.parent()?;
        depth += 1;
        if depth > MAX_PACKAGE_DEPTH {
            return None;
        }
    }
    // The packages between the root and the file: its path from the root.
    let below: Vec<String> = canonical
        .strip_prefix(root)
        .ok()?
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    let file = path.file_name()?.to_string_lossy().into_owned();
    let rel = below
        .iter()
        .cloned()
        .chain(std::iter::once(file))
        .collect::<Vec<_>>()
        .join("/");
    // The root as the user wrote the path: strip as many trailing components from `dir` as
    // there are packages; if `dir` is shorter (`.`, or `sub/`), go up with `..`.
    let mut spelled = dir.clone();
    for _ in 0..below.len() {
        let last = spelled
            .file_name()
            .map(|n| n.to_string_lossy().into_owned());
        match last {
            Some(n) if n != ".." && spelled.parent().is_some() => {
                spelled = spelled.parent().map(Path::to_path_buf).unwrap_or_default();
            }
            _ => spelled.push(".."),
        }
    }
    if spelled.as_os_str().is_empty() {
        spelled = PathBuf::from(".");
    }
    Some((spelled, rel))
}

/// The absolute module names a module imports (`import a.b` gives `a`, `a.b`; `from a import b`
/// gives `a`, `a.b`). Relative imports are resolved against the module's own name.
/// A script that imports a package of a project it lives inside (`projects/chargpt/chargpt.py`
/// importing `mingpt`, which `pip install -e .` installed from `../..`): the project's root —
/// the nearest ancestor, at most four levels up, that holds a packaging file (`pyproject.toml`,
/// `setup.py`, `setup.cfg`) and the imported package (`mingpt/__init__.py`) or module — the
/// script's path from that root, and the package's name. None when the script's own directory
/// provides every module it imports, or no such ancestor exists. Only directory entries are
/// looked at, and the imported names (identifiers, as parsed) only name children of those
/// ancestors: the script's text cannot choose a path outside them.
pub fn installed_project_root(script: &Path) -> Option<(PathBuf, String, String)> {
    let dir = script
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .map_or_else(|| PathBuf::from("."), Path::to_path_buf);
    let file = script.file_name()?.to_string_lossy().into_owned();
    let m = load_module(&dir, &file).ok()?;
    let mut wanted: Vec<String> = imported_module_names(&m)
        .into_iter()
        .map(|n| n.split('.').next().unwrap_or_default().to_owned())
        .filter(|n| !n.is_empty())
        .filter(|n| !dir.join(format!("{n}.py")).is_file() && !dir.join(n).is_dir())
        .collect();
    wanted.sort();
    wanted.dedup();
    if wanted.is_empty() {
        return None;
    }
    let abs = std::fs::canonicalize(&dir).ok()?;
    let mut up = PathBuf::from(&dir);
    let mut rel = PathBuf::from(&file);
    for ancestor in abs.ancestors().skip(1).take(4) {
        rel = Path::new(abs.strip_prefix(ancestor).ok()?).join(&file);
        up.push("..");
        let marked = ["pyproject.toml", "setup.py", "setup.cfg"]
            .iter()
            .any(|f| ancestor.join(f).is_file());
        if !marked {
            continue;
        }
        let found = wanted.iter().find(|n| {
            ancestor.join(n).join("__init__.py").is_file()
                || ancestor.join(format!("{n}.py")).is_file()
        });
        return found.map(|n| {
            let rel = rel.to_string_lossy().replace('\\', "/");
            (normalize(&up), rel, n.clone())
        });
    }
    let _ = rel;
    None
}

/// `a/b/../..` → `.`: a path of `..` steps after a relative directory, written short.
fn normalize(p: &Path) -> PathBuf {
    let mut out: Vec<std::path::Component> = Vec::new();
    for c in p.components() {
        match c {
            std::path::Component::CurDir => {}
            std::path::Component::ParentDir
                if matches!(out.last(), Some(std::path::Component::Normal(_))) =>
            {
                out.pop();
            }
            other => out.push(other),
        }
    }
    if out.is_empty() {
        PathBuf::from(".")
    } else {
        out.iter().collect()
    }
}

pub fn imported_module_names(m: &Module) -> Vec<String> {
    use ruff_python_ast::statement_visitor::{StatementVisitor, walk_stmt};
    use ruff_python_ast::{Stmt, StmtImport, StmtImportFrom};
    struct V<'a> {
        m: &'a Module,
        out: Vec<String>,
    }
    impl<'b> StatementVisitor<'b> for V<'_> {
        fn visit_stmt(&mut self, stmt: &'b Stmt) {
            match stmt {
                Stmt::Import(StmtImport { names, .. }) => {
                    for a in names {
                        let mut acc = String::new();
                        for part in a.name.as_str().split('.') {
                            if !acc.is_empty() {
                                acc.push('.');
                            }
                            acc.push_str(part);
                            self.out.push(acc.clone());
                        }
                    }
                }
                Stmt::ImportFrom(StmtImportFrom {
                    module,
                    names,
                    level,
                    ..
                }) => {
                    let base = if *level > 0 {
                        let mut pkg: Vec<&str> = self.m.name.split('.').collect();
                        if !self.m.is_package {
                            pkg.pop();
                        }
                        for _ in 1..*level {
                            pkg.pop();
                        }
                        let mut b = pkg.join(".");
                        if let Some(md) = module {
                            if !b.is_empty() {
                                b.push('.');
                            }
                            b.push_str(md.as_str());
                        }
                        b
                    } else {
                        module.as_ref().map(|m| m.to_string()).unwrap_or_default()
                    };
                    if !base.is_empty() {
                        self.out.push(base.clone());
                    }
                    for a in names {
                        if a.name.as_str() != "*" {
                            let full = if base.is_empty() {
                                a.name.to_string()
                            } else {
                                format!("{base}.{}", a.name)
                            };
                            self.out.push(full);
                        }
                    }
                }
                _ => walk_stmt(self, stmt),
            }
        }
    }
    let mut v = V { m, out: Vec::new() };
    v.visit_body(m.parsed.suite());
    v.out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn module_names() {
        assert_eq!(module_name("pkg/sub/mod.py"), ("pkg.sub.mod".into(), false));
        assert_eq!(module_name("pkg/__init__.py"), ("pkg".into(), true));
        assert_eq!(module_name("train.py"), ("train".into(), false));
    }

    #[test]
    fn relative_and_absolute_imports_resolve() {
        let dir = std::env::temp_dir().join(format!("ranklift-proj-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("pkg/sub")).unwrap();
        std::fs::write(dir.join("main.py"), "from pkg.sub import models\n").unwrap();
        std::fs::write(dir.join("pkg/__init__.py"), "").unwrap();
        std::fs::write(dir.join("pkg/sub/__init__.py"), "from . import models\n").unwrap();
        std::fs::write(dir.join("pkg/sub/models.py"), "from ..util import f\n").unwrap();
        std::fs::write(dir.join("pkg/util.py"), "def f(): pass\n").unwrap();
        std::fs::write(dir.join(".gitignore"), "ignored/\n").unwrap();
        std::fs::create_dir_all(dir.join("ignored")).unwrap();
        std::fs::write(dir.join("ignored/x.py"), "x = (\n").unwrap();
        let p = Project::load_dir(&dir, None, &|_, _| {});
        assert!(p.errors.is_empty(), "{:?}", p.errors);
        assert!(
            p.module("ignored.x").is_none(),
            "gitignored files are skipped outside git"
        );
        let models = p.module("pkg.sub.models").unwrap();
        let main = p.module("main").unwrap();
        let init = p.module("pkg.sub").unwrap();
        assert_eq!(p.resolve_import(main, 0, "pkg.sub.models"), Some(models));
        assert_eq!(p.resolve_import(init, 1, "models"), Some(models));
        assert_eq!(p.resolve_import(models, 2, "util"), p.module("pkg.util"));
        assert_eq!(p.resolve_import(models, 0, "numpy"), None);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
