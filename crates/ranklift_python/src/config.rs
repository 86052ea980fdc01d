//! Configuration files: `[tool.ranklift]` in `pyproject.toml`, or a `ranklift.toml` /
//! `.ranklift.toml` whose top level is the same table.
//!
//! Discovery follows Ruff: from the input's directory upwards, the first directory holding
//! `.ranklift.toml`, `ranklift.toml`, or a `pyproject.toml` *with a `[tool.ranklift]` table*
//! (checked in that order) wins; a `pyproject.toml` without the table is passed over. `--config`
//! names one file instead. Settings on the command line override the file.
//!
//! ```toml
//! [tool.ranklift]
//! extend-exclude = ["third_party"]   # added to the default excludes (`exclude` replaces them)
//!
//! [tool.ranklift.shapes]
//! numpy-version = 1                  # 1 (1.24-1.26) or 2
//! possible = true                    # also report errors that may happen
//! ignore = ["W503"]                  # codes, or code prefixes ("W5")
//! per-file-ignores = { "tests/*" = ["E"] }
//! fuel = 2000000
//! python-version = "3.9"
//!
//! [tool.ranklift.distribute]
//! main = "train.py"
//! target-tf = "2.13"
//! lr-warmup = 3
//! scale-lr = "linear"
//! ```
//!
//! Every error — TOML syntax, an unknown key, a value of the wrong type or out of range — is a
//! [`Diagnostic`] (`RL010`) at the offending key or value of the file, with a hint.

use std::collections::BTreeMap;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use ruff_source_file::LineIndex;
use ruff_text_size::{TextRange, TextSize};
use serde::Deserialize;
use toml::Spanned;

use crate::diagnostics::{Diagnostic, Severity};

/// Code for an invalid configuration file (exit 2, before anything is done): TOML syntax, an
/// unknown key, a value of the wrong type or out of range, a bad glob — located at the key or
/// value, with a hint.
///
/// ```toml
/// [tool.ranklift.shapes]
/// numpy-version = 3          # RL010: use 1 or 2
/// ```
pub const CONFIG_ERROR: &str = "RL010";

/// The file names looked for in each directory, in order of precedence.
pub const FILE_NAMES: [&str; 3] = [".ranklift.toml", "ranklift.toml", "pyproject.toml"];

/// A loaded configuration file.
#[derive(Debug, Clone)]
pub struct Config {
    /// The file it was read from.
    pub path: PathBuf,
    /// The file's text (for located errors about its values).
    text: Arc<str>,
    /// `exclude`: replaces the default excludes (`crate::files`).
    pub exclude: Option<Vec<Spanned<String>>>,
    /// `extend-exclude`: added to them.
    pub extend_exclude: Option<Vec<Spanned<String>>>,
    pub shapes: Shapes,
    pub distribute: Distribute,
}

/// `[tool.ranklift]`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct Sections {
    exclude: Option<Vec<Spanned<String>>>,
    extend_exclude: Option<Vec<Spanned<String>>>,
    #[serde(default)]
    shapes: Shapes,
    #[serde(default)]
    distribute: Distribute,
}

/// `[tool.ranklift.shapes]`: the options of `ranklift shapes`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct Shapes {
    /// `1` or `2` (also as a string, `"1.26"` / `"2.0"` style accepted by the CLI parser).
    pub numpy_version: Option<Spanned<StrOrInt>>,
    pub possible: Option<bool>,
    pub ignore: Option<Vec<Spanned<String>>>,
    pub per_file_ignores: Option<BTreeMap<Spanned<String>, Vec<Spanned<String>>>>,
    pub fuel: Option<Spanned<u64>>,
    pub python_version: Option<Spanned<String>>,
    pub columns: Option<Spanned<u8>>,
}

/// `[tool.ranklift.distribute]`: the options of `ranklift distribute`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct Distribute {
    pub main: Option<String>,
    pub target_tf: Option<Spanned<String>>,
    pub lr_warmup: Option<u32>,
    pub scale_lr: Option<Spanned<String>>,
}

/// A value written either as a string or as an integer (`numpy-version = 1` or `"1"`).
#[derive(Debug, Clone, Deserialize)]
#[serde(untagged)]
pub enum StrOrInt {
    Str(String),
    Int(i64),
}

