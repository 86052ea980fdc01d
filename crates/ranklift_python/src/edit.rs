//! The edit engine: the only way ranklift changes source text.
//!
//! An [`Edit`] replaces a byte range (an insertion is an empty range). Edits from independent rules
//! are collected, checked for conflicts (two edits may not overlap; insertions at the same offset
//! keep the order in which they were made) and applied back to front, so every untouched byte of
//! the file stays as it was. [`apply_checked`] then re-parses the result: an edit that would produce
//! invalid Python is an internal error, and nothing is written.

use ruff_text_size::{TextRange, TextSize};
use serde::Serialize;

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Edit {
    #[serde(serialize_with = "ser_range")]
    pub range: TextRange,
    pub text: String,
    /// Tie-break for insertions at the same offset: lower first, then in the order given. Text
    /// that extends the expression ending there (`x` → `x * 2`) uses 0; new items after it (`, k=v`)
    /// use [`Edit::AFTER`], so they always follow the extended expression.
    #[serde(skip)]
    pub order: u8,
}

fn ser_range<S: serde::Serializer>(r: &TextRange, s: S) -> Result<S::Ok, S::Error> {
    (u32::from(r.start()), u32::from(r.end())).serialize(s)
}

impl Edit {
    /// The default tie-break.
    pub const NORMAL: u8 = 1;
    pub const AFTER: u8 = 2;
    /// Before every other insertion at its offset (whole lines that must precede a statement
    /// another edit rewrites at the same offset).
    pub const FIRST: u8 = 0;

    pub fn insert(at: TextSize, text: impl Into<String>) -> Edit {
        Edit {
            range: TextRange::empty(at),
            text: text.into(),
            order: Self::NORMAL,
        }
    }
    pub fn replace(range: TextRange, text: impl Into<String>) -> Edit {
        Edit {
            range,
            text: text.into(),
            order: Self::NORMAL,
        }
    }
    pub fn delete(range: TextRange) -> Edit {
        Edit {
            range,
            text: String::new(),
            order: Self::NORMAL,
        }
    }
    /// The same edit, placed after other insertions at its offset.
    pub fn after(mut self) -> Edit {
        self.order = Self::AFTER;
        self
    }
    /// The same edit, placed before other insertions at its offset.
    pub fn first(mut self) -> Edit {
        self.order = Self::FIRST;
        self
    }
    pub fn is_insertion(&self) -> bool {
        self.range.is_empty()
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EditError {
    /// Two edits overlap: the byte ranges of both.
    Conflict(TextRange, TextRange),
    /// The edited text no longer parses.
    Unparsable(String),
}

impl std::fmt::Display for EditError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EditError::Conflict(a, b) => write!(f, "conflicting edits at bytes {a:?} and {b:?}"),
            EditError::Unparsable(e) => write!(f, "the rewritten file does not parse: {e}"),
        }
    }
}

/// Apply `edits` to `src`. Insertions at the same offset appear in the order given; an insertion
/// at the start of a replaced range goes before the replacement.
pub fn apply(src: &str, edits: &[Edit]) -> Result<String, EditError> {
    let mut order: Vec<usize> = (0..edits.len()).collect();
    // Stable sort: by start, insertions before replacements starting at the same offset.
    order.sort_by_key(|&i| {
        (
            edits[i].range.start(),
            !edits[i].is_insertion(),
            edits[i].order,
        )
    });
    for w in order.windows(2) {
        let (a, b) = (&edits[w[0]], &edits[w[1]]);
        if a.range.end() > b.range.start() {
            return Err(EditError::Conflict(a.range, b.range));
        }
    }
    let mut out =
        String::with_capacity(src.len() + edits.iter().map(|e| e.text.len()).sum::<usize>());
    let mut pos = 0usize;
    for &i in &order {
        let e = &edits[i];
        let start = usize::from(e.range.start());
        out.push_str(&src[pos..start]);
        out.push_str(&e.text);
        pos = usize::from(e.range.end());
    }
    out.push_str(&src[pos..]);
    Ok(out)
}

