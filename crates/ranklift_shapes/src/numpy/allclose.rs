//! Library model: `np.allclose(a, b)` / `np.array_equal(a, b)` / `np.array_equiv(a, b)`.
//!
//! **Trigger:** a call with two operands of known shape (`allclose`'s tolerances aside).
//!
//! **Result:** a bool. `allclose` broadcasts its operands as `isclose` does: shapes that cannot
//! be broadcast together are NumPy's ValueError (W502); `array_equal` and `array_equiv` answer
//! `False` instead of raising, so nothing is reported for them.
//!
//! **Why:** convergence tests and assertions use it (`if np.allclose(new, old): break`): left
//! unknown, its result was a value of any type, and the comparison of arrays a program had
//! mixed up went unchecked (in 41 of the NumPy packages swept).
//!
//! ```python
//! np.allclose(np.ones(3), np.ones((2, 3)))   # True: broadcast
//! np.allclose(np.ones(3), np.ones(4))        # W502: shapes (3,) (4,)
//! ```
use super::*;

pub(super) fn allclose(i: &mut Interp<'_>, args: &Args, range: TextRange, st: &mut State) -> Value {
    if let (Some(a), Some(b)) = (
        i.arg_shape(args.get(0, "a"), st),
        i.arg_shape(args.get(1, "b"), st),
    ) {
        let _ = i.outcome(range, models::broadcast::broadcast(&a, &b));
    }
    Value::Bool(None)
}

pub(super) fn array_equal(_: &mut Interp<'_>, _: &Args, _: TextRange, _: &mut State) -> Value {
    Value::Bool(None)
}