impl StrOrInt {
    pub fn as_string(&self) -> String {
        match self {
            StrOrInt::Str(s) => s.clone(),
            StrOrInt::Int(i) => i.to_string(),
        }
    }
}

#[derive(Deserialize)]
struct Pyproject {
    tool: Option<Tool>,
}

#[derive(Deserialize)]
struct Tool {
    ranklift: Option<Sections>,
}

impl Config {
    /// Find the configuration that applies to `input` (a file or directory): see the module
    /// documentation. `Ok(None)` when there is none.
    pub fn discover(input: &Path) -> Result<Option<Config>, Box<Diagnostic>> {
        Config::discover_reporting(input, &mut |_, _| {})
    }

    /// [`Config::discover`], telling `skipped` about every file passed over because another user
    /// owns it or its directory (git's `safe.directory` rule, CVE-2022-24765: a `ranklift.toml`
    /// planted in a shared directory such as `/tmp` must not configure this user's run). Such a
    /// file is still used when named with `--config`.
    pub fn discover_reporting(
        input: &Path,
        skipped: &mut dyn FnMut(&Path, String),
    ) -> Result<Option<Config>, Box<Diagnostic>> {
        let abs = std::path::absolute(input).unwrap_or_else(|_| input.to_path_buf());
        let start = if abs.is_dir() {
            abs.as_path()
        } else {
            abs.parent().unwrap_or(Path::new("/"))
        };
        for dir in start.ancestors() {
            for name in FILE_NAMES {
                let path = dir.join(name);
                if !path.is_file() {
                    continue;
                }
                if let Some(owner) = foreign_owner(&path) {
                    skipped(
                        &path,
                        format!(
                            "owned by another user ({owner}); not applied (name it with --config to use it)"
                        ),
                    );
                    continue;
                }
                if let Some(config) = Config::load_inner(&path, name != "pyproject.toml")? {
                    return Ok(Some(config));
                }
            }
        }
        Ok(None)
    }

    /// Load the file `--config` names. A `pyproject.toml` without `[tool.ranklift]` gives the
    /// defaults; any other file name is read as a `ranklift.toml`.
    pub fn load(path: &Path) -> Result<Config, Box<Diagnostic>> {
        let is_pyproject = path.file_name().is_some_and(|n| n == "pyproject.toml");
        match Config::load_inner(path, !is_pyproject)? {
            Some(c) => Ok(c),
            None => Ok(Config {
                path: path.to_path_buf(),
                text: "".into(),
                exclude: None,
                extend_exclude: None,
                shapes: Shapes::default(),
                distribute: Distribute::default(),
            }),
        }
    }

    /// `Ok(None)`: a `pyproject.toml` without `[tool.ranklift]`.
    fn load_inner(path: &Path, standalone: bool) -> Result<Option<Config>, Box<Diagnostic>> {
        let display = path.display().to_string();
        let read = crate::source::read_regular(path)
            .map_err(|e| e.reason())
            .and_then(|b| String::from_utf8(b).map_err(|_| "it is not UTF-8 text".to_owned()));
        let text: Arc<str> = match read {
            Ok(t) => t.into(),
            Err(e) => {
                return Err(Box::new(
                    Diagnostic::file_level(
                        &display,
                        CONFIG_ERROR,
                        Severity::Error,
                        format!("cannot read the configuration file: {e}"),
                    )
                    .with_hint("fix the file's permissions or pass another one with --config"),
                ));
            }
        };
        let at = |span: Option<Range<usize>>, message: String, hint: &str| {
            Box::new(located(&display, &text, span, message).with_hint(hint.to_owned()))
        };
        let sections: Sections = if standalone {
            toml::from_str(&text).map_err(|e| {
                at(
                    e.span(),
                    e.message().trim().to_owned(),
                    hint_for(e.message()),
                )
            })?
        } else {
            let py: Pyproject = toml::from_str(&text).map_err(|e| {
                at(
                    e.span(),
                    e.message().trim().to_owned(),
                    hint_for(e.message()),
                )
            })?;
            let Some(sections) = py.tool.and_then(|t| t.ranklift) else {
                return Ok(None);
            };
            sections
        };
        Ok(Some(Config {
            path: path.to_path_buf(),
            text,
            exclude: sections.exclude,
            extend_exclude: sections.extend_exclude,
            shapes: sections.shapes,
            distribute: sections.distribute,
        }))
    }

