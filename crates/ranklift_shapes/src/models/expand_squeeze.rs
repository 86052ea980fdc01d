//! `np.expand_dims(a, axis)` and `np.squeeze(a, axis)`.
//!
//! **Finding:** W507 when the axis is out of bounds; W509 when `squeeze` names an axis whose size
//! is not 1 (possible when the size is unknown). `squeeze` without an axis drops the dimensions known
//! to be 1; with unknown dimensions the rank of the result is unknown.
//!
//! ```python
//! np.expand_dims(np.zeros((2, 3)), 0)  # (1,2,3)
//! np.squeeze(np.zeros((2, 3)), axis=0)  # W509 cannot select an axis to squeeze out which has size not equal to one
//! ```
use crate::models::normalize_axis;
use crate::{Dim, Outcome, Shape, Tri};

pub fn expand_dims(a: &Shape, axis: i64) -> Outcome {
    let Some(d) = a.dims() else {
        return Outcome::ok(Shape::AnyRank);
    };
    match normalize_axis(axis, d.len() + 1) {
        Ok(i) => {
            let mut out = d.to_vec();
            out.insert(i, Dim::Known(1));
            Outcome::ok(Shape::Known(out))
        }
        Err(m) => Outcome::certain("W507", m),
    }
}

pub fn squeeze(a: &Shape, axis: Option<i64>) -> Outcome {
    let Some(d) = a.dims() else {
        return Outcome::ok(Shape::AnyRank);
    };
    match axis {
        None => {
            if d.iter().any(|x| x.is_one() == Tri::Maybe) {
                return Outcome::ok(Shape::AnyRank);
            }
            Outcome::ok(Shape::Known(
                d.iter()
                    .filter(|x| x.is_one() == Tri::No)
                    .cloned()
                    .collect(),
            ))
        }
        Some(ax) => {
            let i = match normalize_axis(ax, d.len()) {
                Ok(i) => i,
                Err(m) => return Outcome::certain("W507", m),
            };
            let msg =
                "cannot select an axis to squeeze out which has size not equal to one".to_owned();
            let mut out = d.to_vec();
            out.remove(i);
            match d[i].is_one() {
                Tri::Yes => Outcome::ok(Shape::Known(out)),
                Tri::No => Outcome::certain("W509", msg),
                Tri::Maybe => Outcome::possible(
                    Shape::Known(out),
                    "W509",
                    msg,
                    d[i].why_unknown().unwrap_or_default(),
                ),
            }
        }
    }
}
