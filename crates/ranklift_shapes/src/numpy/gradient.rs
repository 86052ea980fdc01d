//! Library model: `np.gradient(f, *varargs, axis=None, edge_order=1)`.
//!
//! **Trigger:** a 1-d `f`, or an `f` of known rank with one `axis` given as an int.
//!
//! **Result:** an array of `f`'s shape (NumPy returns one array then; over several axes it
//! returns one per axis, left unknown here). An axis shorter than `edge_order + 1` is NumPy's
//! ValueError, not reported.
//!
//! **Why:** curves' tangents and finite-difference derivatives come from it
//! (`np.gradient(points, axis=0)`): left unknown, so was everything built from them.
//!
//! ```python
//! np.gradient(np.ones((6, 3)), axis=0)   # (6, 3)
//! ```
use super::*;

pub(super) fn gradient(i: &mut Interp<'_>, args: &Args, _: TextRange, st: &mut State) -> Value {
    let Some(f) = i.arg_shape(args.get(0, "f"), st) else {
        return Value::Top;
    };
    let one_axis = match args.kw("axis") {
        None | Some(Value::None) => f.rank() == Some(1),
        Some(Value::Int(_)) => true,
        Some(_) => false,
    };
    if one_axis && !args.unknown {
        Value::Array(f)
    } else {
        Value::Top
    }
}
