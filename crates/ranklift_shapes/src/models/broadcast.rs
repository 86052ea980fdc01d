//! Broadcasting of element-wise operations (`a + b`, ufuncs): NumPy's rules.
//!
//! **Trigger:** any element-wise binary operation. **Finding:** W502 when two dimensions differ and
//! neither is 1 — certain for known sizes, possible when a symbolic or unknown size is involved.
//! Unlike Pytropos, a dimension compared with 1 is kept (`(k,) + (1,)` is `(k,)`, not `(1,)`).
//!
//! ```python
//! np.zeros((2, 3)) + np.zeros((3,))    # (2,3)
//! np.zeros((2, 3)) + np.zeros((3, 2))  # W502 operands could not be broadcast together with shapes (2,3) (3,2)
//! ```
use crate::{Dim, Outcome, Shape, Tri};

pub fn broadcast(a: &Shape, b: &Shape) -> Outcome {
    let (Some(x), Some(y)) = (a.dims(), b.dims()) else {
        return Outcome::ok(Shape::AnyRank);
    };
    let n = x.len().max(y.len());
    let mut out = Vec::with_capacity(n);
    let mut possible: Option<String> = None;
    for i in 0..n {
        let dx = (i + x.len()).checked_sub(n).map(|j| &x[j]);
        let dy = (i + y.len()).checked_sub(n).map(|j| &y[j]);
        let d = match (dx, dy) {
            (Some(p), None) | (None, Some(p)) => p.clone(),
            (Some(p), Some(q)) => match (p.same(q), p.is_one(), q.is_one()) {
                (Tri::Yes, _, _) => p.clone(),
                (_, Tri::Yes, _) => q.clone(),
                (_, _, Tri::Yes) => p.clone(),
                (Tri::No, Tri::No, Tri::No) => {
                    return Outcome::certain("W502", message(a, b));
                }
                _ => {
                    possible.get_or_insert_with(|| {
                        p.why_unknown()
                            .or_else(|| q.why_unknown())
                            .unwrap_or_default()
                    });
                    // Both sides agree or one is 1: whichever is known (other than 1) wins.
                    match (p.known(), q.known()) {
                        (Some(k), _) if k != 1 => Dim::Known(k),
                        (_, Some(k)) if k != 1 => Dim::Known(k),
                        _ => Dim::Unknown,
                    }
                }
            },
            (None, None) => unreachable!("i < max(len)"),
        };
        out.push(d);
    }
    let shape = Shape::Known(out);
    match possible {
        Some(reason) => Outcome::possible(shape, "W502", message(a, b), reason),
        None => Outcome::ok(shape),
    }
}

fn message(a: &Shape, b: &Shape) -> String {
    format!("operands could not be broadcast together with shapes {a} {b}")
}
