//! Copying a project into an output directory so that the output runs where the input ran.
//!
//! Every entry of the input is decided once, and every decision other than "copied" is
//! reported with its reason:
//! - rewritten files are written with their new bytes (and the original's permissions);
//! - other files are copied, hidden ones too (`.env`, `.gitignore`, configuration);
//! - symbolic links stay links: one that points inside the project keeps its relative target,
//!   one that points outside is made absolute so it still resolves from the output;
//! - a `.gitignore`d directory (data, checkpoints, a virtualenv) is *linked*, not copied: it can
//!   be large, and the program finds it at the same relative path; a `.gitignore`d file larger
//!   than [`LINK_ABOVE`] likewise — but a directory that holds a rewritten file is never linked
//!   (its rewrite would be lost behind the link, and the output would run the original): it is
//!   copied, its other entries decided one by one;
//! - left out: `.git` (version control), `__pycache__` (regenerated), earlier ranklift outputs,
//!   virtual environments (a directory with `pyvenv.cfg`: copying one is slow and breaks it),
//!   the output directory itself, and what is not a file, directory or link (FIFOs, sockets,
//!   devices).

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use crate::write::OUTPUT_MARKER;

/// `.gitignore`d files above this size are linked instead of copied.
pub const LINK_ABOVE: u64 = 16 << 20;

#[derive(Default)]
pub struct Report {
    /// (relative path, why)
    pub left_out: Vec<(String, &'static str)>,
    /// (relative path, link target, why)
    pub linked: Vec<(String, PathBuf, &'static str)>,
}

struct Copier<'a> {
    src_root: PathBuf,
    out_root: &'a Path,
    changes: &'a HashMap<&'a str, &'a [u8]>,
    /// Relative paths the gitignore-aware walk yields (everything not ignored).
    kept: HashSet<String>,
    /// Canonical paths never to enter (the output directory, when it is inside the project).
    exclude: Vec<PathBuf>,
    pycache: usize,
    report: Report,
    /// The rewritten files written so far (each must be, as a file of the output's own).
    written: HashSet<String>,
}

fn rel_of(root: &Path, p: &Path) -> String {
    p.strip_prefix(root)
        .unwrap_or(p)
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join("/")
}

/// Copy the project at `src_root` into the (empty) directory `out_root`, with `changes` (relative
/// path → new bytes) applied.
pub fn copy_project(
    src_root: &Path,
    out_root: &Path,
    changes: &HashMap<&str, &[u8]>,
    exclude: &[PathBuf],
) -> Result<Report, String> {
    let src_root = src_root
        .canonicalize()
        .map_err(|e| format!("{}: {e}", src_root.display()))?;
    let mut kept = HashSet::new();
    let above = ranklift_python::files::ParentIgnores::for_root(&src_root, &|_, _| {});
    let base = src_root.clone();
    let walker = ignore::WalkBuilder::new(&src_root)
        .standard_filters(false)
        .git_ignore(true)
        .git_exclude(true)
        .ignore(true)
        .parents(false)
        .require_git(false)
        .filter_entry(move |e| {
            let is_dir = e.file_type().is_some_and(|t| t.is_dir());
            e.depth() == 0 || !above.ignored(&base, e.path(), is_dir)
        })
        .build();
    for e in walker.flatten() {
        kept.insert(rel_of(&src_root, e.path()));
    }
    let mut c = Copier {
        src_root: src_root.clone(),
        out_root,
        changes,
        kept,
        exclude: exclude
            .iter()
            .filter_map(|p| p.canonicalize().ok())
            .collect(),
        pycache: 0,
        report: Report::default(),
        written: HashSet::new(),
    };
    c.dir(&src_root)?;
    if c.pycache > 0 {
        c.report.left_out.push((
            format!(
                "{} __pycache__ director{}",
                c.pycache,
                if c.pycache == 1 { "y" } else { "ies" }
            ),
            "bytecode caches, which Python regenerates",
        ));
    }
    for rel in changes.keys() {
        if !c.written.contains(*rel) {
            return Err(format!(
                "{rel}: rewritten, but not found in the project walk"
            ));
        }
    }
    Ok(c.report)
}

impl Copier<'_> {
    fn dir(&mut self, dir: &Path) -> Result<(), String> {
        let mut entries: Vec<_> = std::fs::read_dir(dir)
            .map_err(|e| format!("{}: {e}", dir.display()))?
            .collect::<Result<_, _>>()
            .map_err(|e| format!("{}: {e}", dir.display()))?;
        entries.sort_by_key(|e| e.file_name());
        for e in entries {
            self.entry(&e.path())?;
        }
        Ok(())
    }

