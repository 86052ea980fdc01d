//! The journal of an unfinished [`crate::write::Transaction`]: what it is, how it is sealed, and
//! what a later run may do with one it finds.
//!
//! A journal is *untrusted input*: it lies in the user's project, where a cloned repository can
//! have put one. So a journal is acted on only when all of these hold:
//!
//! - it is ranklift's: the format tag and version match and its MAC verifies. The MAC is
//!   HMAC-SHA256 under a per-user secret (`$XDG_STATE_HOME/ranklift/journal-key`, else
//!   `~/.local/state/ranklift/journal-key`, 32 random bytes, mode 0600) over the journal's body,
//!   which names the canonical directory it was written in. A journal from another user or
//!   machine, or one copied or committed and cloned elsewhere, does not verify;
//! - it lies where it was written (its recorded root is the directory it is in);
//! - every path in it is relative, made only of plain components, and every staged or backup name
//!   is the kind [`crate::write`] makes next to its own target (`.NAME.<random>.ranklift[-bak]`);
//!   no directory on the way resolves outside the root (no symlink escape);
//! - git does not track it (a journal committed to a repository is ignored with a warning).
//!
//! Paths are stored relative to the journal's directory, so recovery works from any working
//! directory. Only writing runs recover; read-only runs (`--check`, `--diff`) report an
//! interrupted run and stop (see `distribute_cmd`).

use std::io::Read;
use std::path::{Component, Path, PathBuf};

use hmac::{Hmac, Mac};
use sha2::Sha256;

/// The journal's file name, in the directory given to the transaction.
pub const JOURNAL: &str = ".ranklift-journal";

const FORMAT: &str = "ranklift-journal";
const VERSION: u32 = 2;
/// A journal larger than this is not ours (a transaction lists the files of one rewrite).
const MAX_BYTES: u64 = 4 << 20;
/// The git index is read up to this size to tell whether the journal is tracked.
const MAX_INDEX_BYTES: u64 = 256 << 20;

/// One file of a transaction, every path relative to the journal's directory.
#[derive(serde::Serialize, serde::Deserialize, Clone, Debug)]
pub struct Entry {
    pub target: String,
    /// Where the new content is written before the rename (next to the target).
    pub staged: String,
    /// Where the original is kept while the transaction runs (next to the target).
    pub backup: Option<String>,
    /// Whether the target existed when the transaction started.
    pub existed: bool,
}

/// The sealed part of a journal.
#[derive(serde::Serialize, serde::Deserialize)]
struct Body {
    format: String,
    version: u32,
    /// The canonical directory the journal was written in.
    root: String,
    entries: Vec<Entry>,
}

#[derive(serde::Serialize, serde::Deserialize)]
struct Sealed {
    #[serde(flatten)]
    body: Body,
    /// HMAC-SHA256 of the body (as serialized without this field), hex; empty when no per-user
    /// key could be made (such a journal is never acted on).
    mac: String,
}

/// What a run finds in a directory.
pub enum Found {
    None,
    /// A journal this user's ranklift wrote here: the entries, validated.
    Ours(Vec<Entry>),
    /// Something named like a journal that is not to be acted on, and why.
    Ignored(String),
}

fn key_path() -> Option<PathBuf> {
    let base = match std::env::var_os("XDG_STATE_HOME").filter(|v| Path::new(v).is_absolute()) {
        Some(d) => PathBuf::from(d),
        None => {
            PathBuf::from(std::env::var_os("HOME").filter(|h| !h.is_empty())?).join(".local/state")
        }
    };
    Some(base.join("ranklift/journal-key"))
}

/// The per-user key, made on first use. None when there is no home to keep it in.
fn key(create: bool) -> Option<Vec<u8>> {
    let path = key_path()?;
    if let Ok(m) = std::fs::symlink_metadata(&path) {
        if !m.is_file() || m.len() != 32 {
            return None;
        }
        return std::fs::read(&path).ok().filter(|k| k.len() == 32);
    }
    if !create {
        return None;
    }
    use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt};
    let dir = path.parent()?;
    std::fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(dir)
        .ok()?;
    let mut k = [0u8; 32];
    getrandom::fill(&mut k).ok()?;
    let made = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(&path)
        .and_then(|mut f| {
            use std::io::Write;
            f.write_all(&k).and_then(|()| f.sync_all())
        });
    match made {
        Ok(()) => Some(k.to_vec()),
        // Another ranklift made it at the same time: use theirs.
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => key(false),
        Err(_) => None,
    }
}

