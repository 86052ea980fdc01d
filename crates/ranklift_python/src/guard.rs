//! The re-parse guard, limited to the statements that edits touch.
//!
//! After edits are applied, the result must parse. Re-parsing the whole file is the simple guard;
//! this one re-parses only the innermost statements containing edits, each inside a wrapper that
//! reproduces its indentation context, and is exact for the same reason the whole-file parse is:
//!
//! - Every statement that begins a line starts a *logical line* in the original (which parsed):
//!   the tokenizer is then outside any bracket and string, and its indentation stack holds the
//!   indentation of each enclosing block. A wrapper of `if 1:` lines at the enclosing compound
//!   statements' indentations, followed by the edited statement text, recreates exactly that state.
//! - A unit runs from the start of a statement's first line to the start of the line after its
//!   last line, so it never contains a clause header (`else:`, `except:`) that belongs to code
//!   outside it, and the text after it is unchanged.
//! - Within the unit the edited text may dedent to any enclosing level (an insertion after a
//!   `with` block), which the wrapper's stack allows just as the file's would.
//!
//! Anything outside that shape — a statement sharing its line (`a; b`), a `match` block (its `case`
//! lines are not statements), an edit in no statement — falls back to parsing the whole file.

use ruff_python_ast::statement_visitor::{StatementVisitor, walk_stmt};
use ruff_python_ast::{ModModule, Stmt};
use ruff_text_size::{Ranged, TextRange, TextSize};

use crate::edit::{Edit, EditError, apply};
use crate::parse::parses;

/// A statement that begins a line.
#[derive(Debug, Clone)]
pub struct Unit {
    /// From the start of the statement's first line to the start of the line after its last line.
    pub range: TextRange,
    /// The statement's own indentation (the start of its first line up to the statement).
    indent: TextRange,
    /// The enclosing unit.
    parent: Option<usize>,
    /// False inside `match` or below a statement that does not begin its line.
    usable: bool,
}

/// The units of a parsed module, in source order (parents before children).
pub fn units(src: &str, module: &ModModule) -> Vec<Unit> {
    struct V<'s> {
        src: &'s str,
        stack: Vec<(Option<usize>, bool)>,
        out: Vec<Unit>,
    }
    impl<'a> StatementVisitor<'a> for V<'_> {
        fn visit_stmt(&mut self, stmt: &'a Stmt) {
            let (parent, parent_ok) = self.stack.last().copied().unwrap_or((None, true));
            let start = usize::from(stmt.start());
            let ls = self.src[..start].rfind('\n').map_or(0, |i| i + 1);
            let begins_line = self.src[ls..start].bytes().all(|c| c == b' ' || c == b'\t');
            let end = usize::from(stmt.end());
            let next = self.src[end..]
                .find('\n')
                .map_or(self.src.len(), |i| end + i + 1);
            let usable = parent_ok && begins_line;
            let id = self.out.len();
            let t = |x: usize| TextSize::try_from(x).unwrap_or_default();
            self.out.push(Unit {
                range: TextRange::new(t(ls), t(next)),
                indent: TextRange::new(t(ls), t(start)),
                parent,
                usable,
            });
            let children_ok = usable && !matches!(stmt, Stmt::Match(_));
            self.stack.push((Some(id), children_ok));
            walk_stmt(self, stmt);
            self.stack.pop();
        }
    }
    let mut v = V {
        src,
        stack: Vec::new(),
        out: Vec::new(),
    };
    v.visit_body(&module.body);
    v.out
}

/// The indentations of a unit's enclosing statements, outermost first.
fn context<'s>(src: &'s str, units: &[Unit], u: usize) -> Vec<&'s str> {
    let mut out = Vec::new();
    let mut cur = units[u].parent;
    while let Some(p) = cur {
        out.push(&src[units[p].indent]);
        cur = units[p].parent;
    }
    out.reverse();
    out
}

/// The innermost usable unit containing `r`: the last unit starting at or before it, or the
/// nearest of that unit's ancestors that contains it.
fn innermost(units: &[Unit], r: TextRange) -> Option<usize> {
    let last = units
        .partition_point(|u| u.range.start() <= r.start())
        .checked_sub(1)?;
    let mut cur = Some(last);
    while let Some(u) = cur {
        let unit = &units[u];
        if unit.range.start() <= r.start() && r.end() <= unit.range.end() {
            return unit.usable.then_some(u);
        }
        cur = unit.parent;
    }
    None
}

