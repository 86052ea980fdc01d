//! An unrolled `while` loop whose head state comes round again stops unrolling.
//!
//! **Trigger:** a `while` loop unrolled exactly (its condition known true at each head) reaches
//! a head state equal to one it already started a pass from.
//!
//! **Effect:** unrolling stops there: the loop leaves only through what its passes so far
//! recorded (a `break`, a `return`, an exception); normal exit is unreachable.
//!
//! **Why:** from an equal state every later pass repeats one already run — same values, same
//! findings, same ways out — so running them (up to the unrolling limit) only spent the budget.
//! A spinner's `while True:` generator cycling through four characters, built by every call of
//! a download helper, cost a test file its whole budget.
//!
//! ```python
//! def spinner(chars):
//!     index = 0
//!     while True:               # heads: index 0, 1, 2, 3, 0 → stops after four passes
//!         show(chars[index])
//!         yield
//!         index = (index + 1) % len(chars)
//! ```
//!
//! Only the last [`WINDOW`] heads are kept: a longer cycle runs to the unrolling limit, as
//! before this rule; comparing every head with all earlier ones cost a tenth of the analysis of
//! test files whose loops unroll a hundred passes that never repeat.

use super::state::State;

/// Heads kept (see the module doc).
const WINDOW: usize = 16;

/// The head states an unrolled loop has started its last passes from.
#[derive(Default)]
pub(super) struct Heads(std::collections::VecDeque<State>);

impl Heads {
    pub(super) fn new(first: &State) -> Heads {
        Heads(std::collections::VecDeque::from([first.clone()]))
    }

    /// Record `head`; true when an earlier pass already started from an equal state.
    pub(super) fn repeats(&mut self, head: &State) -> bool {
        if self.0.iter().any(|h| h == head) {
            return true;
        }
        if self.0.len() == WINDOW {
            self.0.pop_front();
        }
        self.0.push_back(head.clone());
        false
    }
}
