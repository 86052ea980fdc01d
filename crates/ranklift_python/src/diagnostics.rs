//! Diagnostics: one type for every capability, three renderings.
//!
//! The first line of every text rendering is the stable, grep-able form
//! `path:line:col: CODE message` (1-based line and column). A source snippet and a `help:` line
//! with the hint follow. JSON and SARIF carry the same facts.

use annotate_snippets::{AnnotationKind, Group, Level, Renderer, Snippet};
use ruff_source_file::LineIndex;
use ruff_text_size::TextRange;
use serde::Serialize;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// Informational: something the user should know; never blocks.
    Note,
    /// Something suspicious; never blocks.
    Warning,
    /// Blocks the operation: nothing is written.
    Error,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Note => "note",
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }
}

/// A finding located in a source file.
#[derive(Debug, Clone, Serialize)]
pub struct Diagnostic {
    pub path: String,
    /// In a notebook: the cell (1-based, every cell counted); `line` is then the line in it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cell: Option<usize>,
    /// 1-based line.
    pub line: usize,
    /// 1-based column, in characters.
    pub column: usize,
    pub end_line: usize,
    pub end_column: usize,
    pub code: &'static str,
    pub severity: Severity,
    pub message: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hint: Option<String>,
    /// What the program itself prints when the line runs (`ValueError: matmul: ...`), where
    /// the headline says it differently (with the operands' shapes).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub runtime_message: Option<String>,
    /// Byte range into the source the diagnostic was made from (for snippets).
    #[serde(skip)]
    pub range: TextRange,
    /// The source text, for rendering snippets (shared, cheap to clone).
    #[serde(skip)]
    pub source: Option<std::sync::Arc<str>>,
    /// Secondary spans with a message each (e.g. the first differing statements of two branches).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<DiagNote>,
    /// Headline as `path:line:col: error[CODE]: message` (rustc style) instead of
    /// `path:line:col: CODE message`.
    #[serde(skip)]
    pub rustc_style: bool,
    /// Edits that resolve the finding, where the analysis knows them (an editor's quick fix).
    #[serde(skip)]
    pub fix: Option<Fix>,
}

/// A fix: what it does, and replacements of byte ranges of the diagnostic's source.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fix {
    pub title: String,
    pub edits: Vec<(TextRange, String)>,
}

/// A secondary location of a [`Diagnostic`].
#[derive(Debug, Clone, Serialize)]
pub struct DiagNote {
    pub line: usize,
    pub column: usize,
    pub message: String,
    #[serde(skip)]
    pub range: TextRange,
}

impl Diagnostic {
    /// Build a diagnostic for `range` of `source`.
    pub fn new(
        path: &str,
        source: &std::sync::Arc<str>,
        index: &LineIndex,
        range: TextRange,
        code: &'static str,
        severity: Severity,
        message: impl Into<String>,
    ) -> Diagnostic {
        let start = index.line_column(range.start(), source);
        let end = index.line_column(range.end(), source);
        Diagnostic {
            path: path.to_owned(),
            cell: None,
            line: start.line.get(),
            column: start.column.get(),
            end_line: end.line.get(),
            end_column: end.column.get(),
            code,
            severity,
            message: message.into(),
            hint: None,
            runtime_message: None,
            range,
            source: Some(source.clone()),
            notes: Vec::new(),
            rustc_style: false,
            fix: None,
        }
    }

    /// A diagnostic about a whole file with no useful position (I/O errors and the like).
    pub fn file_level(
        path: &str,
        code: &'static str,
        severity: Severity,
        message: impl Into<String>,
    ) -> Diagnostic {
        Diagnostic {
            path: path.to_owned(),
            cell: None,
            line: 1,
            column: 1,
            end_line: 1,
            end_column: 1,
            code,
            severity,
            message: message.into(),
            hint: None,
            runtime_message: None,
            range: TextRange::default(),
            source: None,
            notes: Vec::new(),
            rustc_style: false,
            fix: None,
        }
    }

    pub fn with_hint(mut self, hint: impl Into<String>) -> Diagnostic {
        self.hint = Some(hint.into());
        self
    }

    /// Add a secondary span with a message (`index` must be the source's line index).
    pub fn with_note(
        mut self,
        index: &LineIndex,
        range: TextRange,
        message: impl Into<String>,
    ) -> Diagnostic {
        let (line, column) = match &self.source {
            Some(src) => {
                let lc = index.line_column(range.start(), src);
                (lc.line.get(), lc.column.get())
            }
            None => (1, 1),
        };
        self.notes.push(DiagNote {
            line,
            column,
            message: message.into(),
            range,
        });
        self
    }

