//! Loading Python source files.
//!
//! Python source is UTF-8 unless a PEP 263 coding cookie on line 1 or 2 says otherwise. We decode
//! UTF-8 (keeping a BOM if present) and the Latin-1 family, which maps bytes to code points one to
//! one, and we remember the encoding so that a rewritten file is encoded exactly as it came in.
//! Any other declared encoding is refused with a clear error rather than guessed.

use std::path::{Path, PathBuf};

/// How the bytes of a file map to its text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Encoding {
    Utf8,
    /// UTF-8 with a byte-order mark (the mark is not part of [`SourceFile::text`]).
    Utf8Bom,
    /// ISO-8859-1 / Latin-1: byte `b` is code point `U+00b`.
    Latin1,
}

/// A decoded source file.
#[derive(Debug, Clone)]
pub struct SourceFile {
    /// The path as given by the caller (used in diagnostics).
    pub path: PathBuf,
    pub text: String,
    pub encoding: Encoding,
}

/// Why a file could not be loaded.
#[derive(Debug)]
pub enum LoadError {
    Io(PathBuf, std::io::Error),
    /// Bytes that are not valid in the file's encoding: the first bad byte, its offset and its
    /// 1-based line and column (columns count characters).
    Decode {
        path: PathBuf,
        offset: usize,
        byte: u8,
        line: usize,
        column: usize,
        encoding: &'static str,
    },
    UnsupportedEncoding(PathBuf, String),
}

impl std::fmt::Display for LoadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LoadError::Io(p, _) | LoadError::UnsupportedEncoding(p, _) => {
                write!(f, "{}: {}", p.display(), self.reason())
            }
            LoadError::Decode {
                path, line, column, ..
            } => write!(f, "{}:{line}:{column}: {}", path.display(), self.reason()),
        }
    }
}

impl LoadError {
    /// What went wrong, without the path.
    pub fn reason(&self) -> String {
        match self {
            LoadError::Io(_, e) => format!("cannot read: {e}"),
            LoadError::Decode {
                offset,
                byte,
                encoding,
                ..
            } => format!("byte 0x{byte:02X} (offset {offset}) is not valid {encoding}"),
            LoadError::UnsupportedEncoding(_, enc) => {
                format!("the coding cookie declares `{enc}`, which ranklift cannot decode")
            }
        }
    }

    /// The error as an [`crate::project::IO_ERROR`] diagnostic for `path` (as it should be
    /// displayed), at the bad byte when there is one, with a hint.
    pub fn to_diagnostic(&self, path: &str) -> crate::diagnostics::Diagnostic {
        use crate::diagnostics::{Diagnostic, Severity};
        let mut d = Diagnostic::file_level(
            path,
            crate::project::IO_ERROR,
            Severity::Error,
            self.reason(),
        );
        let hint = match self {
            LoadError::Io(..) => "check the path and its permissions",
            LoadError::Decode { line, column, .. } => {
                (d.line, d.column, d.end_line, d.end_column) = (*line, *column, *line, *column);
                "save the file as UTF-8, or declare its encoding on line 1 or 2 (`# -*- coding: latin-1 -*-`)"
            }
            LoadError::UnsupportedEncoding(..) => {
                "re-encode the file as UTF-8 (ranklift reads UTF-8 and Latin-1)"
            }
        };
        d.with_hint(hint)
    }
}

fn decode_error(path: &Path, bytes: &[u8], offset: usize, encoding: &'static str) -> LoadError {
    let before = &bytes[..offset];
    let line_start = before
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |i| i + 1);
    LoadError::Decode {
        path: path.to_path_buf(),
        offset,
        byte: bytes[offset],
        line: before.iter().filter(|&&b| b == b'\n').count() + 1,
        column: String::from_utf8_lossy(&before[line_start..])
            .chars()
            .count()
            + 1,
        encoding,
    }
}

impl SourceFile {
    pub fn load(path: &Path) -> Result<SourceFile, LoadError> {
        let bytes = std::fs::read(path).map_err(|e| LoadError::Io(path.to_path_buf(), e))?;
        Self::from_bytes(path, &bytes)
    }

