//! The one write path of ranklift. Every file the tool writes goes through here.
//!
//! Two shapes of write, both all-or-nothing:
//!
//! - [`Transaction`]: replace or create several files in place (`distribute --in-place`,
//!   `choreo project -o DIR`). Every new file is first *staged* next to its target (created
//!   exclusively with an unpredictable name, never through a symlink, written and synced, with
//!   the target's permissions). Then a journal listing every (target, staged, backup) is written
//!   and synced, each existing target is hard-linked to a backup and the staged file renamed over
//!   it. The journal's removal is the commit point. A failure before it rolls every target back
//!   from its backup; a process killed before it leaves the journal, and the next run
//!   ([`recover`]) rolls back the same way. So a project is byte-identical to before, or fully
//!   rewritten, never in between.
//! - [`write_tree`]: produce a whole output directory (`distribute -o DIR`). It is built in a
//!   private staging directory next to the destination and swapped in with one rename (an atomic
//!   exchange on Linux when the destination exists), so no stale file of an earlier output
//!   survives and a failure leaves the destination as it was. A destination that exists, is not
//!   empty and is not an earlier ranklift output (it has no [`OUTPUT_MARKER`]) is refused unless
//!   forced.
//!
//! Tests inject faults through `RANKLIFT_TEST_FAULT=fail:N` (the N-th file-system step, counted
//! from 0, fails with an I/O error) or `kill:N` (the process aborts there, as if killed).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicUsize, Ordering};

pub use ranklift_python::project::OUTPUT_MARKER;

pub use crate::journal::JOURNAL;

// ---------------------------------------------------------------------------------------------
// Fault injection (tests only; inert unless RANKLIFT_TEST_FAULT is set).

enum Fault {
    None,
    Fail(usize),
    Kill(usize),
}

fn fault() -> &'static Fault {
    static F: OnceLock<Fault> = OnceLock::new();
    F.get_or_init(|| {
        let Ok(v) = std::env::var("RANKLIFT_TEST_FAULT") else {
            return Fault::None;
        };
        match v.split_once(':') {
            Some(("fail", n)) => n.parse().map_or(Fault::None, Fault::Fail),
            Some(("kill", n)) => n.parse().map_or(Fault::None, Fault::Kill),
            _ => Fault::None,
        }
    })
}

/// One file-system step. Fails or aborts here when a test asked for it.
fn step(what: &str) -> std::io::Result<()> {
    static N: AtomicUsize = AtomicUsize::new(0);
    let n = N.fetch_add(1, Ordering::SeqCst);
    match fault() {
        Fault::Fail(k) if *k == n => Err(std::io::Error::other(format!(
            "injected fault at step {n} ({what})"
        ))),
        Fault::Kill(k) if *k == n => std::process::abort(),
        _ => Ok(()),
    }
}

fn err(path: &Path, e: impl std::fmt::Display) -> String {
    format!("{}: {e}", path.display())
}

fn parent_of(path: &Path) -> &Path {
    path.parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."))
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "out".into())
}

/// Sync a directory so that renames in it survive a crash (best effort: not every file system
/// lets a directory be opened).
fn sync_dir(dir: &Path) {
    if let Ok(f) = std::fs::File::open(dir) {
        let _ = f.sync_all();
    }
}

/// An unpredictable, currently unused name next to `target` (nothing is created: the caller
/// creates it exclusively later, so a file planted there in between makes that creation fail).
fn fresh_name(target: &Path, suffix: &str) -> Result<PathBuf, String> {
    let dir = parent_of(target);
    tempfile::Builder::new()
        .prefix(&format!(".{}.", file_name(target)))
        .suffix(suffix)
        .rand_bytes(10)
        .make_in(dir, |p| {
            if std::fs::symlink_metadata(p).is_ok() {
                Err(std::io::Error::from(std::io::ErrorKind::AlreadyExists))
            } else {
                Ok(())
            }
        })
        .map(|t| t.path().to_path_buf())
        .map_err(|e| err(target, e))
}

/// Create `path` exclusively (O_EXCL: never through a symlink) holding `bytes`, synced, with
/// `perms` if given.
fn create_exclusive(
    path: &Path,
    bytes: &[u8],
    perms: Option<std::fs::Permissions>,
) -> std::io::Result<()> {
    step("create staged file")?;
    let mut f = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(path)?;
    step("write staged file")?;
    f.write_all(bytes)?;
    f.sync_all()?;
    if let Some(p) = perms {
        f.set_permissions(p)?;
    }
    Ok(())
}

