//! Loop mechanics: the first pass of a long loop runs on its first element.
//!
//! **Trigger:** a `for` loop too long to unroll (over 64 elements, or of a length the analysis
//! only bounds) that certainly runs at least twice, whose first element is known: a `range`
//! with a known start and step (`for k in range(n - 1)`), a list or tuple of known entries.
//!
//! **Effect:** the body runs once with the target bound to that element, from the state before
//! the loop, as Python runs it; the loop's summary (its passes joined until stable) then starts
//! from the state that pass left, with the target bound to the summary element.
//!
//! **Why:** in the summary the target is a range of values (`k` in 0..195), so every size
//! computed from it (`n - (k + 1)`, a slice `x[k + 1:]`) is unknown and a shape error that
//! happens on every iteration went unreported: `Sx[k + 1:][mask]` with a mask one row short
//! was found in a 5-iteration loop and missed in a 200-iteration one. The first pass has exact
//! sizes; its findings are as certain as the state before the loop. Because the loop certainly
//! runs a second time, the state the first pass leaves really reaches the body again, so the
//! summary may start from it.
//!
//! ```python
//! for k in range(n - 1):          # n = 197
//!     rows = x[k + 1:]            # first pass: (196, 3)
//!     rows[mask]                  # mask (197,): IndexError, reported at k = 0
//! ```
use super::Interp;
use super::state::State;
use super::value::{Int, Seq, Value};

impl Interp<'_> {
    /// The first element a summarized loop over `it` runs on, when the loop certainly runs at
    /// least twice (see the module doc); `None` otherwise.
    pub(crate) fn peeled_first(&mut self, it: &Value, st: &State) -> Option<Value> {
        let twice = match self.iteration_len(it, st) {
            Int::Const(n) => n >= 2,
            Int::Range(Some(lo), _) => lo >= 2,
            _ => false,
        };
        if !twice {
            return None;
        }
        match it {
            Value::Range(r) => match (r.0.constant(), r.2.constant()) {
                (Some(start), Some(step)) if step != 0 => Some(Value::int(start)),
                _ => None,
            },
            Value::Tuple(Seq::Exact(items)) => items.first().cloned(),
            Value::List(a) => match st.list(*a) {
                Some(Seq::Exact(items)) => items.first().cloned(),
                _ => None,
            },
            _ => None,
        }
    }
}