    pub fn from_bytes(path: &Path, bytes: &[u8]) -> Result<SourceFile, LoadError> {
        let path = path.to_path_buf();
        if let Some(rest) = bytes.strip_prefix(b"\xEF\xBB\xBF") {
            let text = std::str::from_utf8(rest)
                .map_err(|e| decode_error(&path, bytes, e.valid_up_to() + 3, "UTF-8"))?;
            return Ok(SourceFile {
                path,
                text: text.to_owned(),
                encoding: Encoding::Utf8Bom,
            });
        }
        match coding_cookie(bytes) {
            None => {}
            Some(enc) => {
                let norm = enc.to_ascii_lowercase().replace('_', "-");
                match norm.as_str() {
                    "utf-8" | "utf8" | "utf-8-unix" | "utf-8-dos" | "ascii" | "us-ascii" => {}
                    "latin-1" | "latin1" | "iso-8859-1" | "iso8859-1" | "l1" | "iso-latin-1" => {
                        let text = bytes.iter().map(|&b| b as char).collect();
                        return Ok(SourceFile {
                            path,
                            text,
                            encoding: Encoding::Latin1,
                        });
                    }
                    _ => return Err(LoadError::UnsupportedEncoding(path, enc)),
                }
            }
        }
        let text = std::str::from_utf8(bytes)
            .map_err(|e| decode_error(&path, bytes, e.valid_up_to(), "UTF-8"))?;
        Ok(SourceFile {
            path,
            text: text.to_owned(),
            encoding: Encoding::Utf8,
        })
    }

    /// Encode `text` (normally an edited version of [`Self::text`]) back to bytes in this file's
    /// encoding. Fails only for Latin-1 files whose new text has a character above U+00FF.
    pub fn encode(&self, text: &str) -> Result<Vec<u8>, String> {
        match self.encoding {
            Encoding::Utf8 => Ok(text.as_bytes().to_vec()),
            Encoding::Utf8Bom => {
                let mut v = b"\xEF\xBB\xBF".to_vec();
                v.extend_from_slice(text.as_bytes());
                Ok(v)
            }
            Encoding::Latin1 => text
                .chars()
                .map(|c| u8::try_from(u32::from(c)).map_err(|_| format!("`{c}` is not Latin-1")))
                .collect(),
        }
    }
}

/// The PEP 263 cookie of the first two lines, if any (`# -*- coding: latin-1 -*-`).
fn coding_cookie(bytes: &[u8]) -> Option<String> {
    for line in bytes.split(|&b| b == b'\n').take(2) {
        let line = String::from_utf8_lossy(line);
        let trimmed = line.trim_start();
        if !trimmed.starts_with('#') {
            // A non-comment first line ends the search (PEP 263: only comment lines count).
            if !trimmed.is_empty() {
                return None;
            }
            continue;
        }
        if let Some(pos) = trimmed.find("coding") {
            let rest = &trimmed[pos + 6..];
            let rest = rest.strip_prefix(':').or_else(|| rest.strip_prefix('='))?;
            let name: String = rest
                .trim_start()
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
                .collect();
            if !name.is_empty() {
                return Some(name);
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf8_bom_round_trips() {
        let bytes = b"\xEF\xBB\xBFx = 1\n";
        let f = SourceFile::from_bytes(Path::new("a.py"), bytes).unwrap();
        assert_eq!(f.text, "x = 1\n");
        assert_eq!(f.encode(&f.text).unwrap(), bytes);
    }

    #[test]
    fn latin1_cookie_round_trips() {
        let bytes = b"# -*- coding: latin-1 -*-\ns = '\xe9'\n";
        let f = SourceFile::from_bytes(Path::new("a.py"), bytes).unwrap();
        assert!(f.text.contains('\u{e9}'));
        assert_eq!(f.encode(&f.text).unwrap(), bytes);
    }

    #[test]
    fn invalid_utf8_is_an_error_not_a_panic() {
        let err = SourceFile::from_bytes(Path::new("a.py"), b"x = '\xff'\n").unwrap_err();
        assert_eq!(
            err.to_string(),
            "a.py:1:6: byte 0xFF (offset 5) is not valid UTF-8"
        );
    }

    #[test]
    fn a_decode_error_points_at_the_bad_byte() {
        // Line 2; before the bad byte on that line: `s = "`, then `é` (two bytes, one character),
        // so the bad byte is the 7th character.
        let err = SourceFile::from_bytes(Path::new("a.py"), b"x = 1\ns = \"\xc3\xa9\xff\"\n")
            .unwrap_err();
        let d = err.to_diagnostic("a.py");
        assert_eq!((d.line, d.column, d.code), (2, 7, "RL002"));
        assert!(d.hint.as_deref().unwrap_or("").contains("coding"));
    }

    #[test]
    fn unknown_cookie_is_refused() {
        let err =
            SourceFile::from_bytes(Path::new("a.py"), b"# coding: shift_jis\nx = 1\n").unwrap_err();
        assert!(matches!(err, LoadError::UnsupportedEncoding(_, _)));
    }
}
