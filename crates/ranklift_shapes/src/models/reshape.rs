//! `np.reshape(a, newshape)` / `a.reshape(...)`, including one `-1` that NumPy infers.
//!
//! **Finding:** W505 when the number of elements differs (certain when every size is known), or
//! when more than one dimension is `-1`. With symbolic sizes the result keeps what is known and the
//! check is *possible* (`reshape(-1)` of an `(n, 3)` array is `(?,)`).
//!
//! ```python
//! np.zeros((2, 3)).reshape(-1, 2)  # (3,2)
//! np.zeros((2, 3)).reshape(4)      # W505 cannot reshape array of size 6 into shape (4,)
//! ```
use crate::{Dim, Outcome, Shape};

/// One entry of the requested shape.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NewDim {
    Size(Dim),
    /// `-1`: inferred from the others.
    Infer,
}

pub fn reshape(a: &Shape, new: &[NewDim]) -> Outcome {
    let infer = new.iter().filter(|d| **d == NewDim::Infer).count();
    if infer > 1 {
        return Outcome::certain("W505", "can only specify one unknown dimension".to_owned());
    }
    let known_product: Option<u64> = new.iter().try_fold(1u64, |acc, d| match d {
        NewDim::Size(Dim::Known(k)) => acc.checked_mul(*k),
        NewDim::Infer => Some(acc),
        NewDim::Size(_) => None,
    });
    let message = |size: u64| {
        format!(
            "cannot reshape array of size {size} into shape {}",
            requested(new)
        )
    };
    let dims_out = |inferred: Dim| -> Shape {
        Shape::Known(
            new.iter()
                .map(|d| match d {
                    NewDim::Size(s) => s.clone(),
                    NewDim::Infer => inferred.clone(),
                })
                .collect(),
        )
    };
    match (a.size(), known_product) {
        (Some(size), Some(prod)) => {
            if infer == 1 {
                if prod != 0 && size % prod == 0 {
                    Outcome::ok(dims_out(Dim::Known(size / prod)))
                } else {
                    Outcome::certain("W505", message(size))
                }
            } else if size == prod {
                Outcome::ok(dims_out(Dim::Unknown))
            } else {
                Outcome::certain("W505", message(size))
            }
        }
        // `reshape(-1)` (the other entries multiply to 1) always succeeds.
        (_, Some(1)) if infer == 1 => {
            Outcome::ok(dims_out(a.size().map_or(Dim::Unknown, Dim::Known)))
        }
        // Same symbolic dimensions on both sides (reshape((n, 3)) of an (n, 3) array) are fine.
        _ if infer == 0 && same_multiset(a, new) => Outcome::ok(dims_out(Dim::Unknown)),
        _ => {
            let reason = a
                .dims()
                .and_then(|d| d.iter().find_map(Dim::why_unknown))
                .or_else(|| {
                    new.iter().find_map(|d| {
                        if let NewDim::Size(s) = d {
                            s.why_unknown()
                        } else {
                            None
                        }
                    })
                })
                .unwrap_or_else(|| "the array's rank is unknown".to_owned());
            let shape = dims_out(Dim::Unknown);
            Outcome::possible(
                shape,
                "W505",
                format!(
                    "cannot reshape array of size {} into shape {}",
                    size_text(a),
                    requested(new)
                ),
                reason,
            )
        }
    }
}

fn same_multiset(a: &Shape, new: &[NewDim]) -> bool {
    let Some(d) = a.dims() else { return false };
    let mut left: Vec<&Dim> = d.iter().filter(|x| **x != Dim::Known(1)).collect();
    for n in new {
        let NewDim::Size(s) = n else { return false };
        if *s == Dim::Known(1) {
            continue;
        }
        match left
            .iter()
            .position(|x| *x == s && !matches!(s, Dim::Unknown))
        {
            Some(i) => {
                left.remove(i);
            }
            None => return false,
        }
    }
    left.is_empty()
}

fn size_text(a: &Shape) -> String {
    match a.dims() {
        Some(d) => d
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join("*"),
        None => "?".to_owned(),
    }
}

/// NumPy 1.24's text for the requested shape: entries joined by `,`, a `-1` printed as
/// `newaxis` except in first position, where it is left out (`(-1, 4)` prints `(4)`, `(4, -1)`
/// prints `(4,newaxis)`), and a lone entry as `(7,)`.
fn requested(new: &[NewDim]) -> String {
    let mut parts: Vec<String> = new
        .iter()
        .map(|d| match d {
            NewDim::Size(s) => s.to_string(),
            NewDim::Infer => "newaxis".to_owned(),
        })
        .collect();
    if new.first() == Some(&NewDim::Infer) {
        parts.remove(0);
    }
    if new.len() == 1 && new[0] != NewDim::Infer {
        format!("({},)", parts[0])
    } else {
        format!("({})", parts.join(","))
    }
}
