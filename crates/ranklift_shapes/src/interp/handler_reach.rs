//! Language model: how certain an error inside an `except` handler is.
//!
//! **Trigger:** an error the analysis is certain of, found while running an `except` handler
//! whose `try` body may have ended normally — nothing in it raised for certain (a body that
//! always raises enters its handler for certain, and its errors stay certain).
//!
//! **Result:** the finding is *possible* ("inside an `except` handler ..."), shown with
//! `--possible`, not by default.
//!
//! **Why:** a handler runs with the state the body started from, since any point of the body may
//! have raised; a handler written for the other case of a value is then run with the case the
//! body handled. `try: f = x[:, 0] ... except IndexError: f = x[0] ...` is written for a 1-d
//! `x`: with a 2-d `x` the body cannot raise `IndexError`, and the handler's arithmetic on that
//! `x` is an error that never happens — a false alarm on a real benchmark suite's objective
//! functions. An `if` of an undecided condition is different: either branch may run.
//!
//! ```python
//! def first(x):
//!     try:
//!         return x[:, 0] ** 2 + x[:, 1:].sum(-1)
//!     except IndexError:                  # runs only for a 1-d x
//!         return x[0] ** 2 + x[1:].sum(-1)
//!
//! first(np.ones((3, 5)))   # no finding in the handler (with --possible: a possible one)
//! first(np.ones(5))        # the body raises for certain: the handler runs, checked as usual
//! ```
use super::{Exc, Interp};
use crate::Certainty;

impl Interp<'_> {
    /// `certainty` of an error found now, inside an `except` handler the body may not have
    /// entered (see the module doc).
    pub(crate) fn in_handler_certainty(&self, certainty: Certainty, exc: Exc) -> Certainty {
        if self.in_handler > 0 && certainty == Certainty::Certain && exc != Exc::Hint {
            Certainty::Possible(
                "inside an `except` handler that runs only if its `try` body failed, which the \
                 analysis did not see happen"
                    .into(),
            )
        } else {
            certainty
        }
    }
}
