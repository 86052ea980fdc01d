//! `np.repeat(a, r, axis)` and `np.tile(a, reps)`: sizes multiplied.
//!
//! **Finding:** none of their own (a bad `axis` is W507 through [`super::normalize_axis`]).
//!
//! | call | result |
//! |---|---|
//! | `repeat(a, r)` | `(a.size * r,)` (flattened) |
//! | `repeat(a, r, axis=k)` | `a` with dimension `k` times `r` |
//! | `tile(a, reps)` | `a` and `reps` padded with leading ones to the same length, multiplied |
//!
//! ```python
//! np.repeat(np.zeros((2, 3)), 2, axis=0)   # (4, 3)
//! np.tile(np.zeros(3), (2, 2))             # (2, 6)
//! ```
use crate::{Dim, Outcome, Shape};

fn times(d: &Dim, r: Option<u64>) -> Dim {
    match (d.known(), r) {
        (Some(n), Some(r)) => Dim::Known(n * r),
        (_, Some(1)) => d.clone(),
        (Some(0), _) => Dim::Known(0),
        _ => Dim::Unknown,
    }
}

/// `repeat` with an integer count `r` (`None`: not known).
pub fn repeat(a: &Shape, r: Option<u64>, axis: Option<i64>) -> Outcome {
    let Some(d) = a.dims() else {
        return Outcome::ok(match axis {
            None => Shape::Known(vec![Dim::Unknown]),
            Some(_) => Shape::AnyRank,
        });
    };
    match axis {
        None => {
            let size = a.size().map_or(Dim::Unknown, Dim::Known);
            Outcome::ok(Shape::Known(vec![times(&size, r)]))
        }
        Some(ax) => match super::normalize_axis(ax, d.len()) {
            Ok(k) => {
                let mut out = d.to_vec();
                out[k] = times(&d[k], r);
                Outcome::ok(Shape::Known(out))
            }
            Err(e) => Outcome::certain("W507", e),
        },
    }
}

/// `tile` with known repetitions (`None` entries: not known).
pub fn tile(a: &Shape, reps: &[Option<u64>]) -> Outcome {
    let Some(d) = a.dims() else {
        return Outcome::ok(Shape::AnyRank);
    };
    let n = d.len().max(reps.len());
    let dims: Vec<Dim> = std::iter::repeat_n(Dim::Known(1), n - d.len())
        .chain(d.iter().cloned())
        .collect();
    let reps: Vec<Option<u64>> = std::iter::repeat_n(Some(1), n - reps.len())
        .chain(reps.iter().copied())
        .collect();
    Outcome::ok(Shape::Known(
        dims.iter().zip(&reps).map(|(d, r)| times(d, *r)).collect(),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    // Expected values: NumPy 2.2.6, `np.repeat`/`np.tile` on zeros of the shapes shown.
    #[test]
    fn shapes_follow_numpy() {
        assert_eq!(
            repeat(&Shape::of(&[2, 3]), Some(2), Some(0)).shape,
            Shape::of(&[4, 3])
        );
        assert_eq!(
            repeat(&Shape::of(&[2, 3]), Some(2), None).shape,
            Shape::of(&[12])
        );
        assert!(
            repeat(&Shape::of(&[2, 3]), Some(2), Some(2))
                .error
                .is_some()
        );
        assert_eq!(
            tile(&Shape::of(&[2, 3]), &[Some(2), Some(1)]).shape,
            Shape::of(&[4, 3])
        );
        assert_eq!(
            tile(&Shape::of(&[2, 3]), &[Some(2)]).shape,
            Shape::of(&[2, 6])
        );
        assert_eq!(
            tile(&Shape::of(&[3]), &[Some(2), Some(2)]).shape,
            Shape::of(&[2, 6])
        );
    }
}