/// [`apply`], then re-parse the result as a guard.
pub fn apply_checked(src: &str, edits: &[Edit]) -> Result<String, EditError> {
    let out = apply(src, edits)?;
    crate::parse::parses(&out).map_err(EditError::Unparsable)?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(a: u32, b: u32) -> TextRange {
        TextRange::new(TextSize::new(a), TextSize::new(b))
    }

    #[test]
    fn insertions_keep_their_order_and_untouched_text_stays() {
        let src = "x = f(a)  # keep\n";
        let edits = [
            Edit::insert(TextSize::new(6), "("),
            Edit::insert(TextSize::new(7), ") * 2"),
            Edit::insert(TextSize::new(0), "import y\n"),
            Edit::insert(TextSize::new(0), "import z\n"),
        ];
        assert_eq!(
            apply(src, &edits).unwrap(),
            "import y\nimport z\nx = f((a) * 2)  # keep\n"
        );
    }

    #[test]
    fn overlapping_edits_conflict() {
        let edits = [Edit::replace(r(0, 5), "a"), Edit::replace(r(3, 7), "b")];
        assert!(matches!(
            apply("0123456789", &edits),
            Err(EditError::Conflict(_, _))
        ));
        let inside = [
            Edit::replace(r(0, 5), "a"),
            Edit::insert(TextSize::new(2), "b"),
        ];
        assert!(apply("0123456789", &inside).is_err());
    }

    #[test]
    fn later_order_goes_after_at_the_same_offset() {
        let edits = [
            Edit::insert(TextSize::new(6), ", k=1").after(),
            Edit::insert(TextSize::new(6), " + y"),
        ];
        assert_eq!(apply("f(x, a)", &edits).unwrap(), "f(x, a + y, k=1)");
    }

    #[test]
    fn insertion_at_replacement_start_goes_first() {
        let edits = [
            Edit::replace(r(0, 1), "B"),
            Edit::insert(TextSize::new(0), "A"),
        ];
        assert_eq!(apply("xyz", &edits).unwrap(), "AByz");
    }

    #[test]
    fn the_guard_rejects_broken_output() {
        let edits = [Edit::insert(TextSize::new(0), "if x\n")];
        assert!(matches!(
            apply_checked("y = 1\n", &edits),
            Err(EditError::Unparsable(_))
        ));
    }
}

/// A unified diff (3 lines of context) of applying `edits` to `src`, computed from the edits
/// themselves: only the lines around edits are compared, so the cost is proportional to the size
/// of the change, not of the file. `new` must be `apply(src, edits)`.
pub fn unified_diff(path: &str, src: &str, edits: &[Edit]) -> String {
    const CONTEXT: usize = 3;
    // Windows reach one line further than the context, so that hunks formed inside a window are
    // the hunks a diff of the whole files would form.
    const MARGIN: usize = CONTEXT + 1;
    if edits.is_empty() {
        return String::new();
    }
    let mut starts = vec![0usize];
    starts.extend(src.match_indices('\n').map(|(i, _)| i + 1));
    if starts.len() > 1 && *starts.last().unwrap_or(&0) == src.len() {
        starts.pop();
    }
    let n_lines = starts.len();
    let line_of = |off: usize| starts.partition_point(|&s| s <= off).saturating_sub(1);
    let mut order: Vec<&Edit> = edits.iter().collect();
    order.sort_by_key(|e| (e.range.start(), !e.is_insertion(), e.order));
    // Clusters of edits whose windows touch: (first line, last line, edits).
    let mut clusters: Vec<(usize, usize, Vec<&Edit>)> = Vec::new();
    for e in order {
        let s = usize::from(e.range.start());
        let end = usize::from(e.range.end()).max(s);
        let first = line_of(s);
        let last = line_of(end.saturating_sub(1).max(s)).max(first);
        let lo = first.saturating_sub(MARGIN);
        let hi = (last + MARGIN).min(n_lines.saturating_sub(1));
        match clusters.last_mut() {
            Some(c) if lo <= c.1 + 1 => {
                c.1 = c.1.max(hi);
                c.2.push(e);
            }
            _ => clusters.push((lo, hi, vec![e])),
        }
    }
    let mut out = format!("--- a/{path}\n+++ b/{path}\n");
    let mut delta: isize = 0;
    for (lo, hi, es) in clusters {
        let a = starts[lo];
        let b = if hi + 1 < n_lines {
            starts[hi + 1]
        } else {
            src.len()
        };
        let old = &src[a..b];
        let shifted: Vec<Edit> = es
            .iter()
            .map(|e| Edit {
                range: TextRange::new(
                    TextSize::try_from(usize::from(e.range.start()) - a).unwrap_or_default(),
                    TextSize::try_from(usize::from(e.range.end()) - a).unwrap_or_default(),
                ),
                text: e.text.clone(),
                order: e.order,
            })
            .collect();
        let Ok(new) = apply(old, &shifted) else {
            continue;
        };
        let diff = similar::TextDiff::from_lines(old, new.as_str());
        let new_lo = (lo as isize + delta) as usize;
        for group in diff.grouped_ops(CONTEXT) {
            let (Some(first), Some(last)) = (group.first(), group.last()) else {
                continue;
            };
            let old_range = first.old_range().start..last.old_range().end;
            let new_range = first.new_range().start..last.new_range().end;
            out.push_str(&format!(
                "@@ -{} +{} @@\n",
                hunk_range(lo + old_range.start, old_range.len()),
                hunk_range(new_lo + new_range.start, new_range.len())
            ));
            for op in &group {
                for change in diff.iter_changes(op) {
                    let sign = match change.tag() {
                        similar::ChangeTag::Equal => ' ',
                        similar::ChangeTag::Delete => '-',
                        similar::ChangeTag::Insert => '+',
                    };
                    out.push(sign);
                    let v = change.value();
                    out.push_str(v);
                    if !v.ends_with('\n') {
                        out.push_str("\n\\ No newline at end of file\n");
                    }
                }
            }
        }
        let old_lines = old.lines().count();
        let new_lines = new.lines().count();
        delta += new_lines as isize - old_lines as isize;
    }
    out
}

