//! Long statements a rewrite made are wrapped as Black would wrap them.
//!
//! A rule extends a statement in place (`model.fit(x, y)` gains sharded arrays, `verbose=` and a
//! list of callbacks), which can leave a line of 300 columns in a file whose lines stay under
//! 88. After the rules ran and before the edits are applied, every simple statement that edits
//! touch and whose edited text no longer fits the file's line length is formatted alone by Ruff's
//! formatter (Black's style: one argument per line, magic trailing commas, the file's quotes
//! preserved, its indentation width), and the edits inside it become one edit that replaces it.
//! Nothing else of the file is reformatted, and the result is still re-parsed by the guard.
//!
//! The line length is the file's own: 88 (Black's), or the longest line the file already has
//! when that is longer — a file written to 120 columns keeps its style.

use ruff_python_ast::Stmt;
use ruff_python_ast::visitor::source_order::{self, SourceOrderVisitor};
use ruff_python_formatter::{PyFormatOptions, QuoteStyle, format_module_source};
use ruff_text_size::{Ranged, TextRange};

use crate::edit::Edit;

/// Black's default line length.
pub const DEFAULT_LINE_LENGTH: usize = 88;

/// The line length the file is written to: 88, or its longest line.
pub fn line_length(text: &str) -> usize {
    text.lines()
        .map(|l| l.chars().count())
        .max()
        .unwrap_or(0)
        .max(DEFAULT_LINE_LENGTH)
}

/// Simple statements (not bodies of compound ones), in source order.
fn simple_statements(suite: &[Stmt]) -> Vec<TextRange> {
    struct V(Vec<TextRange>);
    impl<'a> SourceOrderVisitor<'a> for V {
        fn visit_stmt(&mut self, s: &'a Stmt) {
            match s {
                Stmt::Expr(_)
                | Stmt::Assign(_)
                | Stmt::AugAssign(_)
                | Stmt::AnnAssign(_)
                | Stmt::Return(_) => self.0.push(s.range()),
                _ => source_order::walk_stmt(self, s),
            }
        }
    }
    let mut v = V(Vec::new());
    for s in suite {
        v.visit_stmt(s);
    }
    v.0
}

/// `edits` with every edited simple statement that would overflow the line length replaced by
/// one edit holding its wrapped text. `indent_width` is the file's indentation unit in columns.
pub fn wrap_long_statements(
    text: &str,
    suite: &[Stmt],
    edits: Vec<Edit>,
    indent_width: u8,
) -> Vec<Edit> {
    let limit = line_length(text);
    let mut edits = edits;
    // Whole statements inserted by a rule (`model = DDP(model, ...)` on a line of its own).
    for e in &mut edits {
        if let Some(wrapped) = wrap_inserted_lines(text, e, limit, indent_width) {
            e.text = wrapped;
        }
    }
    for range in simple_statements(suite) {
        // Edits strictly inside the statement (whole lines inserted at its start or end belong to
        // the statements around it).
        let inside: Vec<usize> = (0..edits.len())
            .filter(|&i| {
                let e = &edits[i];
                range.contains_range(e.range)
                    && !(e.is_insertion()
                        && (e.range.start() == range.start() || e.range.start() == range.end())
                        && e.text.contains('\n'))
            })
            .collect();
        if inside.is_empty() {
            continue;
        }
        let stmt_text = &text[range];
        if stmt_text.contains("\"\"\"") || stmt_text.contains("'''") || stmt_text.contains('#') {
            continue; // triple-quoted strings and comments keep their exact layout
        }
        let mut new_stmt = String::with_capacity(stmt_text.len() + 64);
        let mut sorted: Vec<&Edit> = inside.iter().map(|&i| &edits[i]).collect();
        sorted.sort_by_key(|e| (e.range.start(), !e.is_insertion(), e.order));
        let mut at = range.start();
        for e in &sorted {
            if e.range.start() < at {
                break;
            }
            new_stmt.push_str(&text[TextRange::new(at, e.range.start())]);
            new_stmt.push_str(&e.text);
            at = e.range.end();
        }
        new_stmt.push_str(&text[TextRange::new(at, range.end())]);
        // The statement's final column: its line's indentation plus whitespace inserted there.
        let line_start = text[..usize::from(range.start())]
            .rfind('\n')
            .map_or(0, |i| i + 1);
        let base = &text[line_start..usize::from(range.start())];
        if !base.chars().all(|c| c == ' ' || c == '\t') {
            continue; // shares its line with other code
        }
        let extra: String = edits
            .iter()
            .filter(|e| {
                e.is_insertion()
                    && usize::from(e.range.start()) == line_start
                    && !e.text.is_empty()
                    && e.text.chars().all(|c| c == ' ' || c == '\t')
            })
            .map(|e| e.text.as_str())
            .collect();
        let indent = format!("{extra}{base}");
        let width = indent.chars().count();
        let too_long = new_stmt
            .lines()
            .enumerate()
            .any(|(i, l)| l.chars().count() + if i == 0 { width } else { 0 } > limit);
        if !too_long || width + 20 > limit {
            continue;
        }
        let Some(wrapped) = format_alone(&new_stmt, limit - width, indent_width) else {
            continue;
        };
        let mut out = String::new();
        for (i, line) in wrapped.trim_end().lines().enumerate() {
            if i > 0 {
                out.push('\n');
                if !line.is_empty() {
                    out.push_str(&indent);
                }
            }
            out.push_str(line);
        }
        let mut keep = Vec::with_capacity(edits.len());
        for (i, e) in edits.into_iter().enumerate() {
            if !inside.contains(&i) {
                keep.push(e);
            }
        }
        keep.push(Edit::replace(range, out));
        edits = keep;
    }
    edits
}