    /// An error about a value of this file (e.g. a version the command does not support).
    pub fn error_at(&self, span: Range<usize>, message: impl Into<String>) -> Diagnostic {
        located(
            &self.path.display().to_string(),
            &self.text,
            Some(span),
            message.into(),
        )
    }

    /// The directory the file's relative patterns are relative to.
    pub fn dir(&self) -> &Path {
        self.path.parent().unwrap_or(Path::new("."))
    }
}

/// The hint for an error of the TOML reader.
fn hint_for(message: &str) -> &'static str {
    if message.contains("unknown field") {
        "ranklift reads only the keys listed in the README's Configuration section"
    } else if message.contains("invalid type") {
        "see the README's Configuration section for each key's type"
    } else {
        "the file must be valid TOML (https://toml.io) for ranklift to read it"
    }
}

fn located(
    display: &str,
    text: &Arc<str>,
    span: Option<Range<usize>>,
    message: String,
) -> Diagnostic {
    match span {
        Some(r) if r.end <= text.len() => {
            let index = LineIndex::from_source_text(text);
            let range = TextRange::new(TextSize::new(r.start as u32), TextSize::new(r.end as u32));
            Diagnostic::new(
                display,
                text,
                &index,
                range,
                CONFIG_ERROR,
                Severity::Error,
                message,
            )
        }
        _ => Diagnostic::file_level(display, CONFIG_ERROR, Severity::Error, message),
    }
}

/// The owner of `path` or of its directory when that is not the user running ranklift (root
/// running under sudo counts as the user who ran sudo, as git counts it); None when both are ours.
pub(crate) fn foreign_owner(path: &Path) -> Option<u32> {
    use std::os::unix::fs::MetadataExt;
    // SAFETY: geteuid has no preconditions and cannot fail.
    let me = unsafe { libc::geteuid() };
    let sudo = (me == 0)
        .then(|| std::env::var("SUDO_UID").ok()?.parse::<u32>().ok())
        .flatten();
    let dir = path.parent().unwrap_or(Path::new("/"));
    [path, dir].into_iter().find_map(|p| {
        let uid = std::fs::metadata(p).ok()?.uid();
        (uid != me && Some(uid) != sudo).then_some(uid)
    })
}

/// Brace nesting a `per-file-ignores` glob may have: globset turns each level into a regex
/// group, and a pattern of ~200 nested braces made it panic.
const MAX_GLOB_NESTING: usize = 8;
/// Length of a `per-file-ignores` glob.
const MAX_GLOB_LEN: usize = 4096;

fn check_glob(pattern: &str) -> Result<globset::GlobMatcher, String> {
    Ok(check_glob_pattern(pattern)?.compile_matcher())
}

