//! `np.r_[...]` and `np.c_[...]`: concatenation written as indexing (Modern Robotics builds every
//! transform with `np.r_[np.c_[R, p], [[0, 0, 0, 1]]]`); `np.mgrid[...]` / `np.ogrid[...]`: a
//! grid written as indexing (`y, x = np.mgrid[0:h, 0:w]` is two `(h, w)` arrays; `ogrid` gives
//! `(h, 1)` and `(1, w)`).
//!
//! **Trigger:** a subscript of `np.r_` / `np.c_` whose items are arrays, nested lists, numbers or
//! slices (a string directive such as `np.r_['0,2', ...]` gives an unknown result). **Rule:**
//! `r_` makes each item at least 1-d (a number is `(1,)`, `a:b` is `arange(a, b)`) and
//! concatenates along axis 0; `c_` makes each item at least 2-d with a 1-d item as a column
//! (`(n,)` → `(n, 1)`) and concatenates along the last axis. **Finding:** the concatenation's
//! (W506), which is what NumPy raises: both call `np.concatenate`.
//!
//! ```python
//! np.c_[np.eye(3), np.zeros(3)]                          # (3, 4)
//! np.r_[np.c_[np.eye(3), np.zeros(3)], [[0, 0, 0, 1]]]   # (4, 4)
//! np.r_[np.c_[np.eye(3), np.zeros(3)], [[0, 0, 1]]]      # W506 ... along dimension 1, the array at index 0 has size 4 and the array at index 1 has size 3
//! ```
use crate::models::concatenate::concatenate;
use crate::{Dim, Outcome, Shape};

/// `np.r_[items]`, each item's shape given (a number's is `()`).
pub fn r_(items: &[Shape]) -> Outcome {
    let shapes: Vec<Shape> = items
        .iter()
        .map(|s| match s.dims() {
            Some([]) => Shape::Known(vec![Dim::Known(1)]),
            _ => s.clone(),
        })
        .collect();
    concatenate(&shapes, 0)
}

/// `np.c_[items]`.
pub fn c_(items: &[Shape]) -> Outcome {
    let shapes: Vec<Shape> = items
        .iter()
        .map(|s| match s.dims() {
            Some([]) => Shape::Known(vec![Dim::Known(1), Dim::Known(1)]),
            Some([n]) => Shape::Known(vec![n.clone(), Dim::Known(1)]),
            _ => s.clone(),
        })
        .collect();
    concatenate(&shapes, -1)
}

/// `np.mgrid[s1, ..., sk]` (the number of points of each slice given): one `(k, n1, ..., nk)`
/// array, or `(n1,)` for a single slice not in a tuple.
pub fn mgrid(lens: &[Dim], tuple: bool) -> Shape {
    if !tuple && lens.len() == 1 {
        return Shape::Known(lens.to_vec());
    }
    let mut d = vec![Dim::Known(lens.len() as u64)];
    d.extend(lens.iter().cloned());
    Shape::Known(d)
}

/// `np.ogrid[s1, ..., sk]`: k arrays, the i-th of `n_i` points along axis i and 1 elsewhere
/// (`(n1,)` for a single slice not in a tuple).
pub fn ogrid(lens: &[Dim], tuple: bool) -> Vec<Shape> {
    if !tuple && lens.len() == 1 {
        return vec![Shape::Known(lens.to_vec())];
    }
    (0..lens.len())
        .map(|i| {
            Shape::Known(
                (0..lens.len())
                    .map(|j| {
                        if i == j {
                            lens[i].clone()
                        } else {
                            Dim::Known(1)
                        }
                    })
                    .collect(),
            )
        })
        .collect()
}
