//! Parsing with Ruff's parser.

use std::sync::Arc;

use ruff_python_ast::{ModModule, Stmt};
use ruff_python_parser::{Mode, ParseOptions, Parsed, parse_module, parse_unchecked};
use ruff_source_file::LineIndex;
use ruff_text_size::TextRange;

use crate::diagnostics::{Diagnostic, Severity};
use crate::source::SourceFile;

/// Code for a file that does not parse (exit 2), at the place CPython would report, with its
/// wording where it is known. In a notebook, a cell that does not parse is reported and left
/// out; the other cells are analysed.
///
/// ```python
/// def f(:                    # RL001 syntax error
/// ```
pub const SYNTAX_ERROR: &str = "RL001";

/// A parsed module with everything needed to report on and edit it.
pub struct ParsedModule {
    pub file: SourceFile,
    /// The same text as `file.text`, shared with diagnostics.
    pub text: Arc<str>,
    pub parsed: Parsed<ModModule>,
    pub index: LineIndex,
}

impl ParsedModule {
    /// Parse `file`; a syntax error becomes a diagnostic at its location.
    pub fn parse(file: SourceFile, display_path: &str) -> Result<ParsedModule, Box<Diagnostic>> {
        let text: Arc<str> = file.text.as_str().into();
        let index = LineIndex::from_source_text(&text);
        match parse_module(&text) {
            Ok(parsed) => Ok(ParsedModule {
                file,
                text,
                parsed,
                index,
            }),
            Err(err) => Err(Box::new(
                Diagnostic::new(
                    display_path,
                    &text,
                    &index,
                    err.location,
                    SYNTAX_ERROR,
                    Severity::Error,
                    format!("syntax error: {}", err.error),
                )
                .with_hint("Python cannot parse this file either: ranklift analyses and rewrites only valid Python"),
            )),
        }
    }

    pub fn suite(&self) -> &[Stmt] {
        self.parsed.suite()
    }
}

/// True if `text` parses as a module (the re-parse guard).
pub fn parses(text: &str) -> Result<(), String> {
    parse_module(text).map(|_| ()).map_err(|e| e.to_string())
}

/// The first construct of `text` that Python `major.minor` cannot parse (a `match` before 3.10,
/// a `type` alias before 3.12, ...), with Ruff's message.
pub fn unsupported_syntax(text: &str, major: u8, minor: u8) -> Option<(TextRange, String)> {
    let version = ruff_python_ast::PythonVersion { major, minor };
    let parsed = parse_unchecked(
        text,
        ParseOptions::from(Mode::Module).with_target_version(version),
    );
    parsed
        .unsupported_syntax_errors()
        .first()
        .map(|e| (e.range, e.to_string()))
}
