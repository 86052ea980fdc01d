//! `np.matmul(a, b)` / `a @ b`: the gufunc `(n?,k),(k,m?)->(n?,m?)` with broadcast batch dimensions.
//!
//! **Finding:** W504 when an operand is 0-D, when the core dimensions differ, or when the batch
//! dimensions cannot be broadcast; certain for known sizes, possible with symbolic ones.
//!
//! ```python
//! np.zeros((2, 3)) @ np.zeros((4, 5))  # W504 matmul: Input operand 1 has a mismatch in its core dimension 0, ...
//! np.zeros((5, 2, 3)) @ np.zeros((3,))  # (5,2)
//! ```
use crate::models::broadcast::broadcast;
use crate::{Certainty, Dim, Outcome, Shape, Tri};

const SIG: &str = "(n?,k),(k,m?)->(n?,m?)";

pub fn matmul(a: &Shape, b: &Shape) -> Outcome {
    let (Some(x), Some(y)) = (a.dims(), b.dims()) else {
        return Outcome::ok(Shape::AnyRank);
    };
    for (i, d) in [x, y].iter().enumerate() {
        if d.is_empty() {
            return Outcome::certain(
                "W504",
                format!(
                    "matmul: Input operand {i} does not have enough dimensions (has 0, gufunc core with signature {SIG} requires 1)"
                ),
            );
        }
    }
    let k_a = &x[x.len() - 1];
    let k_b = if y.len() == 1 { &y[0] } else { &y[y.len() - 2] };
    let mismatch = || {
        format!(
            "matmul: Input operand 1 has a mismatch in its core dimension 0, with gufunc signature {SIG} (size {k_b} is different from {k_a})"
        )
    };
    let mut possible: Option<String> = None;
    match k_a.same(k_b) {
        Tri::No => return Outcome::certain("W504", mismatch()),
        Tri::Maybe => possible = k_a.why_unknown().or_else(|| k_b.why_unknown()),
        Tri::Yes => {}
    }
    // Batch dimensions broadcast; core dimensions n (if a is 2-D+) and m (if b is 2-D+) follow.
    let batch_a = Shape::Known(x[..x.len().saturating_sub(2)].to_vec());
    let batch_b = Shape::Known(y[..y.len().saturating_sub(2)].to_vec());
    let batch = broadcast(&batch_a, &batch_b);
    let mut out: Vec<Dim> = match (&batch.shape, &batch.error) {
        (_, Some(e)) if e.certainty == Certainty::Certain => {
            return Outcome::certain(
                "W504",
                format!(
                    "matmul: batch dimensions {batch_a} and {batch_b} cannot be broadcast together"
                ),
            );
        }
        (s, e) => {
            if let Some(e) = e
                && let Certainty::Possible(r) = &e.certainty
            {
                possible.get_or_insert(r.clone());
            }
            s.dims().map(<[Dim]>::to_vec).unwrap_or_default()
        }
    };
    if x.len() >= 2 {
        out.push(x[x.len() - 2].clone());
    }
    if y.len() >= 2 {
        out.push(y[y.len() - 1].clone());
    }
    let shape = Shape::Known(out);
    match possible {
        Some(reason) => Outcome::possible(shape, "W504", mismatch(), reason),
        None => Outcome::ok(shape),
    }
}
