//! `np.dot(a, b)` / `a.dot(b)`: NumPy's rules (they differ from `matmul`).
//!
//! **Finding:** W503 when the summed dimensions differ — `a`'s last against `b`'s only (1-D) or
//! second-to-last; certain for known sizes, possible with symbolic ones (`x.dot(x.T)` with
//! `x: (n, m)` is fine: `m` meets `m`).
//!
//! | operands | result |
//! |---|---|
//! | 0-D with X | X (a product) |
//! | 1-D · 1-D | `()` |
//! | N-D · 1-D | `a[:-1]` |
//! | N-D · M-D | `a[:-1] + b[:-2] + b[-1:]` |
//!
//! ```python
//! np.dot(np.zeros((2, 3)), np.zeros((4,)))  # W503 shapes (2,3) and (4,) not aligned: 3 (dim 1) != 4 (dim 0)
//! ```
use crate::{Dim, Outcome, Shape, Tri};

pub fn dot(a: &Shape, b: &Shape) -> Outcome {
    let (Some(x), Some(y)) = (a.dims(), b.dims()) else {
        return Outcome::ok(Shape::AnyRank);
    };
    if x.is_empty() {
        return Outcome::ok(b.clone());
    }
    if y.is_empty() {
        return Outcome::ok(a.clone());
    }
    let i = x.len() - 1;
    let j = if y.len() == 1 { 0 } else { y.len() - 2 };
    let mut out: Vec<Dim> = x[..i].to_vec();
    if y.len() >= 2 {
        out.extend_from_slice(&y[..y.len() - 2]);
        out.push(y[y.len() - 1].clone());
    }
    let shape = Shape::Known(out);
    let message = || {
        format!(
            "shapes {a} and {b} not aligned: {} (dim {i}) != {} (dim {j})",
            x[i], y[j]
        )
    };
    match x[i].same(&y[j]) {
        Tri::Yes => Outcome::ok(shape),
        Tri::No => Outcome::certain("W503", message()),
        Tri::Maybe => {
            let reason = x[i]
                .why_unknown()
                .or_else(|| y[j].why_unknown())
                .unwrap_or_default();
            Outcome::possible(shape, "W503", message(), reason)
        }
    }
}
