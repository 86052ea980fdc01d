//! Loading Python source files.
//!
//! Python source is UTF-8 unless a PEP 263 coding cookie on line 1 or 2 says otherwise. We decode
//! UTF-8 (keeping a BOM if present), ASCII, Latin-1 (byte `b` is `U+00b`, done by hand because the
//! web's encoding standard maps the name `latin-1` to windows-1252) and every other ASCII-compatible
//! encoding the web's encoding standard defines (`cp1252`, `iso-8859-15`, `euc-jp`, `shift_jis`,
//! `gbk`, `koi8-r`, ...) through `encoding_rs`. We remember the encoding so that a rewritten file
//! is encoded exactly as it came in; a legacy file whose bytes would not survive a round trip is
//! readable but refused for rewriting.
//!
//! What CPython refuses is refused the same way, as a syntax error at the offending byte: a NUL
//! byte anywhere, a UTF-8 byte-order mark with a cookie naming another encoding, an unknown
//! encoding name. Only regular files are read (a FIFO or a device would block or never end).

use std::path::{Path, PathBuf};
/// How the bytes of a file map to its text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Encoding {
    Utf8,
    /// UTF-8 with a byte-order mark (the mark is not part of [`SourceFile::text`]).
    Utf8Bom,
    /// ISO-8859-1 / Latin-1: byte `b` is code point `U+00b`.
    Latin1,
    /// ASCII (`# coding: ascii`): written back as UTF-8, which is the same bytes.
    Ascii,
    /// Another ASCII-compatible encoding; `round_trips` says whether encoding the decoded text
    /// gives the original bytes back (required for rewriting).
    Legacy {
        encoding: &'static encoding_rs::Encoding,
        round_trips: bool,
    },
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
    /// Bytes CPython refuses before parsing (a NUL byte, a BOM with another cookie, an unknown
    /// encoding): a syntax error at 1-based `line`/`column`.
    Syntax {
        path: PathBuf,
        line: usize,
        column: usize,
        message: String,
    },
    /// Not a regular file (a directory, FIFO, socket or device): reading it would block or
    /// never end.
    NotAFile(PathBuf, &'static str),
}

impl std::fmt::Display for LoadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LoadError::Io(p, _)
            | LoadError::UnsupportedEncoding(p, _)
            | LoadError::NotAFile(p, _) => {
                write!(f, "{}: {}", p.display(), self.reason())
            }
            LoadError::Decode {
                path, line, column, ..
            }
            | LoadError::Syntax {
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
            LoadError::Syntax { message, .. } => message.clone(),
            LoadError::NotAFile(_, what) => format!("not a regular file ({what})"),
        }
    }

    /// The error as an [`crate::project::IO_ERROR`] diagnostic for `path` (as it should be
    /// displayed), at the bad byte when there is one, with a hint.
    pub fn to_diagnostic(&self, path: &str) -> crate::diagnostics::Diagnostic {
        use crate::diagnostics::{Diagnostic, Severity};
        let code = match self {
            LoadError::Syntax { .. } => crate::parse::SYNTAX_ERROR,
            _ => crate::project::IO_ERROR,
        };
        let mut d = Diagnostic::file_level(path, code, Severity::Error, self.reason());
        let hint = match self {
            LoadError::Io(..) => "check the path and its permissions",
            LoadError::NotAFile(..) => "give ranklift a Python source file or a project directory",
            LoadError::Syntax {
                line,
                column,
                message,
                ..
            } => {
                (d.line, d.column, d.end_line, d.end_column) = (*line, *column, *line, *column);
                if message.contains("null") {
                    "remove the NUL byte (write `\\0` inside a string literal)"
                } else {
                    "fix or remove the coding cookie on line 1 or 2"
                }
            }
            LoadError::Decode { line, column, .. } => {
                (d.line, d.column, d.end_line, d.end_column) = (*line, *column, *line, *column);
                "save the file as UTF-8, or declare its encoding on line 1 or 2 (`# -*- coding: latin-1 -*-`)"
            }
            LoadError::UnsupportedEncoding(..) => {
                "re-encode the file as UTF-8 (ranklift reads UTF-8 and the ASCII-compatible encodings of the WHATWG Encoding Standard)"
            }
        };
        d.with_hint(hint)
    }
}

