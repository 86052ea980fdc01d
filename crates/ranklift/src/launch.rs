//! The commands printed after a rewrite, as the user can type them: the launcher's words
//! (`ranklift_distribute::Launch`) around the written script's path, relative to the current
//! directory, shell-quoted; `cd DIR && ...` when the program opens files by relative paths and
//! so must start in its own directory.

use std::path::{Path, PathBuf};

use ranklift_distribute::Launch;

/// One command: its words (what a process would be given), the directory to start it in, and
/// the line to type.
#[derive(serde::Serialize)]
pub struct Command {
    pub argv: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cwd: Option<String>,
    #[serde(rename = "command")]
    pub line: String,
}

/// This machine, several machines, SLURM.
#[derive(serde::Serialize)]
pub struct Commands {
    #[serde(flatten)]
    pub single: Command,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nodes: Option<Command>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub slurm: Option<Command>,
}

/// `path` as the user standing in the current directory names it: relative when it lies below
/// the current directory, else as given.
pub fn from_here(path: &Path) -> PathBuf {
    let Ok(cwd) = std::env::current_dir() else {
        return path.to_path_buf();
    };
    let abs = if path.is_absolute() {
        path.to_path_buf()
    } else {
        cwd.join(path)
    };
    let canon_cwd = cwd.canonicalize().unwrap_or(cwd);
    let canon = abs
        .parent()
        .and_then(|p| p.canonicalize().ok())
        .map(|p| p.join(abs.file_name().unwrap_or_default()))
        .unwrap_or(abs);
    match canon.strip_prefix(&canon_cwd) {
        Ok(rel) => rel.to_path_buf(),
        // A sibling of the current directory or near it: `../x-ddp/train.py` (at most two
        // levels up; further away, the full path reads better).
        Err(_) => {
            let common = canon_cwd
                .ancestors()
                .take(3)
                .enumerate()
                .find(|(_, a)| a.parent().is_some() && canon.starts_with(a));
            match common {
                Some((up, a)) => {
                    let mut rel = PathBuf::new();
                    for _ in 0..up {
                        rel.push("..");
                    }
                    rel.push(canon.strip_prefix(a).unwrap_or(&canon));
                    rel
                }
                None => path.to_path_buf(),
            }
        }
    }
}

/// A word for a POSIX shell: as is when it is plain, else in single quotes.
pub fn quote(word: &str) -> String {
    let plain = !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./=:,+@%".contains(c));
    if plain {
        word.to_owned()
    } else {
        format!("'{}'", word.replace('\'', r"'\''"))
    }
}

fn command(
    words: &[String],
    script: &Path,
    relative_paths: bool,
    pythonpath: Option<&str>,
    run_from: Option<&Path>,
) -> Command {
    let here = from_here(script);
    let dir = here
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .map(Path::to_path_buf);
    // A root on PYTHONPATH is named from the script's directory: the command starts there.
    let (cwd, name) = match (dir, run_from) {
        // The rewrite was written away from the program's files: it starts where they are.
        (_, Some(from)) => {
            let from_abs = std::fs::canonicalize(from).unwrap_or_else(|_| from.to_path_buf());
            let script_abs = script
                .parent()
                .and_then(|p| {
                    std::fs::canonicalize(if p.as_os_str().is_empty() {
                        Path::new(".")
                    } else {
                        p
                    })
                    .ok()
                })
                .map(|p| p.join(script.file_name().unwrap_or_default()))
                .unwrap_or_else(|| script.to_path_buf());
            let at_cwd = std::env::current_dir()
                .ok()
                .and_then(|c| std::fs::canonicalize(c).ok())
                .is_some_and(|c| c == from_abs);
            let name = match script_abs.strip_prefix(&from_abs) {
                Ok(rel) => rel.to_path_buf(),
                Err(_) if at_cwd => here.clone(),
                Err(_) => script_abs.clone(),
            };
            let cwd = from_here(&from_abs.join("x"))
                .parent()
                .filter(|d| !d.as_os_str().is_empty())
                .map(|d| d.display().to_string());
            (cwd, name.display().to_string())
        }
        (Some(d), None) if relative_paths || pythonpath.is_some() => (
            Some(d.display().to_string()),
            here.file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default(),
        ),
        (_, None) => (None, here.display().to_string()),
    };
    // The launcher's words are written as they must be typed (`$SLURM_JOB_ID`, `$(...)`); only
    // the path is quoted.
    let env: Vec<String> = pythonpath
        .map(|p| vec![format!("PYTHONPATH={}", quote(p))])
        .unwrap_or_default();
    let mut bare = env.iter().map(|e| format!("{e} ")).collect::<String>();
    bare.push_str(&words.join(" "));
    bare.push(' ');
    bare.push_str(&quote(&name));
    // Words with shell syntax run through a shell; the others are a process's argv as they are
    // (a variable set through `env`).
    let argv = if words.iter().any(|w| w.contains(['$', '|', '('])) {
        vec!["sh".to_owned(), "-c".to_owned(), bare.clone()]
    } else {
        let mut a: Vec<String> = if env.is_empty() {
            Vec::new()
        } else {
            let mut e = vec!["env".to_owned()];
            e.extend(pythonpath.map(|p| format!("PYTHONPATH={p}")));
            e
        };
        a.extend(words.iter().cloned());
        a.push(name.clone());
        a
    };
    let line = match &cwd {
        Some(d) => format!("cd {} && {bare}", quote(d)),
        None => bare,
    };
    Command { argv, cwd, line }
}

pub fn commands(l: &Launch, script: &Path) -> Commands {
    commands_from(l, script, None)
}

/// [`commands`], started in `run_from` (the original program's directory) instead of the
/// script's own: a single rewritten file written elsewhere (`-o ../out/train.py`) of a program
/// that opens files by relative paths finds them where the original does.
pub fn commands_from(l: &Launch, script: &Path, run_from: Option<&Path>) -> Commands {
    let one = |w: &[String]| {
        command(
            w,
            script,
            l.relative_paths,
            l.pythonpath.as_deref(),
            run_from,
        )
    };
    Commands {
        single: one(&l.single),
        nodes: l.nodes.as_deref().map(one),
        slurm: l.slurm.as_deref().map(one),
    }
}

/// Does this machine have an NVIDIA GPU (the driver lists one, or a device node exists)?
pub fn has_nvidia_gpu() -> bool {
    std::fs::read_dir("/proc/driver/nvidia/gpus").is_ok_and(|mut d| d.next().is_some())
        || std::path::Path::new("/dev/nvidia0").exists()
}

/// The lines printed after a rewrite.
pub fn render(c: &Commands) -> String {
    let mut s = format!("launch: {}\n", c.single.line);
    if let Some(n) = &c.nodes {
        let how = if n.argv.iter().any(|w| w == "--index") {
            // `ranklift launch`: every machine lists all workers and says which one it is.
            "on 2 machines (HOST, HOST2: their addresses), `--index 1` on the second"
        } else {
            "on 2 machines, the same on each (HOST: the first machine's address)"
        };
        s.push_str(&format!("  {how}: {}\n", n.line));
    }
    if let Some(n) = &c.slurm {
        s.push_str(&format!("  from a SLURM batch script: {}\n", n.line));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoting() {
        assert_eq!(quote("a/b_c.py"), "a/b_c.py");
        assert_eq!(quote("my dir/x.py"), "'my dir/x.py'");
        assert_eq!(quote("it's.py"), r"'it'\''s.py'");
    }
}
