//! A call that ran out of its budget once is not run again on the same arguments.
//!
//! **Trigger:** a function nobody calls (a test) calls into another module, and that call —
//! the same function on equal arguments — already ran out of its own budget
//! (`FOREIGN_CALL_FUEL`) earlier in the same entry.
//!
//! **Effect:** the call is not run again: its result is unknown and what it was given may have
//! changed (as after the first, cut, run); coverage names the cut budget at the call.
//!
//! **Why:** the second run would stop at the same point and learn nothing new, while a test
//! file whose every test calls one deep library routine (a progress spinner, a version parser)
//! spent its whole budget on those repeats and never reached its later tests.
//!
//! ```python
//! def test_a():
//!     download_file(URL)  # runs until its budget is spent, then unknown
//!
//! def test_b():
//!     download_file(URL)  # the same call: not run again, unknown at once
//!     np.ones((2, 3)) @ np.ones((4, 5))  # reached, and reported
//! ```

use ruff_text_size::TextRange;

use super::call::Args;
use super::state::State;
use super::value::{Addr, Value};
use super::{Interp, MemoKey};

impl Interp<'_> {
    /// The call from the entry's uncalled code into module `module` ran out of its budget
    /// before on the same key: treat it as cut again (unknown result, what it was given
    /// escapes) without running it.
    pub(super) fn skip_cut_call(
        &mut self,
        key: &MemoKey,
        module: u32,
        receiver: Option<Addr>,
        args: &Args,
        range: TextRange,
        st: &mut State,
    ) -> Option<Value> {
        let foreign = self.uncalled && self.cur_module == 0 && module != 0;
        if !foreign || !self.cut_calls.contains(key) {
            return None;
        }
        self.coverage
            .cause(super::coverage::CALL_BUDGET, self.cur_module, range);
        if let Some(a) = receiver {
            self.escape_value(&Value::Instance(a), st);
        }
        self.escape(args, st);
        Some(Value::Top)
    }
}
