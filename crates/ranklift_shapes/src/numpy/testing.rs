//! Library model: `np.testing`'s assertions.
//!
//! **Trigger:** `np.testing.assert_allclose(actual, desired)`, `assert_array_equal`,
//! `assert_almost_equal`, `assert_array_almost_equal`, `assert_equal`, `assert_array_less`,
//! `assert_approx_equal`, `assert_array_almost_equal_nulp`, `assert_array_max_ulp`,
//! `assert_string_equal` (also imported from `numpy.testing`).
//!
//! **Result:** `None`; the arrays passed keep what is known of them. (A mismatch is an
//! `AssertionError`, a failed test rather than a shape error: nothing is reported.) The module's
//! other names (`assert_raises`, `suppress_warnings`, ...) are of unknown value.
//!
//! **Why:** tests compare every result with one: as a call the analysis did not know, it was
//! taken to have changed the arrays it was given, and everything a test computed after its
//! first assertion was unknown — the largest cause of unknown values over the NumPy packages
//! swept (in 23 of them).
//!
//! ```python
//! x = np.ones((3, 4))
//! np.testing.assert_allclose(x.sum(axis=0), 3.0)
//! x @ np.ones(3)   # W501, still: x is (3, 4)
//! ```
use super::*;

/// The assertions of `np.testing` modelled here (see the module doc).
pub(super) const ASSERTIONS: &[&str] = &[
    "numpy.testing.assert_allclose",
    "numpy.testing.assert_array_equal",
    "numpy.testing.assert_almost_equal",
    "numpy.testing.assert_array_almost_equal",
    "numpy.testing.assert_equal",
    "numpy.testing.assert_array_less",
    "numpy.testing.assert_approx_equal",
    "numpy.testing.assert_array_almost_equal_nulp",
    "numpy.testing.assert_array_max_ulp",
    "numpy.testing.assert_string_equal",
];

pub(super) fn assertion(_: &mut Interp<'_>, _: &Args, _: TextRange, _: &mut State) -> Value {
    Value::None
}