/// `start,len` of a unified-diff hunk header (1-based; an empty range names the line before it).
fn hunk_range(start0: usize, len: usize) -> String {
    match len {
        0 => format!("{},0", start0),
        1 => format!("{}", start0 + 1),
        _ => format!("{},{}", start0 + 1, len),
    }
}

#[cfg(test)]
mod diff_tests {
    use super::*;

    /// The hunks built from edits must equal a full diff of the two texts (checked with
    /// `similar` on the whole file, context 3).
    fn check(src: &str, edits: &[Edit]) {
        let new = apply(src, edits).unwrap();
        let ours = unified_diff("f.py", src, edits);
        let full = similar::TextDiff::from_lines(src, new.as_str())
            .unified_diff()
            .context_radius(3)
            .header("a/f.py", "b/f.py")
            .to_string();
        assert_eq!(ours, full);
    }

    #[test]
    fn single_edits_at_every_kind_of_place() {
        let src: String = (0..12).map(|i| format!("line {i}\n")).collect();
        let at = |l: usize| {
            TextSize::try_from(src.match_indices('\n').nth(l - 1).map_or(0, |(i, _)| i + 1))
                .unwrap()
        };
        for l in 1..12 {
            check(&src, &[Edit::insert(at(l), "new\n")]);
            check(&src, &[Edit::insert(at(l), "    ")]);
            check(
                &src,
                &[
                    Edit::insert(at(l), "if x:\n    "),
                    Edit::insert(at(l + 1), "    "),
                ],
            );
            check(
                &src,
                &[Edit::delete(TextRange::new(
                    at(l),
                    at(l) + TextSize::from(5),
                ))],
            );
            check(&src, &[Edit::insert(at(l) + TextSize::from(4), " x")]);
        }
        check(&src, &[Edit::insert(TextSize::from(0), "first\n")]);
        check(
            &src,
            &[Edit::insert(
                TextSize::try_from(src.len()).unwrap(),
                "last\n",
            )],
        );
        check("a\nb", &[Edit::insert(TextSize::from(3), "c\n")]);
    }

    #[test]
    fn diff_from_edits_matches_a_full_diff() {
        let src: String = (0..40).map(|i| format!("line {i}\n")).collect();
        let at = |l: usize| {
            TextSize::try_from(src.match_indices('\n').nth(l - 1).map_or(0, |(i, _)| i + 1))
                .unwrap()
        };
        let edits = vec![
            Edit::insert(at(2), "new a\nnew b\n"),
            Edit::replace(TextRange::new(at(5), at(6)), "changed 5\n"),
            Edit::delete(TextRange::new(at(20), at(21))),
            Edit::insert(at(39), "before last\n"),
        ];
        let new = apply(&src, &edits).unwrap();
        let ours = unified_diff("f.py", &src, &edits);
        let full = similar::TextDiff::from_lines(src.as_str(), new.as_str())
            .unified_diff()
            .context_radius(3)
            .header("a/f.py", "b/f.py")
            .to_string();
        assert_eq!(ours, full);
    }
}