/// An insertion of whole lines (`stmt\n<indent>` inserted after a line's indentation) with a
/// line longer than `limit`: the same lines, each statement wrapped. None when the text is not
/// whole statements (an `if ...:` header, a fragment of an expression) or fits.
/// Inside brackets (the text before ends with `,`, an opening bracket or a backslash), inserted
/// lines are arguments or items, not statements.
fn open(t: &str) -> bool {
    t.trim_end().ends_with([',', '(', '[', '{', '\\'])
}

fn wrap_inserted_lines(text: &str, e: &Edit, limit: usize, indent_width: u8) -> Option<String> {
    if !e.is_insertion() || !e.text.contains('\n') {
        return None;
    }
    let at = usize::from(e.range.start());
    let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let base = &text[line_start..at];
    let nl = if e.text.contains("\r\n") {
        "\r\n"
    } else {
        "\n"
    };
    if !base.chars().all(|c| c == ' ' || c == '\t') {
        // Lines added after the end of a statement's line (`\n    self.model = DDP(...)`):
        // they start at their own indentation.
        if open(&text[..at]) || open(&e.text) {
            return None;
        }
        let rest = e.text.strip_prefix(nl)?;
        let ind = rest.len() - rest.trim_start_matches([' ', '\t']).len();
        let (own, body) = rest.split_at(ind);
        let shifted = Edit::insert(e.range.start(), format!("{body}{nl}"));
        let wrapped = wrap_block(&shifted.text, own, nl, limit, indent_width)?;
        let wrapped = wrapped.strip_suffix(nl).unwrap_or(&wrapped);
        return Some(format!("{nl}{own}{wrapped}"));
    }
    if base.is_empty() && !open(&text[..at]) && !open(&e.text) {
        // Lines inserted at a line's start (after a statement's line): at their own indentation.
        let ind = e.text.len() - e.text.trim_start_matches([' ', '\t']).len();
        let (own, body) = e.text.split_at(ind);
        if !own.is_empty() {
            let wrapped = wrap_block(body, own, nl, limit, indent_width)?;
            return Some(format!("{own}{wrapped}"));
        }
    }
    wrap_block(&e.text, base, nl, limit, indent_width)
}

/// Inserted text whose first line sits at `base` (already in the file) and whose other lines
/// carry `base`, wrapped when a line overflows `limit`; None when it fits.
fn wrap_block(text: &str, base: &str, nl: &str, limit: usize, indent_width: u8) -> Option<String> {
    let (body, tail) = text.rsplit_once('\n')?;
    let body = body.strip_suffix('\r').unwrap_or(body);
    let width = base.chars().count();
    if !body.lines().any(|l| {
        let extra = if l.starts_with(base) { 0 } else { width };
        l.chars().count() + extra > limit
    }) || width + 20 > limit
    {
        return None;
    }
    // Dedent: the first line sits at `base`, the others carry it.
    let mut block = String::new();
    for (i, l) in body.lines().enumerate() {
        let l = l.strip_suffix('\r').unwrap_or(l);
        let l = if i == 0 { l } else { l.strip_prefix(base)? };
        block.push_str(l);
        block.push('\n');
    }
    let options = options(limit - width, indent_width)?;
    let printed = format_module_source(&block, options).ok()?;
    let code = printed.as_code();
    let mut out = String::new();
    for (i, l) in code.trim_end().lines().enumerate() {
        if i > 0 {
            out.push_str(nl);
            if !l.is_empty() {
                out.push_str(base);
            }
        }
        out.push_str(l);
    }
    out.push_str(nl);
    out.push_str(tail);
    Some(out)
}

fn options(width: usize, indent_width: u8) -> Option<PyFormatOptions> {
    let width = u16::try_from(width).ok()?;
    let mut options = PyFormatOptions::default()
        .with_quote_style(QuoteStyle::Preserve)
        .with_line_width(width.try_into().ok()?);
    if let Ok(w) = indent_width.try_into() {
        options = options.with_indent_width(w);
    }
    Some(options)
}

