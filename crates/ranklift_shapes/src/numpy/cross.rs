//! Library model: `np.cross(a, b)` — cross products of 2- and 3-vectors along the last axis.
//!
//! **Trigger:** a call with two arrays of known rank and no `axis`/`axisa`/`axisb`/`axisc`.
//!
//! **Result:** the leading axes broadcast together — when they cannot, NumPy's ValueError (W502,
//! `shape mismatch: objects cannot be broadcast to a single shape.  Mismatch is between arg 0
//! with shape (4,) and arg 1 with shape (5,).`, the leading shapes); then a last axis of 3, or
//! none when both vectors have 2 components (the z-component alone). A last axis of another
//! length (NumPy's "incompatible dimensions") or an unknown one gives an array of unknown shape.
//!
//! **Why:** rotation and geometry code is made of it (`np.cross(axis, v)` per point): left
//! unknown, every frame built from a cross product was too (in 14 of the NumPy packages swept).
//!
//! ```python
//! np.cross(np.ones((4, 3)), np.ones(3))        # (4, 3)
//! np.cross(np.ones((5, 2)), np.ones(2))        # (5,)
//! np.cross(np.ones((4, 3)), np.ones((5, 3)))   # W502: leading shapes (4,) and (5,)
//! ```
use super::*;

pub(super) fn cross(i: &mut Interp<'_>, args: &Args, range: TextRange, st: &mut State) -> Value {
    let axis_given = args
        .kw
        .iter()
        .any(|(k, _)| matches!(&**k, "axisa" | "axisb" | "axisc" | "axis"));
    if axis_given || args.pos.len() > 2 {
        return Value::Array(Shape::AnyRank);
    }
    let (Some(a), Some(b)) = (
        i.arg_shape(args.get(0, "a"), st),
        i.arg_shape(args.get(1, "b"), st),
    ) else {
        return Value::Top;
    };
    let (Some([lead_a @ .., la]), Some([lead_b @ .., lb])) = (a.dims(), b.dims()) else {
        return Value::Array(Shape::AnyRank);
    };
    let (Some(la), Some(lb)) = (la.known(), lb.known()) else {
        return Value::Array(Shape::AnyRank);
    };
    if !matches!(la, 2 | 3) || !matches!(lb, 2 | 3) {
        return Value::Array(Shape::AnyRank);
    }
    let lead = models::broadcast_to::broadcast_pair(
        &Shape::Known(lead_a.to_vec()),
        &Shape::Known(lead_b.to_vec()),
    );
    match i.outcome(range, lead) {
        Value::Array(Shape::Known(mut d)) => {
            if la == 3 || lb == 3 {
                d.push(Dim::Known(3));
            }
            Value::Array(Shape::Known(d))
        }
        other => other,
    }
}
