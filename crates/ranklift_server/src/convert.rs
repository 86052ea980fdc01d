//! Between ranklift's types and the protocol's: byte offsets and `Position`s (UTF-16 or UTF-8
//! code units), `file://` URIs and paths, diagnostics and fixes.

use std::path::PathBuf;

use lsp_types::{
    CodeDescription, DiagnosticRelatedInformation, DiagnosticSeverity, Location, NumberOrString,
    Position, Range, Uri,
};
use ranklift_python::{Diagnostic, Severity};
use ruff_text_size::TextRange;

/// The byte offset of `pos` in `text` (clamped to the text: a position past the end of a line
/// is its end, past the last line the end of the text, as the protocol asks).
pub fn offset(text: &str, pos: Position, utf8: bool) -> usize {
    let mut start = 0;
    for _ in 0..pos.line {
        match text[start..].find('\n') {
            Some(i) => start += i + 1,
            None => return text.len(),
        }
    }
    let line_end = text[start..].find('\n').map_or(text.len(), |i| start + i);
    let line = &text[start..line_end];
    let mut units = 0u32;
    for (i, c) in line.char_indices() {
        if units >= pos.character {
            return start + i;
        }
        units += if utf8 {
            c.len_utf8() as u32
        } else {
            c.len_utf16() as u32
        };
    }
    line_end
}

/// The `Position` of byte offset `at` of `text`.
pub fn position(text: &str, at: usize, utf8: bool) -> Position {
    let at = at.min(text.len());
    let at = (0..=at)
        .rev()
        .find(|&i| text.is_char_boundary(i))
        .unwrap_or(0);
    let before = &text[..at];
    let line = before.matches('\n').count() as u32;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let col = &text[line_start..at];
    let character = if utf8 {
        col.len() as u32
    } else {
        col.encode_utf16().count() as u32
    };
    Position { line, character }
}

pub fn range(text: &str, r: TextRange, utf8: bool) -> Range {
    Range {
        start: position(text, usize::from(r.start()), utf8),
        end: position(text, usize::from(r.end()), utf8),
    }
}

/// The path of a `file://` URI (percent-decoded); `None` for other schemes.
pub fn path_of(uri: &Uri) -> Option<PathBuf> {
    let rest = uri.as_str().strip_prefix("file://")?;
    let bytes = rest.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let hex = |b: u8| (b as char).to_digit(16);
    let mut i = 0;
    while i < bytes.len() {
        let escaped = (bytes[i] == b'%' && i + 2 < bytes.len())
            .then(|| Some(hex(bytes[i + 1])? * 16 + hex(bytes[i + 2])?))
            .flatten();
        match escaped {
            Some(b) => {
                out.push(b as u8);
                i += 3;
            }
            None => {
                out.push(bytes[i]);
                i += 1;
            }
        }
    }
    Some(PathBuf::from(String::from_utf8(out).ok()?))
}

/// A ranklift diagnostic on `text` (the document) as the protocol's. `fix` is the index of its
/// quick fix in the document's list, when it has one.
pub fn diagnostic(
    uri: &Uri,
    text: &str,
    d: &Diagnostic,
    utf8: bool,
    fix: Option<usize>,
) -> lsp_types::Diagnostic {
    // The byte range when the diagnostic was made on this text, else its line and column.
    let own_text = d.source.as_deref() == Some(text);
    let r = if own_text {
        range(text, d.range, utf8)
    } else {
        let at = |line: usize, col: usize| Position {
            line: line.saturating_sub(1) as u32,
            character: col.saturating_sub(1) as u32,
        };
        Range {
            start: at(d.line, d.column),
            end: at(d.end_line, d.end_column),
        }
    };
    let mut related = Vec::new();
    if let Some(h) = &d.hint {
        related.push(DiagnosticRelatedInformation {
            location: Location {
                uri: uri.clone(),
                range: r,
            },
            message: format!("help: {h}"),
        });
    }
    if own_text {
        for n in &d.notes {
            related.push(DiagnosticRelatedInformation {
                location: Location {
                    uri: uri.clone(),
                    range: range(text, n.range, utf8),
                },
                message: n.message.clone(),
            });
        }
    }
    let message = match &d.hint {
        Some(h) => format!("{}\nhelp: {h}", d.message),
        None => d.message.clone(),
    };
    lsp_types::Diagnostic {
        range: r,
        severity: Some(match d.severity {
            Severity::Error => DiagnosticSeverity::ERROR,
            Severity::Warning => DiagnosticSeverity::WARNING,
            Severity::Note => DiagnosticSeverity::INFORMATION,
        }),
        code: Some(NumberOrString::String(d.code.to_owned())),
        code_description: "https://github.com/ranklift/ranklift#readme"
            .parse()
            .ok()
            .map(|href| CodeDescription { href }),
        source: Some("ranklift".to_owned()),
        message,
        related_information: (!related.is_empty()).then_some(related),
        tags: None,
        data: fix.map(|i| serde_json::json!({ "fix": i })),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_round_trip_in_both_encodings() {
        let text = "a = 1\nπ = '𝄞x'\n";
        // `x` is after `π = '` and the 𝄞 (two UTF-16 units, four UTF-8 bytes).
        let x = text.find('x').unwrap();
        let p16 = position(text, x, false);
        assert_eq!((p16.line, p16.character), (1, 7));
        let p8 = position(text, x, true);
        assert_eq!((p8.line, p8.character), (1, 10));
        assert_eq!(offset(text, p16, false), x);
        assert_eq!(offset(text, p8, true), x);
        // Past the end of a line: its end; past the last line: the end.
        assert_eq!(offset(text, Position::new(0, 99), false), 5);
        assert_eq!(offset(text, Position::new(9, 0), false), text.len());
    }

    #[test]
    fn file_uris_to_paths() {
        let u: Uri = "file:///tmp/a%20b/%C3%A9.py".parse().unwrap();
        assert_eq!(path_of(&u), Some(PathBuf::from("/tmp/a b/é.py")));
        let u: Uri = "untitled:Untitled-1".parse().unwrap();
        assert_eq!(path_of(&u), None);
    }
}