/// One file of a transaction, with absolute paths (the journal stores them relative).
struct Planned {
    target: PathBuf,
    staged: PathBuf,
    backup: Option<PathBuf>,
    existed: bool,
}

/// Several files replaced or created together, all or nothing. See the module documentation.
pub struct Transaction {
    dir: PathBuf,
    files: Vec<(PathBuf, Vec<u8>, Option<std::fs::Permissions>)>,
}

/// `path` relative to `root`, both canonical; an error when it is not inside.
fn inside(root: &Path, path: &Path, shown: &Path) -> Result<PathBuf, String> {
    match path.strip_prefix(root) {
        Ok(rel) if crate::journal::plain_relative(&rel.to_string_lossy()).is_some() => {
            Ok(rel.to_path_buf())
        }
        _ => Err(err(
            shown,
            format!(
                "resolves to {}, outside {}; ranklift writes only inside it",
                path.display(),
                root.display()
            ),
        )),
    }
}

/// The canonical form of `path`, whose file may not exist yet: its deepest existing ancestor
/// resolved, the rest appended.
fn resolve(path: &Path) -> Result<PathBuf, String> {
    let mut rest = Vec::new();
    let mut p = path;
    loop {
        match p.canonicalize() {
            Ok(c) => {
                let mut out = c;
                for r in rest.iter().rev() {
                    out.push(r);
                }
                return Ok(out);
            }
            Err(_) => {
                let (Some(parent), Some(name)) = (p.parent(), p.file_name()) else {
                    return Err(err(path, "cannot be resolved"));
                };
                rest.push(name.to_os_string());
                p = if parent.as_os_str().is_empty() {
                    Path::new(".")
                } else {
                    parent
                };
            }
        }
    }
}

impl Transaction {
    /// A transaction whose journal lives in `dir` (the project root, or the output directory).
    /// Every target must lie inside `dir`.
    pub fn new(dir: &Path) -> Transaction {
        Transaction {
            dir: dir.to_path_buf(),
            files: Vec::new(),
        }
    }

    /// Plan `bytes` as the future content of `target`. A target that is a symlink to a file
    /// inside the transaction's directory is written through (the file it points to is replaced,
    /// the link stays); one that points outside is refused. Nothing is written yet.
    pub fn stage(&mut self, target: &Path, bytes: &[u8]) -> Result<(), String> {
        let target = match std::fs::symlink_metadata(target) {
            Ok(m) if m.file_type().is_symlink() => {
                let real = target.canonicalize().map_err(|e| err(target, e))?;
                let root = resolve(&self.dir)?;
                inside(&root, &real, target).map_err(|e| {
                    format!("{e} (it is a symbolic link; rewrite the file it points to there, or write the output elsewhere with -o)")
                })?;
                real
            }
            _ => target.to_path_buf(),
        };
        self.plan(target, bytes)
    }

    /// Plan `bytes` as the future content of `target`, never writing through a symlink: a link
    /// at `target` is itself replaced by the file (the file it points to is not touched).
    pub fn stage_no_follow(&mut self, target: &Path, bytes: &[u8]) -> Result<(), String> {
        self.plan(target.to_path_buf(), bytes)
    }

    fn plan(&mut self, target: PathBuf, bytes: &[u8]) -> Result<(), String> {
        let meta = std::fs::symlink_metadata(&target).ok();
        if meta
            .as_ref()
            .is_some_and(|m| !m.is_file() && !m.file_type().is_symlink())
        {
            return Err(err(&target, "exists and is not a regular file"));
        }
        let perms = meta
            .filter(|m| m.is_file())
            .map(|m| m.permissions())
            .or_else(|| {
                // A symlink replaced by a file: it existed; the new file gets the usual mode.
                std::fs::symlink_metadata(&target)
                    .ok()
                    .map(|_| std::os::unix::fs::PermissionsExt::from_mode(0o644))
            });
        self.files.push((target, bytes.to_vec(), perms));
        Ok(())
    }