    /// Render the headline rustc-style: `path:line:col: error[CODE]: message`.
    pub fn rustc_style(mut self) -> Diagnostic {
        self.rustc_style = true;
        self
    }

    /// `path:line` or, in a notebook, `path:cell N:line`.
    pub fn place(&self) -> String {
        match self.cell {
            Some(c) => format!("{}:cell {c}:{}", self.path, self.line),
            None => format!("{}:{}", self.path, self.line),
        }
    }

    /// `path:line:col: CODE message` (or `path:line:col: error[CODE]: message`, rustc style)
    pub fn headline(&self) -> String {
        if self.rustc_style {
            return format!(
                "{}:{}: {}[{}]: {}",
                self.place(),
                self.column,
                self.severity.as_str(),
                self.code,
                self.message
            );
        }
        format!(
            "{}:{}: {} {}",
            self.place(),
            self.column,
            self.code,
            self.message
        )
    }

    /// The headline, then a snippet with the span marked (labelled with the code), then the
    /// hint. The message is printed once, in the headline, as Ruff does.
    pub fn render_text(&self) -> String {
        self.render_text_styled(false)
    }

    /// [`Diagnostic::render_text`], with the snippet in colour (ANSI) when `styled`.
    pub fn render_text_styled(&self, styled: bool) -> String {
        let mut out = self.headline();
        out.push('\n');
        let level = match self.severity {
            Severity::Error => Level::ERROR,
            Severity::Warning => Level::WARNING,
            Severity::Note => Level::NOTE,
        };
        if let Some(src) = &self.source {
            let span = usize::from(self.range.start())..usize::from(self.range.end());
            let mut snippet = Snippet::source(&**src)
                .annotation(AnnotationKind::Primary.span(span).label(self.code));
            for n in &self.notes {
                let r = usize::from(n.range.start())..usize::from(n.range.end());
                snippet =
                    snippet.annotation(AnnotationKind::Context.span(r).label(n.message.as_str()));
            }
            let mut group = Group::with_level(level).element(snippet);
            if let Some(rt) = &self.runtime_message {
                group = group.element(Level::NOTE.message(format!("at run time: {rt}")));
            }
            if let Some(h) = &self.hint {
                group = group.element(Level::HELP.message(h.as_str()));
            }
            let renderer = if styled {
                Renderer::styled()
            } else {
                Renderer::plain()
            };
            out.push_str(&renderer.render(&[group]));
            out.push('\n');
        } else if let Some(h) = &self.hint {
            out.push_str(&format!("  = help: {h}\n"));
        }
        out
    }
}

/// Where a code's page is published: its section of docs/rules.md (the text `ranklift rule
/// CODE` prints), for SARIF's `helpUri` and the editor's code link.
pub fn help_uri(code: &str) -> String {
    format!(
        "https://github.com/ranklift/ranklift/blob/main/docs/rules.md#{}",
        code.to_ascii_lowercase()
    )
}

/// Sort diagnostics by path, position and code, the order every output uses.
pub fn sort(diags: &mut [Diagnostic]) {
    diags.sort_by(|a, b| {
        (&a.path, a.line, a.column, a.code).cmp(&(&b.path, b.line, b.column, b.code))
    });
}

