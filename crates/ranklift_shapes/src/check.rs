//! Checking files: load, parse, interpret, and turn findings into diagnostics.
//!
//! Each file given (or found under a directory given) is run as `__main__`; the sibling modules
//! it imports are loaded and interpreted too (their findings are reported when they are checked
//! themselves). Files are checked in parallel.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use ranklift_python::{Diagnostic, Project, Severity};
use rayon::prelude::*;
use ruff_text_size::Ranged;

use crate::Certainty;
use crate::interp::{Config, Interp, SourceModule};

/// Options of `ranklift shapes`.
#[derive(Debug, Clone)]
pub struct Options {
    /// Also report errors that only may happen.
    pub possible: bool,
    /// Interpreter steps per file before the analysis stops (a backstop; see `interp`).
    pub fuel: u64,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            possible: false,
            fuel: Config::default().fuel,
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
}

/// Code for a file the interpreter stopped analysing early.
pub const INCOMPLETE: &str = "RL003";

/// Expand directories into the `.py` files under them (honouring `.gitignore`), keep files.
pub fn collect_files(paths: &[PathBuf]) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for p in paths {
        if p.is_dir() {
            let mut found: Vec<PathBuf> = ignore::WalkBuilder::new(p)
                .require_git(false)
                .build()
                .filter_map(Result::ok)
                .filter(|e| e.file_type().is_some_and(|t| t.is_file()))
                .map(ignore::DirEntry::into_path)
                .filter(|p| p.extension().is_some_and(|x| x == "py"))
                .collect();
            found.sort();
            out.extend(found);
        } else {
            out.push(p.clone());
        }
    }
    out
}

/// Check several files in parallel; results in the order of `files`.
pub fn check_files(files: &[PathBuf], opts: &Options) -> Vec<FileResult> {
    files.par_iter().map(|f| check_file(f, opts)).collect()
}

/// Check one file (in a thread with a large stack: deeply nested expressions recurse).
pub fn check_file(path: &Path, opts: &Options) -> FileResult {
    let path = path.to_path_buf();
    let opts = opts.clone();
    let display = path.display().to_string();
    let worker = std::thread::Builder::new()
        .stack_size(256 << 20)
        .spawn(move || check_file_inner(&path, &opts));
    match worker.map(|h| h.join()) {
        Ok(Ok(r)) => r,
        _ => FileResult {
            fatal: Some(
                Diagnostic::file_level(
                    &display,
                    "RL900",
                    Severity::Error,
                    "internal error: the analysis of this file failed",
                )
                .with_hint("please report this file to the ranklift maintainers"),
            ),
            path: display,
            findings: Vec::new(),
            incomplete: false,
        },
    }
}

fn check_file_inner(path: &Path, opts: &Options) -> FileResult {
    let display = path.display().to_string();
    let project = Project::load_file(path, &|_| true);
    let Some(entry) = project.entry else {
        let fatal = project.errors.into_iter().next().map(|mut d| {
            d.path = display.clone();
            d
        });
        return FileResult {
            path: display,
            findings: Vec::new(),
            fatal,
            incomplete: false,
        };
    };
    // Module 0 is the entry; the rest are the siblings it imports.
    let mut order = vec![entry];
    order.extend((0..project.modules.len()).filter(|&i| i != entry));
    let modules: Vec<SourceModule> = order
        .iter()
        .map(|&i| SourceModule {
            name: project.modules[i].name.clone(),
            suite: project.modules[i].parsed.suite(),
            report: i == entry,
        })
        .collect();
    let config = Config { fuel: opts.fuel };
    let (findings, out_of_fuel) = Interp::new(modules, &config).run(0);
    let m = &project.modules[entry].parsed;
    let text: &Arc<str> = &m.text;
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    for f in findings {
        let possible = match &f.certainty {
            Certainty::Certain => None,
            Certainty::Possible(reason) => Some(reason.clone()),
        };
        if possible.is_some() && !opts.possible {
            continue;
        }
        let mut d = Diagnostic::new(
            &display,
            text,
            &m.index,
            f.range,
            f.code,
            match (&possible, f.code.starts_with('E')) {
                (Some(_), _) => Severity::Note,
                (None, true) => Severity::Error,
                (None, false) => Severity::Warning,
            },
            match &possible {
                Some(reason) => format!("{} [possible: {reason}]", f.message),
                None => f.message,
            },
        );
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
            .with_hint("findings above are still certain; raise the budget with --fuel"),
        );
    }
    FileResult {
        path: display,
        findings: out,
        fatal: None,
        incomplete: out_of_fuel,
    }
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