/// 1-based line and column (in characters, counted as UTF-8) of byte `offset`.
fn position(bytes: &[u8], offset: usize) -> (usize, usize) {
    let before = &bytes[..offset];
    let line_start = before
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |i| i + 1);
    (
        before.iter().filter(|&&b| b == b'\n').count() + 1,
        String::from_utf8_lossy(&before[line_start..])
            .chars()
            .count()
            + 1,
    )
}

fn decode_error(path: &Path, bytes: &[u8], offset: usize, encoding: &'static str) -> LoadError {
    let (line, column) = position(bytes, offset);
    LoadError::Decode {
        path: path.to_path_buf(),
        offset,
        byte: bytes[offset],
        line,
        column,
        encoding,
    }
}

fn syntax_error(path: &Path, bytes: &[u8], offset: usize, message: String) -> LoadError {
    let (line, column) = position(bytes, offset);
    LoadError::Syntax {
        path: path.to_path_buf(),
        line,
        column,
        message,
    }
}

/// Files ranklift reads (sources, notebooks, configurations) are at most this large: a larger
/// one is refused rather than read until memory runs out.
pub const MAX_FILE_BYTES: u64 = 64 << 20;

/// Read a regular file of at most [`MAX_FILE_BYTES`]: the one reader every command uses for what
/// it analyses. The type is checked on the opened file itself (no race with a swap), and the file
/// is opened non-blocking so that a FIFO cannot block the open; a FIFO, socket, device or
/// directory (also behind a symlink) is [`LoadError::NotAFile`].
pub fn read_regular(path: &Path) -> Result<Vec<u8>, LoadError> {
    use std::io::Read;
    let io = |e| LoadError::Io(path.to_path_buf(), e);
    let mut opts = std::fs::OpenOptions::new();
    opts.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        opts.custom_flags(libc::O_NONBLOCK);
    }
    let f = opts.open(path).map_err(io)?;
    let meta = f.metadata().map_err(io)?;
    let ft = meta.file_type();
    if !ft.is_file() {
        let what = if ft.is_dir() {
            "a directory"
        } else {
            #[cfg(unix)]
            {
                use std::os::unix::fs::FileTypeExt;
                if ft.is_fifo() {
                    "a FIFO"
                } else if ft.is_socket() {
                    "a socket"
                } else if ft.is_char_device() || ft.is_block_device() {
                    "a device"
                } else {
                    "not a file"
                }
            }
            #[cfg(not(unix))]
            "not a file"
        };
        return Err(LoadError::NotAFile(path.to_path_buf(), what));
    }
    let too_big = || {
        LoadError::Io(
            path.to_path_buf(),
            std::io::Error::other(format!(
                "larger than {} MiB; ranklift does not read it",
                MAX_FILE_BYTES >> 20
            )),
        )
    };
    if meta.len() > MAX_FILE_BYTES {
        return Err(too_big());
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    // The size is checked again while reading: a file may grow after the check.
    f.take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(io)?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(too_big());
    }
    Ok(bytes)
}