/// A SARIF 2.1.0 log for `diags`: what GitHub code scanning and the SARIF SDK's validator
/// expect (the tool's version, relative or `file://` URIs, the flagged source as a snippet; a
/// `rules` entry per code with its `helpUri`, the code's page — with more than an id, so the
/// validator's SARIF2004 "redundant rules" does not apply). Checked against the SARIF 2.1.0 schema and Microsoft's SARIF Multitool by
/// `scripts/sarif_check.py`.
pub fn to_sarif(tool: &str, diags: &[Diagnostic]) -> serde_json::Value {
    let mut codes: Vec<&str> = diags.iter().map(|d| d.code).collect();
    codes.sort_unstable();
    codes.dedup();
    let rules: Vec<_> = codes
        .iter()
        .map(|c| {
            serde_json::json!({
                "id": c,
                "helpUri": help_uri(c),
                "help": { "text": format!("`ranklift rule {c}` explains this code; see {}", help_uri(c)) }
            })
        })
        .collect();
    let results: Vec<_> = diags
        .iter()
        .map(|d| {
            let mut region = serde_json::json!({
                "startLine": d.line, "startColumn": d.column,
                "endLine": d.end_line, "endColumn": d.end_column
            });
            if let Some(src) = &d.source
                && d.cell.is_none()
                && let Some(text) = src.get(usize::from(d.range.start())..usize::from(d.range.end()))
                && !text.is_empty()
            {
                region["snippet"] = serde_json::json!({ "text": text });
            }
            let rule_index = codes.iter().position(|c| *c == d.code).unwrap_or(0);
            let mut r = serde_json::json!({
                "ruleId": d.code,
                "ruleIndex": rule_index,
                "level": d.severity.as_str(),
                "message": { "text": match &d.hint { Some(h) => format!("{} (hint: {h})", d.message), None => d.message.clone() } },
                "locations": [{ "physicalLocation": {
                    "artifactLocation": { "uri": path_uri(&d.path) },
                    "region": region
                }}]
            });
            // Where the operands came from (`ranklift shapes`), and what the program prints.
            if !d.notes.is_empty() && d.cell.is_none() {
                let related: Vec<_> = d
                    .notes
                    .iter()
                    .enumerate()
                    .map(|(i, n)| {
                        serde_json::json!({
                            "id": i,
                            "physicalLocation": {
                                "artifactLocation": { "uri": path_uri(&d.path) },
                                "region": { "startLine": n.line, "startColumn": n.column }
                            },
                            "message": { "text": n.message }
                        })
                    })
                    .collect();
                r["relatedLocations"] = serde_json::Value::Array(related);
            }
            if let Some(rt) = &d.runtime_message {
                r["properties"] = serde_json::json!({ "runtimeMessage": rt });
            }
            // A notebook finding: the lines are the cell's.
            if let Some(cell) = d.cell {
                if !r["properties"].is_object() {
                    r["properties"] = serde_json::json!({});
                }
                r["properties"]["cell"] = serde_json::json!(cell);
            }
            r
        })
        .collect();
    serde_json::json!({
        "version": "2.1.0",
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "runs": [{
            "tool": { "driver": {
                "name": tool,
                "version": env!("CARGO_PKG_VERSION"),
                "semanticVersion": env!("CARGO_PKG_VERSION"),
                "informationUri": "https://github.com/ranklift/ranklift",
                "rules": rules
            }},
            "columnKind": "unicodeCodePoints",
            "results": results
        }]
    })
}

/// A path as a URI reference: relative paths stay relative (without `./`), absolute ones become
/// `file://` URIs; characters a URI cannot hold are percent-encoded.
fn path_uri(path: &str) -> String {
    let mut out = String::new();
    let rel = path.strip_prefix("./").unwrap_or(path);
    if rel.starts_with('/') {
        out.push_str("file://");
    }
    for b in rel.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' | b'/' => {
                out.push(b as char);
            }
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

/// `text` with every control character shown as an escape (`\u{1b}`, `\r`, `\t`) rather than
/// sent: a file name or a program's output can hold terminal escape sequences that clear the
/// screen or forge a line of ours.
pub fn escape_controls(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.chars().any(char::is_control) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if c.is_control() {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    std::borrow::Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use ruff_text_size::TextSize;

    #[test]
    fn headline_and_snippet() {
        let src: std::sync::Arc<str> = "import os\nprint(x.pop())\n".into();
        let idx = LineIndex::from_source_text(&src);
        let r = TextRange::new(TextSize::new(16), TextSize::new(23));
        let d = Diagnostic::new(
            "a.py",
            &src,
            &idx,
            r,
            "DST004",
            Severity::Error,
            "side effect",
        )
        .with_hint("move it out");
        assert_eq!(d.headline(), "a.py:2:7: DST004 side effect");
        let sarif = to_sarif("t", std::slice::from_ref(&d));
        let region = &sarif["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"];
        assert_eq!(region["snippet"]["text"], "x.pop()");
        let rule = &sarif["runs"][0]["tool"]["driver"]["rules"][0];
        assert_eq!(rule["id"], "DST004");
        assert_eq!(
            rule["helpUri"],
            "https://github.com/ranklift/ranklift/blob/main/docs/rules.md#dst004"
        );
        assert_eq!(sarif["runs"][0]["results"][0]["ruleIndex"], 0);
        let text = d.render_text();
        assert!(text.contains("print(x.pop())"), "{text}");
        assert!(text.contains("help: move it out"), "{text}");
    }
}

#[cfg(test)]
mod uri_tests {
    #[test]
    fn paths_become_uri_references() {
        assert_eq!(super::path_uri("./a b/c.py"), "a%20b/c.py");
        assert_eq!(super::path_uri("/tmp/é.py"), "file:///tmp/%C3%A9.py");
        assert_eq!(super::path_uri("src/m#1.py"), "src/m%231.py");
    }
}
