//! `x[idx] = value` on a tensor: the value is expanded to the selection's shape.
//!
//! **Trigger:** an assignment through basic indexing (ints, slices, `None`, `...`) of a tensor,
//! the value a tensor. **Finding:** PyTorch's `expand` error when a dim of the value is neither
//! 1 nor the selection's (W522, checked from the last dim backwards, as `expand` does):
//!
//! ```python
//! predictions = torch.zeros(3, 7, 50)
//! predictions[:2, 1, :] = torch.zeros(2, 51)  # W522 The expanded size of the tensor (50) must match the existing size (51) at non-singleton dimension 1.  Target sizes: [2, 50].  Tensor sizes: [2, 51]
//! ```
//!
//! Why: a decoder writes each step's output into a preallocated tensor
//! (`predictions[:, t, :] = preds`); when the head's size drifts from the buffer's, the first
//! step fails there. A value of higher rank (torch's message names its dtype, not tracked), an
//! index array, or an unknown size is left to run time, never an error.

use super::list;
use crate::{Dim, Tri};

/// PyTorch's message when `value` cannot be expanded to `target`, or `None`.
pub fn error(value: &[Dim], target: &[Dim]) -> Option<String> {
    let mut v = value;
    while v.len() > target.len() && v[0] == Dim::Known(1) {
        v = &v[1..];
    }
    if v.len() > target.len() {
        return None;
    }
    for (k, (dv, dt)) in v.iter().rev().zip(target.iter().rev()).enumerate() {
        if dv.is_one() == Tri::No && dv.same(dt) == Tri::No {
            return Some(format!(
                "The expanded size of the tensor ({dt}) must match the existing size ({dv}) at non-singleton dimension {}.  Target sizes: {}.  Tensor sizes: {}",
                target.len() - 1 - k,
                list(target),
                list(value)
            ));
        }
    }
    None
}