/// [`apply`], then re-parse each edited unit in its context; falls back to parsing the whole
/// result when an edit is not inside a usable unit or a unit does not parse.
pub fn apply_checked_units(src: &str, edits: &[Edit], units: &[Unit]) -> Result<String, EditError> {
    let out = apply(src, edits)?;
    let full = || {
        parses(&out)
            .map_err(EditError::Unparsable)
            .map(|_| out.clone())
    };
    let mut chosen: Vec<usize> = Vec::with_capacity(edits.len());
    for e in edits {
        match innermost(units, e.range) {
            Some(u) => chosen.push(u),
            None => return full(),
        }
    }
    // Merge overlapping units into groups; a group is checked in the context of its first unit.
    chosen.sort_by_key(|&i| {
        (
            units[i].range.start(),
            std::cmp::Reverse(units[i].range.end()),
        )
    });
    chosen.dedup();
    let mut groups: Vec<(usize, TextRange)> = Vec::new();
    for i in chosen {
        let r = units[i].range;
        match groups.last_mut() {
            Some((_, g)) if r.start() < g.end() => *g = g.cover(r),
            _ => groups.push((i, r)),
        }
    }
    let mut sorted: Vec<&Edit> = edits.iter().collect();
    sorted.sort_by_key(|e| e.range.start());
    for (first, g) in groups {
        let lo = sorted.partition_point(|e| e.range.start() < g.start());
        let hi = sorted.partition_point(|e| e.range.start() <= g.end());
        let inside: Vec<Edit> = sorted[lo..hi]
            .iter()
            .filter(|e| e.range.end() <= g.end())
            .map(|e| Edit {
                range: e.range - g.start(),
                text: e.text.clone(),
                order: e.order,
            })
            .collect();
        let piece = apply(&src[g], &inside)?;
        let mut text = String::new();
        for indent in context(src, units, first) {
            text.push_str(indent);
            text.push_str("if 1:\n");
        }
        text.push_str(&piece);
        if parses(&text).is_err() {
            // Report what the whole file says (the message names the real position).
            return full();
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::edit::apply_checked;

    #[test]
    fn agrees_with_the_whole_file_guard() {
        let src = "import a\n\n@d\ndef f(x):\n    if x:\n        y = (1,\n             2)\n    else:\n        y = 3\n    with t() as s:\n        z = y\n    return y\n\nclass C:\n    def m(self):\n        print(1); print(2)\n\nmatch v:\n    case 1:\n        q = 1\n";
        let parsed = ruff_python_parser::parse_module(src).unwrap();
        let u = units(src, parsed.syntax());
        let at = |pat: &str| TextSize::try_from(src.find(pat).unwrap()).unwrap();
        let eol = |pat: &str| {
            let s = src.find(pat).unwrap();
            TextSize::try_from(s + src[s..].find('\n').unwrap() + 1).unwrap()
        };
        let cases: Vec<Vec<Edit>> = vec![
            vec![Edit::insert(at("y = 3"), "if g:\n            ")],
            vec![Edit::insert(at("y = 3"), "if g:\n")],
            vec![Edit::insert(eol("z = y"), "    s = w(s)\n")],
            vec![Edit::insert(eol("z = y"), "  s = w(s)\n")],
            vec![Edit::insert(eol("z = y"), "        s = w(s)\n")],
            vec![Edit::insert(at("2)"), "(")],
            vec![Edit::insert(at("    return"), "    global g\n")],
            vec![Edit::insert(at("print(2)"), "if 1:\n        ")],
            vec![Edit::insert(at("print(1)"), "x and ")],
            vec![Edit::insert(at("q = 1"), "if 1:\n")],
            vec![Edit::insert(at("q = 1"), "r = 2\n        ")],
            vec![Edit::insert(at("@d"), "'''")],
            vec![Edit::insert(eol("import a"), "import b\nb.init()\n")],
            vec![Edit::insert(eol("import a"), "  import b\n")],
            vec![Edit::replace(
                TextRange::new(at("y = 3"), at("y = 3") + TextSize::from(5)),
                "pass",
            )],
        ];
        for edits in cases {
            let whole = apply_checked(src, &edits).is_ok();
            let units_ok = apply_checked_units(src, &edits, &u).is_ok();
            assert_eq!(whole, units_ok, "{edits:?}");
        }
    }
}
