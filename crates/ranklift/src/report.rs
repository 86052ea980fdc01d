//! How every command shows its diagnostics: Ruff's conventions, shared by `shapes`, `choreo` and
//! `distribute` so that a user meets one set of them.
//!
//! - Locations are `path:line:col` with 1-based lines and columns; paths are relative to the
//!   current directory when the file is under it (clickable where the user stands, no `./`),
//!   absolute otherwise.
//! - Colour on a terminal (`--color auto`, the default), honouring `NO_COLOR`; `always` /
//!   `never` override. Everything is printed through `anstream`, which strips the styles when
//!   colour is off, so styled text is built once.
//! - A summary ends every check: `Found 3 errors in 2 files.` or `All checks passed.` — on
//!   stdout after text diagnostics, on stderr when stdout carries JSON or SARIF.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use anstyle::{AnsiColor, Style};
use ranklift_python::{Diagnostic, Severity};

/// `--color`.
#[derive(Clone, Copy, Debug, Default, clap::ValueEnum, PartialEq, Eq)]
pub enum Color {
    /// Colour when printing to a terminal and `NO_COLOR` is unset.
    #[default]
    Auto,
    Always,
    Never,
}

/// Apply `--color` to everything printed through `anstream` from now on.
pub fn set_color(choice: Color) {
    let c = match choice {
        Color::Auto => anstream::ColorChoice::Auto,
        Color::Always => anstream::ColorChoice::Always,
        Color::Never => anstream::ColorChoice::Never,
    };
    c.write_global();
}

/// True when stdout gets colour (for the snippet renderer: `anstream` strips its styles where
/// colour is off anyway, but plain is cheaper).
pub fn stdout_colored() -> bool {
    anstream::AutoStream::choice(&std::io::stdout()) != anstream::ColorChoice::Never
}

const BOLD: Style = Style::new().bold();
const CYAN: Style = AnsiColor::Cyan.on_default();
const RED: Style = AnsiColor::Red.on_default().bold();
const YELLOW: Style = AnsiColor::Yellow.on_default().bold();
const BLUE: Style = AnsiColor::Blue.on_default().bold();

/// `path` as the user should see it: relative to the current directory when under it (without
/// `./`), else absolute. `<stdin>`-like names and URIs are kept.
pub fn display_path(path: &str) -> String {
    if path.starts_with('<') || path.contains("://") {
        return path.to_owned();
    }
    let p = Path::new(path);
    let abs = std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf());
    let abs = normalize(&abs);
    let cwd = std::env::current_dir().map(|c| normalize(&c)).ok();
    let shown = match cwd.as_deref().and_then(|c| abs.strip_prefix(c).ok()) {
        Some(rel) if rel.as_os_str().is_empty() => PathBuf::from("."),
        Some(rel) => rel.to_path_buf(),
        None => abs,
    };
    shown.display().to_string()
}