    /// Write every planned file. On an error, everything is rolled back and the error returned:
    /// the targets are as they were, and no temporary file is left.
    pub fn commit(self) -> Result<(), String> {
        if self.files.is_empty() {
            return Ok(());
        }
        std::fs::create_dir_all(&self.dir).map_err(|e| err(&self.dir, e))?;
        let root = self.dir.canonicalize().map_err(|e| err(&self.dir, e))?;
        // Every name is chosen and journaled before anything is created, so that a process
        // killed at any point leaves nothing the journal does not name.
        let mut planned = Vec::new();
        let mut entries = Vec::new();
        for (target, _, perms) in &self.files {
            // The directory resolved, the name itself not (a link there is replaced, not followed).
            let name = target
                .file_name()
                .ok_or_else(|| err(target, "not a file name"))?;
            let abs = resolve(parent_of(target))?.join(name);
            let rel = inside(&root, &abs, target)?;
            let staged = fresh_name(&abs, ".ranklift")?;
            let backup = match perms {
                Some(_) => Some(fresh_name(&abs, ".ranklift-bak")?),
                None => None,
            };
            let rel_of = |p: &Path| -> Result<String, String> {
                let r = inside(&root, p, target)?;
                r.to_str()
                    .map(str::to_owned)
                    .ok_or_else(|| err(target, "the path is not valid UTF-8"))
            };
            entries.push(crate::journal::Entry {
                target: rel
                    .to_str()
                    .ok_or_else(|| err(target, "the path is not valid UTF-8"))?
                    .to_owned(),
                staged: rel_of(&staged)?,
                backup: backup.as_deref().map(rel_of).transpose()?,
                existed: perms.is_some(),
            });
            planned.push(Planned {
                target: abs,
                staged,
                backup,
                existed: perms.is_some(),
            });
        }
        let journal_path = self.dir.join(JOURNAL);
        write_journal(&journal_path, &root, &entries)?;
        let result = (|| -> Result<(), String> {
            for ((target, bytes, perms), e) in self.files.iter().zip(&planned) {
                let dir = parent_of(&e.target);
                std::fs::create_dir_all(dir).map_err(|x| err(dir, x))?;
                // A directory created on the way must not have led outside (a symlinked one).
                let real = dir.canonicalize().map_err(|x| err(dir, x))?;
                if !real.starts_with(&root) {
                    return Err(err(
                        target,
                        format!(
                            "its directory resolves to {}, outside {}",
                            real.display(),
                            root.display()
                        ),
                    ));
                }
                create_exclusive(&e.staged, bytes, perms.clone()).map_err(|x| err(target, x))?;
            }
            for e in &planned {
                replace_one(e)?;
            }
            // The commit point.
            step("remove journal")
                .and_then(|()| std::fs::remove_file(&journal_path))
                .map_err(|x| err(&journal_path, x))
        })();
        if let Err(e) = result {
            let restored = rollback(&planned);
            let _ = std::fs::remove_file(&journal_path);
            return Err(match restored {
                Ok(()) => format!("{e}; every file was restored, nothing was changed"),
                Err(r) => format!(
                    "{e}; restoring failed too ({r}): the journal {} lists the backups",
                    journal_path.display()
                ),
            });
        }
        sync_dir(&self.dir);
        for e in &planned {
            if let Some(b) = &e.backup {
                let _ = std::fs::remove_file(b);
            }
        }
        Ok(())
    }
}

fn write_journal(
    path: &Path,
    root: &Path,
    entries: &[crate::journal::Entry],
) -> Result<(), String> {
    let text = crate::journal::seal(root, entries).map_err(|e| err(path, e))?;
    let res = (|| -> std::io::Result<()> {
        step("write journal")?;
        // Exclusive: a journal already there is an unfinished earlier transaction.
        let mut f = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(path)?;
        let r = f.write_all(&text).and_then(|()| f.sync_all());
        if r.is_err() {
            let _ = std::fs::remove_file(path);
        }
        r
    })();
    res.map_err(|e| {
        if e.kind() == std::io::ErrorKind::AlreadyExists {
            format!(
                "{}: a journal is in the way: an earlier ranklift write was interrupted (a writing run rolls it back), or the file is not ranklift's (remove it)",
                path.display()
            )
        } else {
            err(path, e)
        }
    })?;
    sync_dir(parent_of(path));
    Ok(())
}

/// Keep the original of an existing target under its backup name (a hard link, or an exclusive
/// copy where the file system has no hard links), then rename the staged file over it.
fn replace_one(e: &Planned) -> Result<(), String> {
    if let Some(backup) = &e.backup {
        step("back up target").map_err(|x| err(&e.target, x))?;
        std::fs::hard_link(&e.target, backup)
            .or_else(|_| create_exclusive(backup, &std::fs::read(&e.target)?, None))
            .map_err(|x| err(&e.target, x))?;
    }
    step("rename staged file").map_err(|x| err(&e.target, x))?;
    std::fs::rename(&e.staged, &e.target).map_err(|x| err(&e.target, x))?;
    sync_dir(parent_of(&e.target));
    Ok(())
}

