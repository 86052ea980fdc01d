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
    pub const AFTER: u8 = 1;

    pub fn insert(at: TextSize, text: impl Into<String>) -> Edit {
        Edit {
            range: TextRange::empty(at),
            text: text.into(),
            order: 0,
        }
    }
    pub fn replace(range: TextRange, text: impl Into<String>) -> Edit {
        Edit {
            range,
            text: text.into(),
            order: 0,
        }
    }
    pub fn delete(range: TextRange) -> Edit {
        Edit {
            range,
            text: String::new(),
            order: 0,
        }
    }
    /// The same edit, placed after other insertions at its offset.
    pub fn after(mut self) -> Edit {
        self.order = Self::AFTER;
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
        if !a.is_insertion() && !b.is_insertion() && a.range.end() == b.range.start() {
            // Adjacent replacements are fine.
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
