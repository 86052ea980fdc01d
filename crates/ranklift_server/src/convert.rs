//! Between ranklift's types and the protocol's: byte offsets and `Position`s (UTF-16 or UTF-8
//! code units), `file://` URIs and paths, diagnostics and fixes.

use std::path::PathBuf;

use lsp_types::{
    CodeDescription, DiagnosticRelatedInformation, DiagnosticSeverity, Location, NumberOrString,
    Position, Range, Uri,
};
use ranklift_python::{Diagnostic, Severity};
use ruff_source_file::{LineIndex, PositionEncoding};
use ruff_text_size::{TextRange, TextSize};

/// A document's lines, indexed once (`ruff_source_file::LineIndex`), to convert between byte
/// offsets and `Position`s in O(log lines + line length) each: converting the findings of a
/// document is O(size + findings), not O(size × findings). Lines end at `\n`, `\r\n` or `\r`,
/// as the protocol says.
pub struct Lines<'a> {
    text: &'a str,
    index: LineIndex,
    utf8: bool,
}

impl<'a> Lines<'a> {
    pub fn new(text: &'a str, utf8: bool) -> Lines<'a> {
        Lines {
            text,
            index: LineIndex::from_source_text(text),
            utf8,
        }
    }

    /// The `Position` of byte offset `at` (clamped to the text and to a character boundary).
    pub fn position(&self, at: usize) -> Position {
        let at = at.min(self.text.len());
        let at = (0..=at)
            .rev()
            .find(|&i| self.text.is_char_boundary(i))
            .unwrap_or(0);
        let encoding = if self.utf8 {
            PositionEncoding::Utf8
        } else {
            PositionEncoding::Utf16
        };
        let loc = self
            .index
            .source_location(TextSize::new(at as u32), self.text, encoding);
        Position {
            line: loc.line.to_zero_indexed() as u32,
            character: loc.character_offset.to_zero_indexed() as u32,
        }
    }

    pub fn range(&self, r: TextRange) -> Range {
        Range {
            start: self.position(usize::from(r.start())),
            end: self.position(usize::from(r.end())),
        }
    }

    /// The byte offset of `pos` (clamped to the text: a position past the end of a line is its
    /// end, past the last line the end of the text, as the protocol asks).
    pub fn offset(&self, pos: Position) -> usize {
        let starts = self.index.line_starts();
        let line = pos.line as usize;
        if line >= starts.len() {
            return self.text.len();
        }
        let start = usize::from(starts[line]);
        let mut end = starts
            .get(line + 1)
            .map_or(self.text.len(), |s| usize::from(*s));
        let bytes = self.text.as_bytes();
        if end > start && bytes[end - 1] == b'\n' {
            end -= 1;
        }
        if end > start && bytes[end - 1] == b'\r' {
            end -= 1;
        }
        let mut units = 0u32;
        for (i, c) in self.text[start..end].char_indices() {
            if units >= pos.character {
                return start + i;
            }
            units += if self.utf8 {
                c.len_utf8() as u32
            } else {
                c.len_utf16() as u32
            };
        }
        end
    }
}

/// The byte offset of `pos` in `text` (see [`Lines::offset`]).
pub fn offset(text: &str, pos: Position, utf8: bool) -> usize {
    Lines::new(text, utf8).offset(pos)
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
    lines: &Lines,
    d: &Diagnostic,
    fix: Option<usize>,
) -> lsp_types::Diagnostic {
    // The byte range when the diagnostic was made on this text, else its line and column.
    let own_text = d.source.as_deref() == Some(lines.text);
    let r = if own_text {
        lines.range(d.range)
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
    // The hint is in the message (once: editors show related information next to it).
    let mut related = Vec::new();
    if let Some(rt) = &d.runtime_message {
        related.push(DiagnosticRelatedInformation {
            location: Location {
                uri: uri.clone(),
                range: r,
            },
            message: format!("at run time: {rt}"),
        });
    }
    if own_text {
        for n in &d.notes {
            related.push(DiagnosticRelatedInformation {
                location: Location {
                    uri: uri.clone(),
                    range: lines.range(n.range),
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
        code_description: ranklift_python::diagnostics::help_uri(d.code)
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
        let p16 = Lines::new(text, false).position(x);
        assert_eq!((p16.line, p16.character), (1, 7));
        let p8 = Lines::new(text, true).position(x);
        assert_eq!((p8.line, p8.character), (1, 10));
        assert_eq!(offset(text, p16, false), x);
        assert_eq!(offset(text, p8, true), x);
        // Past the end of a line: its end; past the last line: the end.
        assert_eq!(offset(text, Position::new(0, 99), false), 5);
        assert_eq!(offset(text, Position::new(9, 0), false), text.len());
        // `\r\n` and a lone `\r` end lines too.
        let crlf = "a\r\nbc\rd";
        let l = Lines::new(crlf, false);
        assert_eq!((l.position(3).line, l.position(3).character), (1, 0));
        assert_eq!((l.position(6).line, l.position(6).character), (2, 0));
        assert_eq!(l.offset(Position::new(0, 9)), 1);
        assert_eq!(l.offset(Position::new(1, 9)), 5);
    }

    #[test]
    fn file_uris_to_paths() {
        let u: Uri = "file:///tmp/a%20b/%C3%A9.py".parse().unwrap();
        assert_eq!(path_of(&u), Some(PathBuf::from("/tmp/a b/é.py")));
        let u: Uri = "untitled:Untitled-1".parse().unwrap();
        assert_eq!(path_of(&u), None);
    }
}