/// Undo a transaction's renames: every target back from its backup (or removed if it is new),
/// every staged file removed. Nothing is followed through a symlink: each path is a name in a
/// directory the caller checked.
fn rollback(entries: &[Planned]) -> Result<(), String> {
    let mut first_err = None;
    let exists = |p: &Path| std::fs::symlink_metadata(p).is_ok();
    for e in entries.iter().rev() {
        let r = (|| -> std::io::Result<()> {
            match &e.backup {
                Some(b) if exists(b) => {
                    std::fs::rename(b, &e.target)?;
                    // Renaming a hard link onto its twin does nothing: drop the link.
                    if exists(b) {
                        std::fs::remove_file(b)?;
                    }
                }
                // A new file whose staged copy is gone was renamed into place: remove it.
                None if !e.existed && !exists(&e.staged) => match std::fs::remove_file(&e.target) {
                    Err(x) if x.kind() != std::io::ErrorKind::NotFound => return Err(x),
                    _ => {}
                },
                _ => {}
            }
            match std::fs::remove_file(&e.staged) {
                Err(x) if x.kind() != std::io::ErrorKind::NotFound => Err(x),
                _ => Ok(()),
            }
        })();
        if let Err(x) = r {
            first_err.get_or_insert(err(&e.target, x));
        }
        sync_dir(parent_of(&e.target));
    }
    first_err.map_or(Ok(()), Err)
}

/// Roll back the transaction whose validated journal entries `entries` lie in `dir` (see
/// [`crate::journal::inspect`]). Returns the files restored.
pub fn recover(dir: &Path, entries: Vec<crate::journal::Entry>) -> Result<Vec<PathBuf>, String> {
    let root = dir.canonicalize().map_err(|e| err(dir, e))?;
    let planned: Vec<Planned> = entries
        .iter()
        .map(|e| Planned {
            target: root.join(&e.target),
            staged: root.join(&e.staged),
            backup: e.backup.as_ref().map(|b| root.join(b)),
            existed: e.existed,
        })
        .collect();
    rollback(&planned)?;
    let path = dir.join(JOURNAL);
    std::fs::remove_file(&path).map_err(|e| err(&path, e))?;
    sync_dir(dir);
    Ok(entries
        .into_iter()
        .map(|e| PathBuf::from(e.target))
        .collect())
}

// ---------------------------------------------------------------------------------------------
// Whole output directories.

/// What is at an output destination before writing.
pub enum DestState {
    Absent,
    /// An empty directory, or an earlier ranklift output.
    Replaceable,
}

/// Check that `dest` may receive a new output tree.
pub fn check_dest(dest: &Path, force: bool) -> Result<DestState, String> {
    let meta = match std::fs::symlink_metadata(dest) {
        Ok(m) => m,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(DestState::Absent),
        Err(e) => return Err(err(dest, e)),
    };
    if !meta.is_dir() {
        return Err(err(
            dest,
            "exists and is not a directory; choose another output directory",
        ));
    }
    if dest.join(OUTPUT_MARKER).is_file() || force {
        return Ok(DestState::Replaceable);
    }
    let mut entries = std::fs::read_dir(dest).map_err(|e| err(dest, e))?;
    if entries.next().is_none() {
        return Ok(DestState::Replaceable);
    }
    Err(err(
        dest,
        "exists, is not empty and is not an earlier ranklift output; its files would be replaced \
         (pass --force to replace it, or choose another directory)",
    ))
}

/// Build a directory tree with `build` in a private staging directory next to `dest`, then put
/// it in place of `dest` in one step. `build` receives the staging directory. On any error
/// nothing at `dest` changes and the staging directory is removed.
pub fn write_tree(
    dest: &Path,
    force: bool,
    marker: &str,
    build: impl FnOnce(&Path) -> Result<(), String>,
) -> Result<(), String> {
    let state = check_dest(dest, force)?;
    let parent = parent_of(dest);
    std::fs::create_dir_all(parent).map_err(|e| err(parent, e))?;
    step("create staging directory").map_err(|e| err(dest, e))?;
    let staging = tempfile::Builder::new()
        .prefix(&format!(".{}.", file_name(dest)))
        .suffix(".ranklift")
        .rand_bytes(10)
        .tempdir_in(parent)
        .map_err(|e| err(dest, e))?;
    build(staging.path())?;
    step("write marker").map_err(|e| err(dest, e))?;
    std::fs::write(staging.path().join(OUTPUT_MARKER), marker).map_err(|e| err(dest, e))?;
    // Directories are created 0700 by tempdir: give the output the usual permissions.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let _ = std::fs::set_permissions(staging.path(), std::fs::Permissions::from_mode(0o755));
    }
    step("swap output into place").map_err(|e| err(dest, e))?;
    match state {
        DestState::Absent => {
            std::fs::rename(staging.path(), dest).map_err(|e| err(dest, e))?;
            // The staging directory is now `dest`: do not let its guard remove it.
            let _ = staging.keep();
        }
        DestState::Replaceable => {
            exchange(staging.path(), dest)?;
            // `staging` now holds the previous output; its guard removes it.
        }
    }
    sync_dir(parent);
    Ok(())
}