/// What a PEP 263 encoding name means to us.
enum Named {
    Utf8,
    Ascii,
    Latin1,
    Legacy(&'static encoding_rs::Encoding),
    /// Known to CPython but not ASCII-compatible, or not decodable here.
    Unsupported,
    /// CPython does not know it either.
    Unknown,
}

fn lookup_encoding(name: &str) -> Named {
    let lower = name.to_ascii_lowercase();
    let dashed = lower.replace('_', "-");
    match dashed.as_str() {
        "utf-8" | "utf8" | "utf-8-unix" | "utf-8-dos" | "utf-8-mac" | "u8" | "cp65001" => {
            return Named::Utf8;
        }
        "ascii" | "us-ascii" | "646" => return Named::Ascii,
        "latin-1" | "latin1" | "iso-8859-1" | "iso8859-1" | "l1" | "iso-latin-1" | "8859"
        | "cp819" | "latin" | "iso-ir-100" | "csisolatin1" => return Named::Latin1,
        "mac-roman" | "macroman" | "macintosh" => {
            return Named::Legacy(encoding_rs::MACINTOSH);
        }
        n if n.starts_with("utf-16") || n.starts_with("utf-32") || n.starts_with("utf16") => {
            return Named::Unsupported;
        }
        _ => {}
    }
    for label in [lower.as_str(), dashed.as_str(), &lower.replace('-', "_")] {
        if let Some(e) = encoding_rs::Encoding::for_label(label.as_bytes()) {
            // The web standard's catch-alls are not encodings a Python file can be in.
            if e == encoding_rs::REPLACEMENT
                || e == encoding_rs::X_USER_DEFINED
                || e == encoding_rs::UTF_16LE
                || e == encoding_rs::UTF_16BE
            {
                return Named::Unsupported;
            }
            return Named::Legacy(e);
        }
    }
    // Python codecs that the web standard lacks: readable by CPython, refused here.
    const PYTHON_ONLY: &[&str] = &[
        "cp437",
        "cp850",
        "cp852",
        "cp855",
        "cp857",
        "cp858",
        "cp860",
        "cp861",
        "cp862",
        "cp863",
        "cp865",
        "cp869",
        "cp737",
        "cp775",
        "cp932",
        "cp949",
        "cp950",
        "euc-jis-2004",
        "shift-jis-2004",
        "shift-jisx0213",
        "iso2022-jp-2",
        "iso-2022-jp-2",
        "johab",
        "hz",
        "ptcp154",
        "mac-cyrillic",
        "mac-greek",
        "mac-turkish",
        "cp1006",
        "cp1125",
        "hp-roman8",
        "tis-620",
    ];
    if PYTHON_ONLY.contains(&dashed.as_str()) {
        Named::Unsupported
    } else {
        Named::Unknown
    }
}

impl SourceFile {
    pub fn load(path: &Path) -> Result<SourceFile, LoadError> {
        let bytes = read_regular(path)?;
        Self::from_bytes(path, &bytes)
    }