    fn entry(&mut self, path: &Path) -> Result<(), String> {
        let rel = rel_of(&self.src_root, path);
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy())
            .unwrap_or_default();
        let meta = std::fs::symlink_metadata(path).map_err(|e| format!("{rel}: {e}"))?;
        let ft = meta.file_type();
        let out = self.out_root.join(&rel);
        if ft.is_dir() {
            if name == ".git" {
                self.report.left_out.push((rel, "version-control data"));
                return Ok(());
            }
            if name == "__pycache__" {
                self.pycache += 1;
                return Ok(());
            }
            if self.exclude.iter().any(|x| path == x.as_path()) {
                return Ok(());
            }
            if path.join(OUTPUT_MARKER).is_file() {
                self.report
                    .left_out
                    .push((rel, "an earlier ranklift output"));
                return Ok(());
            }
            if path.join(ranklift_python::files::VENV_MARKER).is_file() {
                self.report.left_out.push((
                    rel,
                    "a virtual environment (it holds absolute paths to where it was made: run the output with it where it is, or make a new one)",
                ));
                return Ok(());
            }
            let holds_change = self.changes.keys().any(|c| {
                c.len() > rel.len() && c.starts_with(&rel) && c[rel.len()..].starts_with('/')
            });
            if !self.kept.contains(&rel) && !holds_change {
                self.link(
                    &rel,
                    path.to_path_buf(),
                    "gitignored directory (data?), linked rather than copied",
                )?;
                return Ok(());
            }
            std::fs::create_dir_all(&out).map_err(|e| format!("{}: {e}", out.display()))?;
            return self.dir(path);
        }
        if ft.is_symlink() {
            return self.symlink(path, &rel, &out);
        }
        if ft.is_file() {
            if let Some(bytes) = self.changes.get(rel.as_str()) {
                std::fs::write(&out, bytes).map_err(|e| format!("{}: {e}", out.display()))?;
                let _ = std::fs::set_permissions(&out, meta.permissions());
                self.written.insert(rel);
                return Ok(());
            }
            if !self.kept.contains(&rel) && meta.len() > LINK_ABOVE {
                return self.link(
                    &rel,
                    path.to_path_buf(),
                    "large gitignored file, linked rather than copied",
                );
            }
            std::fs::copy(path, &out).map_err(|e| format!("{rel}: {e}"))?;
            return Ok(());
        }
        self.report.left_out.push((
            rel,
            "not a regular file, directory or link (a FIFO, socket or device)",
        ));
        Ok(())
    }

    fn link(&mut self, rel: &str, target: PathBuf, why: &'static str) -> Result<(), String> {
        let out = self.out_root.join(rel);
        make_symlink(&target, &out)?;
        self.report.linked.push((rel.to_owned(), target, why));
        Ok(())
    }

    /// Recreate a symlink. A rewritten module behind a link is written as a file.
    fn symlink(&mut self, path: &Path, rel: &str, out: &Path) -> Result<(), String> {
        if let Some(bytes) = self.changes.get(rel) {
            self.written.insert(rel.to_owned());
            return std::fs::write(out, bytes).map_err(|e| format!("{}: {e}", out.display()));
        }
        let target = std::fs::read_link(path).map_err(|e| format!("{rel}: {e}"))?;
        let resolved = path.parent().unwrap_or(Path::new(".")).join(&target);
        let target = match resolved.canonicalize() {
            // Inside the project: the same relative link resolves in the output too.
            Ok(c) if target.is_relative() && c.starts_with(&self.src_root) => target,
            Ok(c) => c,
            Err(_) => {
                self.report.left_out.push((
                    rel.to_owned(),
                    "a dangling symbolic link (its target does not exist)",
                ));
                return Ok(());
            }
        };
        make_symlink(&target, out)
    }
}

fn make_symlink(target: &Path, at: &Path) -> Result<(), String> {
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink(target, at).map_err(|e| format!("{}: {e}", at.display()))
    }
    #[cfg(not(unix))]
    {
        let _ = target;
        Err(format!(
            "{}: symbolic links are not supported here",
            at.display()
        ))
    }
}