/// Remove `.` and resolve `..` lexically (no filesystem access: the file may not exist).
fn normalize(p: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in p.components() {
        match c {
            std::path::Component::CurDir => {}
            std::path::Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

/// Make every diagnostic's path the user's view of it (see [`display_path`]); `base` is what
/// the paths are relative to (a project root), or `None` when they are already paths as given.
pub fn relativize(diags: &mut [Diagnostic], base: Option<&Path>) {
    for d in diags {
        let joined = match base {
            Some(b) if !Path::new(&d.path).is_absolute() && !d.path.starts_with('<') => {
                b.join(&d.path).display().to_string()
            }
            _ => d.path.clone(),
        };
        d.path = display_path(&joined);
    }
}

/// The style of a code of this severity.
fn code_style(s: Severity) -> Style {
    match s {
        Severity::Error => RED,
        Severity::Warning => YELLOW,
        Severity::Note => BLUE,
    }
}

/// The headline `path:line:col: CODE message`, styled as Ruff styles it (bold path, cyan
/// separators, the code coloured by severity). `column_shift` is subtracted from columns
/// (`shapes --columns 0`, Pytropos' numbering).
pub fn headline(d: &Diagnostic, column_shift: usize) -> String {
    let mut out = format!("{BOLD}{}{BOLD:#}", escape_controls(&d.path));
    if let Some(c) = d.cell {
        let _ = write!(out, "{CYAN}:{CYAN:#}cell {c}");
    }
    let _ = write!(
        out,
        "{CYAN}:{CYAN:#}{}{CYAN}:{CYAN:#}{}{CYAN}:{CYAN:#} ",
        d.line,
        d.column.saturating_sub(column_shift)
    );
    let cs = code_style(d.severity);
    if d.rustc_style {
        let _ = write!(
            out,
            "{cs}{}[{}]{cs:#}: {}",
            d.severity.as_str(),
            d.code,
            escape_controls(&d.message)
        );
    } else {
        let _ = write!(out, "{cs}{}{cs:#} {}", d.code, escape_controls(&d.message));
    }
    out
}

/// The full text rendering: the styled headline, then (with `snippets`) the source with the
/// span marked and the hint.
pub fn render(d: &Diagnostic, column_shift: usize, snippets: bool) -> String {
    let mut out = headline(d, column_shift);
    out.push('\n');
    if snippets {
        let colored = stdout_colored();
        let rendered = d.render_text_styled(colored);
        if let Some((_, rest)) = rendered.split_once('\n') {
            // The source lines shown are the file's: without colour, every control character
            // but the line ends is shown escaped; with colour, our own styling must pass, so
            // only what cannot be styling (a lone ESC's neighbours are) is left as it is.
            if colored {
                out.push_str(rest);
            } else {
                out.push_str(&escape_text(rest));
            }
        }
    }
    out
}

/// `Found 3 errors in 2 files.` (warnings counted separately), or `All checks passed.` when
/// nothing of severity warning or above was found.
pub fn summary(diags: &[Diagnostic]) -> String {
    let errors = diags
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .count();
    let warnings = diags
        .iter()
        .filter(|d| d.severity == Severity::Warning)
        .count();
    if errors + warnings == 0 {
        return "All checks passed.".to_owned();
    }
    let mut files: Vec<&str> = diags
        .iter()
        .filter(|d| d.severity >= Severity::Warning)
        .map(|d| d.path.as_str())
        .collect();
    files.sort_unstable();
    files.dedup();
    let plural = |n: usize, w: &str| format!("{n} {w}{}", if n == 1 { "" } else { "s" });
    let what = match (errors, warnings) {
        (e, 0) => plural(e, "error"),
        (0, w) => plural(w, "warning"),
        (e, w) => format!("{} and {}", plural(e, "error"), plural(w, "warning")),
    };
    format!("Found {what} in {}.", plural(files.len(), "file"))
}

/// Print the summary where it belongs: stdout after text, stderr after a machine format.
pub fn print_summary(diags: &[Diagnostic], machine_format: bool) {
    let s = summary(diags);
    if machine_format {
        anstream::eprintln!("{s}");
    } else {
        anstream::println!("{s}");
    }
}

/// The one "no such file" error every command prints for a missing input.
pub fn no_such_file(path: &Path) -> std::process::ExitCode {
    anstream::eprintln!(
        "{RED}error{RED:#}: {}: no such file or directory",
        display_path(&path.display().to_string())
    );
    std::process::ExitCode::from(2)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn diag(path: &str, severity: Severity) -> Diagnostic {
        Diagnostic::file_level(path, "W504", severity, "m")
    }

    #[test]
    fn summaries() {
        assert_eq!(summary(&[]), "All checks passed.");
        assert_eq!(
            summary(&[diag("a.py", Severity::Note)]),
            "All checks passed."
        );
        assert_eq!(
            summary(&[
                diag("a.py", Severity::Error),
                diag("a.py", Severity::Error),
                diag("b.py", Severity::Warning)
            ]),
            "Found 2 errors and 1 warning in 2 files."
        );
        assert_eq!(
            summary(&[diag("a.py", Severity::Error)]),
            "Found 1 error in 1 file."
        );
    }

    #[test]
    fn paths_are_relative_to_the_current_directory() {
        let cwd = std::env::current_dir().unwrap();
        assert_eq!(display_path("./a/b.py"), "a/b.py");
        assert_eq!(
            display_path(&cwd.join("x").join("..").join("y.py").display().to_string()),
            "y.py"
        );
        assert_eq!(display_path("/elsewhere/z.py"), "/elsewhere/z.py");
        assert_eq!(display_path("<stdin>"), "<stdin>");
    }
}

/// [`escape_controls`] for several lines: line ends are kept.
pub fn escape_text(text: &str) -> String {
    text.split('\n')
        .map(|l| escape_controls(l).into_owned())
        .collect::<Vec<_>>()
        .join("\n")
}

pub use ranklift_python::diagnostics::escape_controls;

#[cfg(test)]
mod escape_tests {
    #[test]
    fn control_characters_are_shown_not_sent() {
        assert_eq!(super::escape_controls("a.py"), "a.py");
        assert_eq!(super::escape_controls("x\u{1b}[2Jy\rz"), "x\\u{1b}[2Jy\\rz");
    }
}