    pub fn from_bytes(path: &Path, bytes: &[u8]) -> Result<SourceFile, LoadError> {
        // `contains` is a vectorised search; the position is only needed when there is one.
        if bytes.contains(&0)
            && let Some(at) = bytes.iter().position(|&b| b == 0)
        {
            return Err(syntax_error(
                path,
                bytes,
                at,
                "source code cannot contain null bytes".into(),
            ));
        }
        let cookie = coding_cookie(bytes);
        let path = path.to_path_buf();
        if let Some(rest) = bytes.strip_prefix(b"\xEF\xBB\xBF") {
            if let Some((name, at)) = &cookie
                && !matches!(lookup_encoding(name), Named::Utf8)
            {
                return Err(syntax_error(
                    &path,
                    bytes,
                    *at,
                    format!("encoding problem: {name} with BOM"),
                ));
            }
            let text = std::str::from_utf8(rest)
                .map_err(|e| decode_error(&path, bytes, e.valid_up_to() + 3, "UTF-8"))?;
            return Ok(SourceFile {
                path,
                text: text.to_owned(),
                encoding: Encoding::Utf8Bom,
            });
        }
        if let Some((name, at)) = cookie {
            match lookup_encoding(&name) {
                Named::Utf8 => {}
                Named::Ascii => {
                    if let Some(bad) = bytes.iter().position(|&b| b >= 0x80) {
                        return Err(decode_error(&path, bytes, bad, "ASCII"));
                    }
                    return Ok(SourceFile {
                        path,
                        text: String::from_utf8_lossy(bytes).into_owned(),
                        encoding: Encoding::Ascii,
                    });
                }
                Named::Latin1 => {
                    let text = bytes.iter().map(|&b| b as char).collect();
                    return Ok(SourceFile {
                        path,
                        text,
                        encoding: Encoding::Latin1,
                    });
                }
                Named::Legacy(enc) => return decode_legacy(path, bytes, enc),
                Named::Unsupported => return Err(LoadError::UnsupportedEncoding(path, name)),
                Named::Unknown => {
                    return Err(syntax_error(
                        &path,
                        bytes,
                        at,
                        format!("encoding problem: {name}"),
                    ));
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
    /// encoding. Fails for a character the encoding lacks, and for a legacy file whose original
    /// bytes do not survive a round trip (rewriting it would change bytes nobody edited).
    pub fn encode(&self, text: &str) -> Result<Vec<u8>, String> {
        match self.encoding {
            Encoding::Utf8 => Ok(text.as_bytes().to_vec()),
            Encoding::Ascii => match text.chars().find(|c| !c.is_ascii()) {
                Some(c) => Err(format!("`{c}` is not ASCII")),
                None => Ok(text.as_bytes().to_vec()),
            },
            Encoding::Legacy {
                encoding,
                round_trips,
            } => {
                if !round_trips {
                    return Err(format!(
                        "this {} file does not round-trip byte for byte; re-encode it as UTF-8",
                        encoding.name()
                    ));
                }
                let (bytes, _, unmappable) = encoding.encode(text);
                if unmappable {
                    return Err(format!(
                        "a character of the new text is not {}",
                        encoding.name()
                    ));
                }
                Ok(bytes.into_owned())
            }
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

/// Decode with a legacy encoding, refusing malformed bytes at their position.
fn decode_legacy(
    path: PathBuf,
    bytes: &[u8],
    enc: &'static encoding_rs::Encoding,
) -> Result<SourceFile, LoadError> {
    let mut decoder = enc.new_decoder_without_bom_handling();
    let cap = decoder
        .max_utf8_buffer_length_without_replacement(bytes.len())
        .unwrap_or(bytes.len() * 4 + 16);
    let mut text = String::with_capacity(cap);
    let (res, read) = decoder.decode_to_string_without_replacement(bytes, &mut text, true);
    match res {
        encoding_rs::DecoderResult::InputEmpty => {}
        encoding_rs::DecoderResult::Malformed(bad, after) => {
            let at = read - after as usize - bad as usize;
            return Err(decode_error(&path, bytes, at, enc.name()));
        }
        encoding_rs::DecoderResult::OutputFull => {
            return Err(LoadError::UnsupportedEncoding(path, enc.name().into()));
        }
    }
    let (back, _, unmappable) = enc.encode(&text);
    let round_trips = !unmappable && back.as_ref() == bytes;
    Ok(SourceFile {
        path,
        text,
        encoding: Encoding::Legacy {
            encoding: enc,
            round_trips,
        },
    })
}

/// The PEP 263 cookie of the first two lines, if any (`# -*- coding: latin-1 -*-`), with the
/// byte offset of its line.
fn coding_cookie(bytes: &[u8]) -> Option<(String, usize)> {
    let (bytes, mut offset) = match bytes.strip_prefix(b"\xEF\xBB\xBF") {
        Some(rest) => (rest, 3),
        None => (bytes, 0),
    };
    for line in bytes.split(|&b| b == b'\n').take(2) {
        let line_offset = offset;
        offset += line.len() + 1;
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
                return Some((name, line_offset));
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

    // Expected behaviours below were taken from CPython 3.11.7 running the same bytes
    // (`python3 f.py`): each message is the SyntaxError it prints.

    #[test]
    fn an_unknown_encoding_is_cpythons_syntax_error() {
        let err = SourceFile::from_bytes(
            Path::new("a.py"),
            b"#!/usr/bin/env python\n# coding: bogus\n",
        )
        .unwrap_err()
        .to_diagnostic("a.py");
        assert_eq!((d_code(&err), err.line), ("RL001", 2));
        assert_eq!(err.message, "encoding problem: bogus");
    }

    fn d_code(d: &crate::diagnostics::Diagnostic) -> &'static str {
        d.code
    }

    #[test]
    fn a_nul_byte_is_refused_at_its_position() {
        let d = SourceFile::from_bytes(Path::new("a.py"), b"x = 1\ns = \"a\x00b\"\n")
            .unwrap_err()
            .to_diagnostic("a.py");
        assert_eq!((d.code, d.line, d.column), ("RL001", 2, 7));
        assert_eq!(d.message, "source code cannot contain null bytes");
    }

    #[test]
    fn a_bom_with_another_cookie_is_refused() {
        let d = SourceFile::from_bytes(
            Path::new("a.py"),
            b"\xEF\xBB\xBF# -*- coding: latin-1 -*-\nx = 1\n",
        )
        .unwrap_err()
        .to_diagnostic("a.py");
        assert_eq!((d.code, d.line), ("RL001", 1));
        assert_eq!(d.message, "encoding problem: latin-1 with BOM");
        // A BOM with a UTF-8 cookie is fine.
        SourceFile::from_bytes(Path::new("a.py"), b"\xEF\xBB\xBF# coding: utf-8\nx = 1\n").unwrap();
    }

    #[test]
    fn legacy_encodings_decode_and_round_trip() {
        // cp1252 0x80 is the euro sign; euc-jp A4A2 is HIRAGANA LETTER A; shift_jis 82A0 too.
        for (bytes, ch) in [
            (&b"# coding: cp1252\ns = '\x80'\n"[..], '\u{20ac}'),
            (b"# -*- coding: iso-8859-15 -*-\ns = '\xa4'\n", '\u{20ac}'),
            (b"# coding: euc-jp\ns = '\xa4\xa2'\n", '\u{3042}'),
            (b"# coding: shift_jis\ns = '\x82\xa0'\n", '\u{3042}'),
        ] {
            let f = SourceFile::from_bytes(Path::new("a.py"), bytes).unwrap();
            assert!(f.text.contains(ch), "{:?}", f.text);
            assert_eq!(f.encode(&f.text).unwrap(), bytes);
            let edited = f.text.replace("s = ", "t = ");
            assert!(f.encode(&edited).unwrap().starts_with(b"# "));
        }
    }

    #[test]
    fn latin1_is_not_windows_1252() {
        // Byte 0x80 is U+0080 in Latin-1 (CPython), not the euro sign.
        let f =
            SourceFile::from_bytes(Path::new("a.py"), b"# coding: latin-1\ns = '\x80'\n").unwrap();
        assert!(f.text.contains('\u{80}'));
    }

    #[test]
    fn ascii_rejects_high_bytes_and_malformed_legacy_bytes_are_located() {
        let e = SourceFile::from_bytes(Path::new("a.py"), b"# coding: ascii\nx = '\xe9'\n")
            .unwrap_err();
        assert!(matches!(e, LoadError::Decode { line: 2, .. }), "{e}");
        // 0xFF is never valid in EUC-JP.
        let e = SourceFile::from_bytes(Path::new("a.py"), b"# coding: euc-jp\nx = '\xff'\n")
            .unwrap_err();
        assert!(
            matches!(
                e,
                LoadError::Decode {
                    line: 2,
                    column: 6,
                    ..
                }
            ),
            "{e}"
        );
    }

    #[test]
    fn a_python_only_codec_is_refused_clearly() {
        let e = SourceFile::from_bytes(Path::new("a.py"), b"# coding: cp437\nx = 1\n").unwrap_err();
        assert!(matches!(e, LoadError::UnsupportedEncoding(_, _)));
    }

    #[cfg(unix)]
    #[test]
    fn a_fifo_is_refused_without_blocking() {
        let d = std::env::temp_dir().join(format!("rl-fifo-{}", std::process::id()));
        let c = std::ffi::CString::new(d.to_str().unwrap()).unwrap();
        // SAFETY: a valid path.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        let e = SourceFile::load(&d).unwrap_err();
        let _ = std::fs::remove_file(&d);
        assert!(matches!(e, LoadError::NotAFile(_, "a FIFO")), "{e}");
        let e = SourceFile::load(Path::new("/dev/zero")).unwrap_err();
        assert!(matches!(e, LoadError::NotAFile(_, "a device")), "{e}");
    }
}
