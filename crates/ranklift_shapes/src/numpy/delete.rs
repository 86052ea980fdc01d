//! Library model: `np.delete(arr, obj, axis=None)`.
//!
//! **Trigger:** a call on an array of known rank, `obj` an int or a list or tuple of known ints.
//!
//! **Result:** along `axis`, the size shrinks by the number of distinct positions deleted (an
//! int: one); without `axis`, a 1-d array of the flattened size less those. A position out of
//! range is NumPy's IndexError (W510, `index 5 is out of bounds for axis 1 with size 4`), an
//! axis out of range its AxisError (W507). A slice, a boolean mask or an unknown `obj` leaves
//! that axis's size unknown (the rank stays).
//!
//! **Why:** code drops a column or a sample with it (`np.delete(X, j, axis=1)` in feature
//! selection, leave-one-out loops): left unknown, everything computed from the rest was too
//! (in 30 of the NumPy packages swept).
//!
//! ```python
//! X = np.ones((10, 4))
//! np.delete(X, [0, 2], axis=1)   # (10, 2)
//! np.delete(X, 4, axis=1)        # W510: index 4 is out of bounds for axis 1 with size 4
//! ```
use super::*;

/// The distinct positions `obj` names, when known (`None`: a slice, a mask, unknown).
fn positions(obj: Option<&Value>, st: &State) -> Option<Vec<i64>> {
    match obj? {
        Value::Int(i) => Some(vec![i.constant()?]),
        v @ (Value::List(_) | Value::Tuple(_)) => st
            .exact_items(v)?
            .iter()
            .map(|x| match x {
                Value::Int(i) => i.constant(),
                _ => None,
            })
            .collect(),
        _ => None,
    }
}

pub(super) fn delete(i: &mut Interp<'_>, args: &Args, range: TextRange, st: &mut State) -> Value {
    let Some(shape) = i.arg_shape(args.get(0, "arr"), st) else {
        return Value::Top;
    };
    let Some(dims) = shape.dims() else {
        return Value::Array(Shape::AnyRank);
    };
    let (mut dims, axis) = match args.get(2, "axis") {
        None | Some(Value::None) => {
            let total = dims.iter().try_fold(1u64, |acc, d| Some(acc * d.known()?));
            (vec![total.map_or(Dim::Unknown, Dim::Known)], 0)
        }
        v => match const_int(v) {
            Some(a) => match models::normalize_axis(a, dims.len()) {
                Ok(a) => (dims.to_vec(), a),
                Err(e) => return i.outcome(range, Outcome::certain("W507", e)),
            },
            None => return Value::Array(Shape::Known(vec![Dim::Unknown; dims.len()])),
        },
    };
    let n = dims[axis].known();
    dims[axis] = match (positions(args.get(1, "obj"), st), n) {
        (Some(ps), Some(n)) => {
            let n = n as i64;
            if let Some(p) = ps.iter().find(|p| **p >= n || **p < -n) {
                return i.outcome(
                    range,
                    Outcome::certain(
                        "W510",
                        format!("index {p} is out of bounds for axis {axis} with size {n}"),
                    ),
                );
            }
            let mut distinct: Vec<i64> = ps.iter().map(|p| p.rem_euclid(n)).collect();
            distinct.sort_unstable();
            distinct.dedup();
            Dim::Known((n - distinct.len() as i64) as u64)
        }
        _ => Dim::Unknown,
    };
    Value::Array(Shape::Known(dims))
}
