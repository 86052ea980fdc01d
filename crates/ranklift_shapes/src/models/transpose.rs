//! `np.transpose(a, axes)` / `a.T` / `a.transpose(...)`.
//!
//! **Finding:** W508 when `axes` does not name every axis exactly once, W507 when an axis is out
//! of bounds. Without `axes` the dimensions are reversed.
//!
//! ```python
//! np.zeros((2, 3, 4)).transpose(2, 0, 1)  # (4,2,3)
//! np.zeros((2, 3)).transpose(1, 1)        # W508 repeated axis in transpose
//! ```
use crate::models::normalize_axis;
use crate::{Outcome, Shape};

pub fn transpose(a: &Shape, axes: Option<&[i64]>) -> Outcome {
    let Some(d) = a.dims() else {
        return Outcome::ok(Shape::AnyRank);
    };
    let Some(axes) = axes else {
        return Outcome::ok(Shape::Known(d.iter().rev().cloned().collect()));
    };
    if axes.len() != d.len() {
        return Outcome::certain("W508", "axes don't match array".to_owned());
    }
    let mut seen = vec![false; d.len()];
    let mut out = Vec::with_capacity(d.len());
    for &ax in axes {
        let i = match normalize_axis(ax, d.len()) {
            Ok(i) => i,
            Err(m) => return Outcome::certain("W507", m),
        };
        if seen[i] {
            return Outcome::certain("W508", "repeated axis in transpose".to_owned());
        }
        seen[i] = true;
        out.push(d[i].clone());
    }
    Outcome::ok(Shape::Known(out))
}
