//! Reductions: `sum`, `mean`, `max`, `min`, `prod`, `argmax`, ... with `axis` and `keepdims`.
//!
//! **Finding:** W507 when an axis is out of bounds (`AxisError`). The reduced dimensions are
//! removed, or kept as 1 with `keepdims=True`; no axis reduces everything.
//!
//! ```python
//! np.zeros((2, 3)).sum(axis=1)                 # (2,)
//! np.zeros((2, 3)).mean(axis=0, keepdims=True)  # (1,3)
//! np.zeros((2, 3)).sum(axis=2)                 # W507 axis 2 is out of bounds for array of dimension 2
//! ```
use crate::models::normalize_axis;
use crate::{Dim, Outcome, Shape};

pub fn reduce(a: &Shape, axes: Option<&[i64]>, keepdims: bool) -> Outcome {
    let Some(d) = a.dims() else {
        return Outcome::ok(Shape::AnyRank);
    };
    let mut reduced = vec![axes.is_none(); d.len()];
    for &ax in axes.unwrap_or(&[]) {
        match normalize_axis(ax, d.len()) {
            Ok(i) if reduced[i] => {
                return Outcome::certain("W507", "duplicate value in 'axis'".to_owned());
            }
            Ok(i) => reduced[i] = true,
            Err(m) => return Outcome::certain("W507", m),
        }
    }
    let out: Vec<Dim> = d
        .iter()
        .zip(&reduced)
        .filter_map(|(x, &r)| match (r, keepdims) {
            (false, _) => Some(x.clone()),
            (true, true) => Some(Dim::Known(1)),
            (true, false) => None,
        })
        .collect();
    Outcome::ok(Shape::Known(out))
}