/// `stmt` (one statement, its continuation lines in any indentation) formatted alone.
fn format_alone(stmt: &str, width: usize, indent_width: u8) -> Option<String> {
    let printed = format_module_source(stmt, options(width, indent_width)?).ok()?;
    let code = printed.as_code().to_owned();
    // One statement in, one statement out (a formatter that split it would change meaning).
    let reparsed = ruff_python_parser::parse_module(&code).ok()?;
    (reparsed.suite().len() == 1).then_some(code)
}

#[cfg(test)]
mod tests {
    use super::*;
    use ruff_text_size::TextSize;

    fn wrap(src: &str, edits: Vec<Edit>) -> String {
        let parsed = ruff_python_parser::parse_module(src).unwrap();
        let edits = wrap_long_statements(src, parsed.suite(), edits, 4);
        crate::edit::apply(src, &edits).unwrap()
    }

    #[test]
    fn an_edited_statement_that_overflows_is_wrapped_as_black_would() {
        let src = "model.fit(x, y, epochs=3)\n";
        let at = TextSize::from(src.find(", epochs").unwrap() as u32);
        let long = ", callbacks=[hvd.callbacks.BroadcastGlobalVariablesCallback(0), hvd.callbacks.MetricAverageCallback()]";
        let out = wrap(src, vec![Edit::insert(at, long)]);
        assert_eq!(
            out,
            "model.fit(\n    x,\n    y,\n    callbacks=[\n        hvd.callbacks.BroadcastGlobalVariablesCallback(0),\n        hvd.callbacks.MetricAverageCallback(),\n    ],\n    epochs=3,\n)\n"
        );
    }

    #[test]
    fn inserted_lines_are_wrapped_at_their_indentation() {
        let src = "def main():\n    model = Net()\n    train(model)\n";
        let at = TextSize::from(src.find("train").unwrap() as u32);
        let line = "model = DDP(model, device_ids=[LOCAL_RANK] if torch.cuda.is_available() else None, find_unused_parameters=True)";
        let out = wrap(src, vec![Edit::insert(at, format!("{line}\n    "))]);
        assert_eq!(
            out,
            "def main():\n    model = Net()\n    model = DDP(\n        model,\n        device_ids=[LOCAL_RANK] if torch.cuda.is_available() else None,\n        find_unused_parameters=True,\n    )\n    train(model)\n"
        );
        // A header (not a whole statement) is left as it is.
        let header = format!("if {}:\n    ", "x".repeat(100));
        let out = wrap(src, vec![Edit::insert(at, header.clone())]);
        assert!(out.contains(&header), "{out}");
    }

    #[test]
    fn a_statement_that_fits_is_left_as_edited() {
        let src = "opt = Adam(0.01)\n";
        let at = TextSize::from(src.find(")").unwrap() as u32);
        assert_eq!(
            wrap(src, vec![Edit::insert(at, " * hvd.size()")]),
            "opt = Adam(0.01 * hvd.size())\n"
        );
    }

    #[test]
    fn a_file_written_wide_keeps_its_width_and_the_indentation_of_a_guard() {
        let wide = format!("x = {}\n", "1 + ".repeat(30) + "1");
        let src =
            format!("{wide}for i in r:\n    print('epoch', i, 'loss', loss_value_of_this_epoch)\n");
        let stmt = src.find("print").unwrap();
        let line = src[..stmt].rfind('\n').unwrap() + 1;
        // Under a guard: the line gains an `if` and four columns.
        let edits = vec![
            Edit::insert(TextSize::from(line as u32), "    if rank == 0:\n"),
            Edit::insert(TextSize::from(line as u32), "    "),
        ];
        let out = wrap(&src, edits);
        assert!(
            out.contains("        print('epoch', i, 'loss', loss_value_of_this_epoch)\n"),
            "{out}"
        );
        // Narrow file: the same guarded call, made long, wraps with the guard's indentation.
        let src = "for i in r:\n    print('epoch', i)\n";
        let stmt = src.find("print").unwrap();
        let line = src[..stmt].rfind('\n').unwrap() + 1;
        let end = TextSize::from(src.find("i)\n").unwrap() as u32 + 1);
        let edits = vec![
            Edit::insert(TextSize::from(line as u32), "    if rank == 0:\n"),
            Edit::insert(TextSize::from(line as u32), "    "),
            Edit::insert(
                end,
                ", 'a very long message that makes this line overflow the limit of the file', flush=True",
            ),
        ];
        let out = wrap(src, edits);
        assert_eq!(
            out,
            "for i in r:\n    if rank == 0:\n        print(\n            'epoch',\n            i,\n            'a very long message that makes this line overflow the limit of the file',\n            flush=True,\n        )\n"
        );
    }
}