fn mac_of(key: &[u8], body: &Body) -> String {
    let bytes = serde_json::to_vec(body).unwrap_or_default();
    let mut m = <Hmac<Sha256> as Mac>::new_from_slice(key).expect("HMAC takes any key length");
    m.update(&bytes);
    m.finalize()
        .into_bytes()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The bytes of a journal for `entries`, written in the canonical directory `root`.
pub fn seal(root: &Path, entries: &[Entry]) -> Result<Vec<u8>, String> {
    let body = Body {
        format: FORMAT.into(),
        version: VERSION,
        root: root
            .to_str()
            .ok_or_else(|| format!("{}: not valid UTF-8", root.display()))?
            .into(),
        entries: entries.to_vec(),
    };
    let mac = key(true).map(|k| mac_of(&k, &body)).unwrap_or_default();
    serde_json::to_vec_pretty(&Sealed { body, mac }).map_err(|e| e.to_string())
}

/// A relative path of plain components only (no `..`, `.`, root or prefix), as a PathBuf.
pub fn plain_relative(p: &str) -> Option<PathBuf> {
    let path = Path::new(p);
    if p.is_empty() || p.contains('\0') {
        return None;
    }
    path.components()
        .all(|c| matches!(c, Component::Normal(_)))
        .then(|| path.to_path_buf())
}

/// Is `name` (a staged or backup path) a name `write` makes next to `target`?
fn is_companion(target: &Path, name: &str, suffix: &str) -> bool {
    let Some(n) = plain_relative(name) else {
        return false;
    };
    let (Some(tf), Some(nf)) = (target.file_name(), n.file_name()) else {
        return false;
    };
    let prefix = format!(".{}.", tf.to_string_lossy());
    let nf = nf.to_string_lossy();
    n.parent() == target.parent()
        && nf.starts_with(&prefix)
        && nf.ends_with(suffix)
        && nf.len() > prefix.len() + suffix.len()
        && !nf[prefix.len()..nf.len() - suffix.len()].contains(['.', '/'])
}

/// Does every directory that `rel`'s parent resolves to lie inside `root` (both canonical)?
fn stays_inside(root: &Path, rel: &Path) -> bool {
    let parent = root.join(rel.parent().unwrap_or(Path::new("")));
    match parent.canonicalize() {
        Ok(c) => c.starts_with(root),
        // A directory that does not exist any more holds nothing to restore.
        Err(_) => !parent.exists(),
    }
}

/// Look for a journal in `dir` and decide what may be done with it.
pub fn inspect(dir: &Path) -> Found {
    let path = dir.join(JOURNAL);
    let meta = match std::fs::symlink_metadata(&path) {
        Ok(m) => m,
        Err(_) => return Found::None,
    };
    if meta.file_type().is_symlink() {
        return Found::Ignored("it is a symbolic link, not a journal ranklift wrote".into());
    }
    if !meta.is_file() {
        return Found::Ignored("it is not a regular file".into());
    }
    if meta.len() > MAX_BYTES {
        return Found::Ignored(format!("it is larger than {MAX_BYTES} bytes"));
    }
    let Ok(root) = dir.canonicalize() else {
        return Found::Ignored("its directory cannot be resolved".into());
    };
    if tracked_by_git(&root) {
        return Found::Ignored(
            "git tracks it: a journal committed to a repository is never applied (remove it with `git rm`)"
                .into(),
        );
    }
    let mut bytes = Vec::new();
    let read = std::fs::File::open(&path).and_then(|f| f.take(MAX_BYTES).read_to_end(&mut bytes));
    if let Err(e) = read {
        return Found::Ignored(format!("it cannot be read ({e})"));
    }
    let Ok(sealed) = serde_json::from_slice::<Sealed>(&bytes) else {
        return Found::Ignored("it is not in ranklift's journal format".into());
    };
    let body = &sealed.body;
    if body.format != FORMAT || body.version != VERSION {
        return Found::Ignored(format!(
            "it is not in this ranklift's journal format ({} {})",
            body.format, body.version
        ));
    }
    let Some(k) = key(false) else {
        return Found::Ignored(
            "this user has no ranklift journal key, so the journal was not written by this user's ranklift"
                .into(),
        );
    };
    let want = mac_of(&k, body);
    let ok = sealed.mac.len() == want.len()
        && sealed
            .mac
            .bytes()
            .zip(want.bytes())
            .fold(0u8, |acc, (a, b)| acc | (a ^ b))
            == 0;
    if !ok {
        return Found::Ignored(
            "its integrity check failed: it was not written by this user's ranklift (it may have come with the repository)"
                .into(),
        );
    }
    if Path::new(&body.root) != root {
        return Found::Ignored(format!(
            "it was written in {}, not here (copied or cloned)",
            body.root
        ));
    }
    for e in &body.entries {
        let Some(t) = plain_relative(&e.target) else {
            return Found::Ignored(format!("it names a path outside the project: {}", e.target));
        };
        let companions = is_companion(&t, &e.staged, ".ranklift")
            && e.backup
                .as_deref()
                .is_none_or(|b| is_companion(&t, b, ".ranklift-bak"));
        if !companions {
            return Found::Ignored(format!(
                "it names temporary files ranklift does not make for {}",
                e.target
            ));
        }
        if !stays_inside(&root, &t) {
            return Found::Ignored(format!(
                "{} resolves outside the project through a symbolic link",
                e.target
            ));
        }
    }
    Found::Ours(sealed.body.entries)
}

/// Is `root/.ranklift-journal` in the index of the git repository `root` belongs to? Read from
/// `.git/index` directly (never by running git, whose configuration the repository controls):
/// the entry's path, after its flags, in an index of version 2 or 3. Version 4 compresses paths
/// and is not searched.
fn tracked_by_git(root: &Path) -> bool {
    let mut dir = Some(root);
    let mut depth = 0;
    while let Some(d) = dir {
        let git = d.join(".git");
        if git.is_dir() {
            let Ok(rel) = root.join(JOURNAL).strip_prefix(d).map(Path::to_path_buf) else {
                return false;
            };
            return index_has(&git.join("index"), rel.to_string_lossy().as_bytes());
        }
        if git.exists() || depth > 64 {
            return false;
        }
        dir = d.parent();
        depth += 1;
    }
    false
}

fn index_has(index: &Path, path: &[u8]) -> bool {
    let mut bytes = Vec::new();
    let Ok(f) = std::fs::File::open(index) else {
        return false;
    };
    if f.take(MAX_INDEX_BYTES).read_to_end(&mut bytes).is_err() || !bytes.starts_with(b"DIRC") {
        return false;
    }
    let mut needle = path.to_vec();
    needle.push(0);
    let name_len = path.len().min(0xFFF) as u16;
    memchr::memmem::find_iter(&bytes, &needle).any(|at| {
        // The entry's 16-bit flags precede its path (v3 may add 16 bits of extended flags).
        let flags =
            |i: usize| (i >= 2).then(|| u16::from_be_bytes([bytes[i - 2], bytes[i - 1]]) & 0xFFF);
        flags(at) == Some(name_len) || (at >= 4 && flags(at - 2) == Some(name_len))
    })
}

/// The outputs this user's ranklift wrote: one line per file, the HMAC (under the journal key)
/// of its canonical path and its bytes, in `ranklift/outputs` beside the key; the newest
/// [`OUTPUTS_KEPT`] kept. A file is "an earlier output" only when its path and its bytes are
/// exactly what was written there — whatever it says, a file the user wrote or edited is not.
const OUTPUTS_KEPT: usize = 4096;

fn outputs_path() -> Option<PathBuf> {
    Some(key_path()?.with_file_name("outputs"))
}

fn output_mac(key: &[u8], path: &Path, bytes: &[u8]) -> Option<String> {
    let canon = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."))
        .canonicalize()
        .ok()?
        .join(path.file_name()?);
    let mut m = <Hmac<Sha256> as Mac>::new_from_slice(key).expect("HMAC takes any key length");
    m.update(canon.as_os_str().as_encoded_bytes());
    m.update(&[0]);
    m.update(bytes);
    Some(
        m.finalize()
            .into_bytes()
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect(),
    )
}

/// Whether this user's ranklift wrote exactly `bytes` at `path`.
pub fn wrote_output(path: &Path, bytes: &[u8]) -> bool {
    let (Some(k), Some(file)) = (key(false), outputs_path()) else {
        return false;
    };
    let Some(mac) = output_mac(&k, path, bytes) else {
        return false;
    };
    ranklift_python::source::read_regular(&file)
        .is_ok_and(|text| text.split(|&b| b == b'\n').any(|l| l == mac.as_bytes()))
}

/// Record that `bytes` were written at `path` (best effort: without a home, nothing is kept,
/// and such a file is then not replaced without `--force`).
pub fn remember_output(path: &Path, bytes: &[u8]) {
    let (Some(k), Some(file)) = (key(true), outputs_path()) else {
        return;
    };
    let Some(mac) = output_mac(&k, path, bytes) else {
        return;
    };
    let old = ranklift_python::source::read_regular(&file).unwrap_or_default();
    let mut lines: Vec<&[u8]> = old
        .split(|&b| b == b'\n')
        .filter(|l| l.len() == 64 && *l != mac.as_bytes())
        .collect();
    lines.push(mac.as_bytes());
    let keep = &lines[lines.len().saturating_sub(OUTPUTS_KEPT)..];
    let mut text = keep.join(&b'\n');
    text.push(b'\n');
    // Replaced by a rename, so a reader never sees half a ledger.
    let tmp = file.with_extension(format!("tmp{}", std::process::id()));
    if std::fs::write(&tmp, &text).is_ok() && std::fs::rename(&tmp, &file).is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_plain_relative_paths_pass() {
        for bad in ["", "/etc/passwd", "../x.py", "a/../../x", "./a", "a\0b"] {
            assert!(plain_relative(bad).is_none(), "{bad:?}");
        }
        assert!(plain_relative("a/b.py").is_some());
    }

    #[test]
    fn companions_are_next_to_their_target() {
        let t = Path::new("pkg/a.py");
        assert!(is_companion(t, "pkg/.a.py.Xy12ab.ranklift", ".ranklift"));
        assert!(is_companion(
            t,
            "pkg/.a.py.Xy12ab.ranklift-bak",
            ".ranklift-bak"
        ));
        assert!(
            !is_companion(t, ".a.py.Xy12ab.ranklift", ".ranklift"),
            "other dir"
        );
        assert!(!is_companion(t, "pkg/.bashrc", ".ranklift"));
        assert!(
            !is_companion(t, "pkg/.a.py..ranklift", ".ranklift"),
            "no random part"
        );
        assert!(!is_companion(t, "pkg/../.a.py.x.ranklift", ".ranklift"));
    }
}