/// Swap two directories: atomically with `renameat2(RENAME_EXCHANGE)` on Linux; elsewhere (or
/// where the file system refuses it) by two renames through a backup name.
fn exchange(a: &Path, b: &Path) -> Result<(), String> {
    #[cfg(target_os = "linux")]
    {
        use std::ffi::CString;
        use std::os::unix::ffi::OsStrExt;
        let (ca, cb) = (
            CString::new(a.as_os_str().as_bytes()).map_err(|e| err(a, e))?,
            CString::new(b.as_os_str().as_bytes()).map_err(|e| err(b, e))?,
        );
        // SAFETY: both are valid NUL-terminated paths; renameat2 only reads them.
        let r = unsafe {
            libc::renameat2(
                libc::AT_FDCWD,
                ca.as_ptr(),
                libc::AT_FDCWD,
                cb.as_ptr(),
                libc::RENAME_EXCHANGE,
            )
        };
        if r == 0 {
            return Ok(());
        }
    }
    let old = parent_of(b).join(format!(
        ".{}.ranklift-old-{}",
        file_name(b),
        std::process::id()
    ));
    std::fs::rename(b, &old).map_err(|e| err(b, e))?;
    if let Err(e) = std::fs::rename(a, b) {
        let _ = std::fs::rename(&old, b);
        return Err(err(b, e));
    }
    std::fs::rename(&old, a).map_err(|e| err(a, e))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_transaction_replaces_and_creates() {
        let d = tempfile::tempdir().unwrap();
        std::fs::write(d.path().join("a.py"), "old a\n").unwrap();
        let mut t = Transaction::new(d.path());
        t.stage(&d.path().join("a.py"), b"new a\n").unwrap();
        t.stage(&d.path().join("sub/b.py"), b"new b\n").unwrap();
        t.commit().unwrap();
        assert_eq!(std::fs::read(d.path().join("a.py")).unwrap(), b"new a\n");
        assert_eq!(
            std::fs::read(d.path().join("sub/b.py")).unwrap(),
            b"new b\n"
        );
        let left: Vec<_> = std::fs::read_dir(d.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert_eq!(
            left.len(),
            2,
            "no staged file, backup or journal left: {left:?}"
        );
    }

    #[test]
    fn recover_rolls_back_a_journal() {
        let d = tempfile::tempdir().unwrap();
        let a = d.path().join("a.py");
        let b = d.path().join("b.py");
        std::fs::write(&a, "new a\n").unwrap();
        std::fs::write(&b, "old b\n").unwrap();
        // As a killed transaction leaves it: a renamed over (backup kept), b not yet.
        let bak = d.path().join(".a.py.x.ranklift-bak");
        std::fs::write(&bak, "old a\n").unwrap();
        let staged_b = d.path().join(".b.py.x.ranklift");
        std::fs::write(&staged_b, "new b\n").unwrap();
        let entries = vec![
            crate::journal::Entry {
                target: "a.py".into(),
                staged: ".a.py.y.ranklift".into(),
                backup: Some(".a.py.x.ranklift-bak".into()),
                existed: true,
            },
            crate::journal::Entry {
                target: "b.py".into(),
                staged: ".b.py.x.ranklift".into(),
                backup: None,
                existed: true,
            },
        ];
        std::fs::write(d.path().join(JOURNAL), "{}").unwrap();
        let restored = recover(d.path(), entries).unwrap();
        assert_eq!(restored.len(), 2);
        assert_eq!(std::fs::read(&a).unwrap(), b"old a\n");
        assert_eq!(std::fs::read(&b).unwrap(), b"old b\n");
        assert!(!bak.exists() && !staged_b.exists() && !d.path().join(JOURNAL).exists());
    }

    #[test]
    fn a_non_empty_foreign_directory_is_refused() {
        let d = tempfile::tempdir().unwrap();
        std::fs::write(d.path().join("mine.txt"), "x").unwrap();
        assert!(check_dest(d.path(), false).is_err());
        assert!(matches!(
            check_dest(d.path(), true),
            Ok(DestState::Replaceable)
        ));
        std::fs::write(d.path().join(OUTPUT_MARKER), "").unwrap();
        assert!(matches!(
            check_dest(d.path(), false),
            Ok(DestState::Replaceable)
        ));
    }
}
