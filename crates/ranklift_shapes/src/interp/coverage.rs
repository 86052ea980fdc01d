//! What the analysis understood of the entry module: the last value each expression had, and
//! where it lost track of library values.
//!
//! **Why:** "All checks passed." reads the same whether the analysis checked every tensor of a
//! model or understood nothing of it (an unmodelled call at the top of `forward`, a loader built
//! from an unknown dict). Coverage tells them apart, for users and for whoever improves the
//! analysis: the share of expressions whose value is known, the share of array and tensor
//! values whose shape is fully known, and the causes — library attributes the analysis does not
//! model, ranked by how often the file met them.
//!
//! An expression is counted once (its last evaluation, after the loops' fixpoint): literals are
//! not counted (always known). A value the analysis lost is "unknown", whatever it was at run
//! time; so the share of tensor shapes is over the arrays and tensors it *saw*, and the share
//! of expressions understood is what says how much it saw.

use ruff_text_size::TextRange;

use crate::interp::state::FxMap;
use crate::interp::value::Value;
use crate::shape::Shape;

/// How well one expression's value is known.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Class {
    Unknown,
    Known,
    /// An array or tensor: its rank unknown, known, or every size known.
    ArrayNoRank,
    ArrayRank,
    ArrayFull,
}

#[derive(Debug, Default)]
pub struct Coverage {
    seen: FxMap<(u32, u32), Class>,
    /// Library attributes not modelled: name → (first place, times met).
    causes: FxMap<String, (TextRange, u32)>,
}

/// The counts, for a report.
#[derive(Debug, Clone, Default)]
pub struct CoverageSummary {
    /// Expressions evaluated (literals aside).
    pub expressions: usize,
    /// Of those, with a known value.
    pub understood: usize,
    /// Array and tensor values seen.
    pub arrays: usize,
    /// Of those, with their rank known, and with every size known.
    pub arrays_rank_known: usize,
    pub arrays_fully_known: usize,
    /// Library attributes the analysis does not model: (name, range of its first use, uses),
    /// most used first.
    pub causes: Vec<(String, TextRange, u32)>,
}

impl Coverage {
    pub(crate) fn record(&mut self, range: TextRange, v: &Value) {
        let shape_class = |s: &Shape| match s.dims() {
            None => Class::ArrayNoRank,
            Some(d) if d.iter().all(|d| matches!(d, crate::dim::Dim::Known(_))) => Class::ArrayFull,
            Some(_) => Class::ArrayRank,
        };
        let class = match v {
            Value::Top => Class::Unknown,
            Value::Array(s) | Value::Tensor(s) => shape_class(s),
            _ => Class::Known,
        };
        self.seen
            .insert((u32::from(range.start()), u32::from(range.end())), class);
    }

    pub(crate) fn cause(&mut self, what: String, range: TextRange) {
        self.causes
            .entry(what)
            .and_modify(|(_, n)| *n += 1)
            .or_insert((range, 1));
    }

    pub fn summary(&self) -> CoverageSummary {
        let count = |f: &dyn Fn(Class) -> bool| self.seen.values().filter(|c| f(**c)).count();
        let mut causes: Vec<(String, TextRange, u32)> = self
            .causes
            .iter()
            .map(|(k, (r, n))| (k.clone(), *r, *n))
            .collect();
        causes.sort_by(|a, b| b.2.cmp(&a.2).then(a.1.start().cmp(&b.1.start())));
        CoverageSummary {
            expressions: self.seen.len(),
            understood: count(&|c| c != Class::Unknown),
            arrays: count(&|c| {
                matches!(c, Class::ArrayNoRank | Class::ArrayRank | Class::ArrayFull)
            }),
            arrays_rank_known: count(&|c| matches!(c, Class::ArrayRank | Class::ArrayFull)),
            arrays_fully_known: count(&|c| c == Class::ArrayFull),
            causes,
        }
    }
}

/// `a.b.c` as text, for a chain of names and attributes.
pub(crate) fn dotted(e: &ruff_python_ast::Expr) -> Option<String> {
    match e {
        ruff_python_ast::Expr::Name(n) => Some(n.id.to_string()),
        ruff_python_ast::Expr::Attribute(a) => Some(format!("{}.{}", dotted(&a.value)?, a.attr)),
        _ => None,
    }
}

impl CoverageSummary {
    /// Add another file's counts (a directory's total).
    pub fn add(&mut self, o: &CoverageSummary) {
        self.expressions += o.expressions;
        self.understood += o.understood;
        self.arrays += o.arrays;
        self.arrays_rank_known += o.arrays_rank_known;
        self.arrays_fully_known += o.arrays_fully_known;
    }

    /// `understood 83% of 412 expressions; 61% of 96 array and tensor shapes fully known`.
    pub fn describe(&self) -> String {
        let pct = |a: usize, b: usize| (a * 100).checked_div(b).unwrap_or(0);
        if self.expressions == 0 {
            return "no expression analysed".into();
        }
        let arrays = if self.arrays == 0 {
            "no array or tensor seen".to_owned()
        } else {
            format!(
                "{}% of {} array and tensor shapes fully known",
                pct(self.arrays_fully_known, self.arrays),
                self.arrays
            )
        };
        format!(
            "understood {}% of {} expressions; {arrays}",
            pct(self.understood, self.expressions),
            self.expressions
        )
    }
}