/// A glob from a configuration file or the command line, bounded (length, brace nesting) and
/// checked to compile.
pub(crate) fn check_glob_pattern(pattern: &str) -> Result<globset::Glob, String> {
    if pattern.len() > MAX_GLOB_LEN {
        return Err(format!("longer than {MAX_GLOB_LEN} characters"));
    }
    let (mut depth, mut deepest, mut escaped) = (0usize, 0usize, false);
    for c in pattern.chars() {
        match c {
            _ if escaped => escaped = false,
            '\\' => escaped = true,
            '{' => {
                depth += 1;
                deepest = deepest.max(depth);
            }
            '}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    if deepest > MAX_GLOB_NESTING {
        return Err(format!(
            "braces nested {deepest} deep (at most {MAX_GLOB_NESTING})"
        ));
    }
    let glob = globset::Glob::new(pattern).map_err(|e| e.to_string())?;
    // `compile_matcher` panics when the regex it builds is too large; a set reports it.
    globset::GlobSetBuilder::new()
        .add(glob.clone())
        .build()
        .map_err(|e| e.to_string())?;
    Ok(glob)
}

impl Config {
    /// The excludes this file asks for, on top of `cli_exclude` / `cli_extend` (the command
    /// line's, which win over the file's `exclude`). A bad glob is an error at its place.
    pub fn excludes(
        config: Option<&Config>,
        cli_exclude: &[String],
        cli_extend: &[String],
    ) -> Result<crate::files::Excludes, Box<Diagnostic>> {
        let mut extend: Vec<&str> = cli_extend.iter().map(String::as_str).collect();
        let mut exclude: Option<Vec<&str>> =
            (!cli_exclude.is_empty()).then(|| cli_exclude.iter().map(String::as_str).collect());
        if let Some(c) = config {
            for list in [&c.exclude, &c.extend_exclude].into_iter().flatten() {
                for p in list {
                    check_glob_pattern(p.get_ref()).map_err(|e| {
                        let shown: String = p.get_ref().chars().take(60).collect();
                        Box::new(
                            c.error_at(p.span(), format!("bad exclude pattern `{shown}`: {e}"))
                                .with_hint("patterns are globs: a name (`venv`) or a path relative to the project (`tests/data/*`)"),
                        )
                    })?;
                }
            }
            if exclude.is_none()
                && let Some(list) = &c.exclude
            {
                exclude = Some(list.iter().map(|p| p.get_ref().as_str()).collect());
            }
            extend.extend(
                c.extend_exclude
                    .iter()
                    .flatten()
                    .map(|p| p.get_ref().as_str()),
            );
        }
        let base = exclude.unwrap_or_else(|| crate::files::DEFAULT_EXCLUDES.to_vec());
        crate::files::Excludes::new(base, extend).map_err(|e| {
            Box::new(Diagnostic::file_level(
                "<command line>",
                CONFIG_ERROR,
                Severity::Error,
                e,
            ))
        })
    }
}

/// Which codes are ignored where: `ignore` everywhere, `per-file-ignores` for files whose path
/// (relative to the configuration's directory) or file name matches a glob.
#[derive(Debug, Clone, Default)]
pub struct Ignores {
    everywhere: Vec<String>,
    per_file: Vec<(globset::GlobMatcher, bool, Vec<String>)>,
    base: PathBuf,
}

impl Ignores {
    /// Build the matcher; a malformed code or glob is an error at its place in the file.
    pub fn new(config: &Config) -> Result<Ignores, Box<Diagnostic>> {
        let check_code = |c: &Spanned<String>| -> Result<String, Box<Diagnostic>> {
            let s = c.get_ref();
            let letters = s.chars().take_while(char::is_ascii_uppercase).count();
            if letters == 0 || !s[letters..].chars().all(|ch| ch.is_ascii_digit()) {
                return Err(Box::new(
                    config
                        .error_at(c.span(), format!("`{s}` is not a code or code prefix"))
                        .with_hint("write codes as printed in the output, e.g. \"W501\" or \"W5\""),
                ));
            }
            Ok(s.clone())
        };
        let mut out = Ignores {
            base: std::path::absolute(config.dir()).unwrap_or_else(|_| config.dir().to_path_buf()),
            ..Ignores::default()
        };
        for c in config.shapes.ignore.iter().flatten() {
            out.everywhere.push(check_code(c)?);
        }
        for (pattern, codes) in config.shapes.per_file_ignores.iter().flatten() {
            let matcher = check_glob(pattern.get_ref()).map_err(|e| {
                let shown: String = pattern.get_ref().chars().take(60).collect();
                Box::new(
                    config
                        .error_at(
                            pattern.span(),
                            format!("per-file-ignores: bad pattern `{shown}`: {e}"),
                        )
                        .with_hint("patterns are globs relative to the configuration file"),
                )
            })?;
            let codes = codes
                .iter()
                .map(check_code)
                .collect::<Result<Vec<_>, _>>()?;
            out.per_file
                .push((matcher, !pattern.get_ref().contains('/'), codes));
        }
        Ok(out)
    }

    /// Also ignore `codes` everywhere (the command line's `--ignore`).
    pub fn extend(&mut self, codes: &[String]) {
        self.everywhere.extend(codes.iter().cloned());
    }

    /// True if `code` is ignored for `file`.
    pub fn ignored(&self, file: &Path, code: &str) -> bool {
        let hit = |codes: &[String]| codes.iter().any(|c| code.starts_with(c.as_str()));
        if hit(&self.everywhere) {
            return true;
        }
        if self.per_file.is_empty() {
            return false;
        }
        let abs = std::path::absolute(file).unwrap_or_else(|_| file.to_path_buf());
        let rel = abs.strip_prefix(&self.base).unwrap_or(&abs);
        self.per_file.iter().any(|(m, basename, codes)| {
            (m.is_match(rel) || (*basename && abs.file_name().is_some_and(|n| m.is_match(n))))
                && hit(codes)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
        let p = dir.join(name);
        std::fs::write(&p, text).unwrap();
        p
    }

    #[test]
    fn discovery_prefers_ranklift_toml_and_skips_pyproject_without_table() {
        let tmp = tempfile::tempdir().unwrap();
        let sub = tmp.path().join("pkg/sub");
        std::fs::create_dir_all(&sub).unwrap();
        write(tmp.path(), "ranklift.toml", "[shapes]\nfuel = 7\n");
        // No [tool.ranklift]: passed over, so the parent's file applies.
        write(
            &tmp.path().join("pkg"),
            "pyproject.toml",
            "[project]\nname = 'x'\n",
        );
        let f = write(&sub, "a.py", "");
        let c = Config::discover(&f).unwrap().unwrap();
        assert_eq!(c.shapes.fuel.map(|f| *f.get_ref()), Some(7));
        assert!(c.path.ends_with("ranklift.toml"));
        // With the table, the nearer pyproject wins.
        write(
            &tmp.path().join("pkg"),
            "pyproject.toml",
            "[project]\nname = 'x'\n[tool.ranklift.shapes]\nfuel = 9\n",
        );
        let c = Config::discover(&f).unwrap().unwrap();
        assert_eq!(c.shapes.fuel.map(|f| *f.get_ref()), Some(9));
    }

    #[test]
    fn unknown_key_is_an_error_at_its_line() {
        let tmp = tempfile::tempdir().unwrap();
        let p = write(
            tmp.path(),
            "pyproject.toml",
            "[project]\nname = 'x'\n\n[tool.ranklift.shapes]\npossible = true\nnumpy = 1\n",
        );
        let e = Config::discover(&p).unwrap_err();
        assert_eq!((e.code, e.line), (CONFIG_ERROR, 6), "{}", e.headline());
        assert!(e.message.contains("unknown field `numpy`"), "{}", e.message);
        // In a ranklift.toml too, and a wrong type.
        let p = write(
            tmp.path(),
            "ranklift.toml",
            "[distribute]\nlr-warmup = \"3\"\n",
        );
        let e = Config::discover(&p).unwrap_err();
        assert_eq!(e.line, 2, "{}", e.headline());
    }

    #[test]
    fn header_form_of_the_table_reports_unknown_keys() {
        let tmp = tempfile::tempdir().unwrap();
        let p = write(
            tmp.path(),
            "pyproject.toml",
            "[tool.ranklift]\nshapez = 1\n",
        );
        let e = Config::discover(&p).unwrap_err();
        assert!(
            e.message.contains("unknown field `shapez`"),
            "{}",
            e.message
        );
    }

    #[test]
    fn ignores_match_codes_prefixes_and_globs() {
        let tmp = tempfile::tempdir().unwrap();
        let p = write(
            tmp.path(),
            "ranklift.toml",
            "[shapes]\nignore = [\"W503\"]\nper-file-ignores = { \"tests/*\" = [\"E\"], \"conftest.py\" = [\"W5\"] }\n",
        );
        let c = Config::load(&p).unwrap();
        let ig = Ignores::new(&c).unwrap();
        let t = tmp.path();
        assert!(ig.ignored(&t.join("a.py"), "W503"));
        assert!(!ig.ignored(&t.join("a.py"), "W501"));
        assert!(ig.ignored(&t.join("tests/test_a.py"), "E001"));
        assert!(!ig.ignored(&t.join("src/a.py"), "E001"));
        assert!(ig.ignored(&t.join("src/conftest.py"), "W501"));
        let bad = write(tmp.path(), "bad.toml", "[shapes]\nignore = [\"w5\"]\n");
        let e = Ignores::new(&Config::load(&bad).unwrap()).unwrap_err();
        assert_eq!(e.line, 2);
    }
}
