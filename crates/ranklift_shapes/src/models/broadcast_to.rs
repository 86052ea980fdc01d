//! `np.broadcast_to(a, shape)` and `np.broadcast_arrays(a, b)`: broadcasting with NumPy's own
//! messages for these two functions.
//!
//! **Finding:** W502 when a dimension differs and is not 1 (certain for known sizes; possible
//! with symbolic ones). `broadcast_to` only stretches `a`: the target must have at least `a`'s
//! rank, and each of `a`'s dimensions must equal the target's or be 1.
//!
//! ```python
//! np.broadcast_to(np.zeros((3, 1)), (3, 4))           # (3, 4)
//! np.broadcast_to(np.zeros((3, 2)), (3, 4))           # W502 operands could not be broadcast together with remapped shapes [original->remapped]: (3,2)  and requested shape (3,4)
//! np.broadcast_arrays(np.zeros((3, 2)), np.zeros(4))  # W502 shape mismatch: objects cannot be broadcast to a single shape.  Mismatch is between arg 0 with shape (3, 2) and arg 1 with shape (4,).
//! ```
use crate::{Outcome, Shape, Tri};

/// Python's tuple repr of a shape: `(3, 2)`, `(4,)`.
fn py_tuple(s: &Shape) -> String {
    match s.dims() {
        Some([d]) => format!("({d},)"),
        Some(d) => format!(
            "({})",
            d.iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        ),
        None => "(...)".to_owned(),
    }
}

pub fn broadcast_to(a: &Shape, target: &Shape) -> Outcome {
    let (Some(x), Some(t)) = (a.dims(), target.dims()) else {
        return Outcome::ok(target.clone());
    };
    let message = || {
        format!(
            "operands could not be broadcast together with remapped shapes [original->remapped]: {a}  and requested shape {target}"
        )
    };
    if x.len() > t.len() {
        return Outcome::certain("W502", message());
    }
    let mut possible = None;
    for (p, q) in x.iter().rev().zip(t.iter().rev()) {
        match (p.same(q), p.is_one()) {
            (Tri::Yes, _) | (_, Tri::Yes) => {}
            (Tri::No, Tri::No) => return Outcome::certain("W502", message()),
            _ => {
                possible.get_or_insert_with(|| {
                    p.why_unknown()
                        .or_else(|| q.why_unknown())
                        .unwrap_or_default()
                });
            }
        }
    }
    match possible {
        Some(reason) => Outcome::possible(target.clone(), "W502", message(), reason),
        None => Outcome::ok(target.clone()),
    }
}

/// Two arrays broadcast against each other; the shape both results have.
pub fn broadcast_pair(a: &Shape, b: &Shape) -> Outcome {
    let o = super::broadcast::broadcast(a, b);
    match o.error {
        Some(e) => Outcome {
            shape: o.shape,
            error: Some(crate::ShapeError {
                message: format!(
                    "shape mismatch: objects cannot be broadcast to a single shape.  Mismatch is between arg 0 with shape {} and arg 1 with shape {}.",
                    py_tuple(a),
                    py_tuple(b)
                ),
                ..e
            }),
        },
        None => o,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // Expected messages: NumPy 2.2.6 (`/tmp` probe of these calls; 1.24.3 says the same).
    #[test]
    fn messages_are_numpys() {
        let e = broadcast_to(&Shape::of(&[3, 2]), &Shape::of(&[3, 4]))
            .error
            .unwrap();
        assert_eq!(
            e.message,
            "operands could not be broadcast together with remapped shapes [original->remapped]: (3,2)  and requested shape (3,4)"
        );
        assert_eq!(
            broadcast_to(&Shape::of(&[3, 1]), &Shape::of(&[3, 4])).shape,
            Shape::of(&[3, 4])
        );
        let e = broadcast_pair(&Shape::of(&[3, 2]), &Shape::of(&[4]))
            .error
            .unwrap();
        assert_eq!(
            e.message,
            "shape mismatch: objects cannot be broadcast to a single shape.  Mismatch is between arg 0 with shape (3, 2) and arg 1 with shape (4,)."
        );
    }
}
