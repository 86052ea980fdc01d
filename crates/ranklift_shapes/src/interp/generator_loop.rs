//! A `while` loop in a generator's body is unrolled for its first passes only.
//!
//! **Trigger:** a `while` loop whose condition holds at each head, in the body of a function
//! that yields.
//!
//! **Effect:** at most [`GENERATOR_UNROLL`] passes run with exact values; the loop is then
//! summarised by the fixpoint with widening, as a loop whose condition is unknown.
//!
//! **Why:** how many passes a generator's loop makes is decided by whoever consumes it, which
//! the analysis does not follow: the body runs once, where the generator is made, and the call
//! gives an unknown iterator whatever the passes found. Unrolling such a loop to the limit
//! spends the budget on passes that teach nothing the fixpoint does not. A spinner's
//! `while True:` generator, made by every call of a download helper and allocating a fresh
//! object on each pass (so no two heads are equal and the cycle rule cannot stop it), cost a
//! package's test file two thirds of its budget. The first passes stay exact: they catch what
//! the loop does wrong from its initial state.
//!
//! ```python
//! def spinner(chars, out):
//!     index = 0
//!     while True:                 # passes 1 and 2 exact (index 0, 1); then index: int
//!         out.write(f"{chars[index]}\r")
//!         yield
//!         index = (index + 1) % len(chars)
//! ```

use super::Interp;

/// Exact passes of a generator's `while` loop (see the module doc).
pub(super) const GENERATOR_UNROLL: i64 = 2;

impl Interp<'_> {
    /// How many passes of a `while` loop in the current frame are unrolled exactly.
    pub(super) fn while_unroll_limit(&self) -> i64 {
        match self.cur_func {
            Some(f) if self.funcs[f as usize].scope.generator => GENERATOR_UNROLL,
            _ => super::MAX_UNROLL,
        }
    }
}
