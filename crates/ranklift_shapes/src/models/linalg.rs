//! `np.linalg`: what each routine requires of its operands' shapes and what it returns.
//!
//! **Finding:** W513 (`LinAlgError`, a `ValueError`) when a routine needs a matrix and gets a
//! 0-d or 1-d array, or needs square matrices and the last two dimensions are known to differ;
//! W504 for `solve` whose right-hand side does not match (NumPy's gufunc message). Certain for
//! known sizes, possible with symbolic ones.
//!
//! | routine | operand | result |
//! |---|---|---|
//! | `inv`, `cholesky`, `matrix_power` | `(..., m, m)` | the same |
//! | `det` | `(..., m, m)` | `(...)` |
//! | `eigvals`, `eigvalsh` | `(..., m, m)` | `(..., m)` |
//! | `eig`, `eigh` | `(..., m, m)` | `(..., m)`, `(..., m, m)` |
//! | `pinv` | `(..., m, n)` | `(..., n, m)` |
//! | `svd` | `(..., m, n)`, k = min(m, n) | `(..., m, m)`, `(..., k)`, `(..., n, n)`; reduced: `(..., m, k)`, `(..., k)`, `(..., k, n)` |
//! | `qr` | `(m, n)`, k = min(m, n) | reduced: `(m, k)`, `(k, n)`; complete: `(m, m)`, `(m, n)` |
//! | `solve` | `(m, m)` and `(m,)` or `(m, n)` | the right-hand side's shape |
//! | `lstsq` | `(m, n)` and `(m,)` or `(m, k)` | `(n,)` or `(n, k)`, residuals, rank, `(min(m, n),)` |
//!
//! ```python
//! np.linalg.inv(np.zeros((3, 4)))                    # W513 LinAlgError: Last 2 dimensions of the array must be square
//! np.linalg.det(np.zeros(3))                         # W513 LinAlgError: 1-dimensional array given. Array must be at least two-dimensional
//! np.linalg.solve(np.eye(30), np.zeros(5))           # W504 solve1: Input operand 1 has a mismatch in its core dimension 0, ...
//! ```
use crate::{Dim, Outcome, Shape, Tri};

/// The code of `LinAlgError` findings.
pub const LINALG: &str = "W513";

/// A stack of matrices: at least two dimensions.
pub fn matrix(a: &Shape) -> Outcome {
    match a.rank() {
        Some(r) if r < 2 => Outcome::certain(
            LINALG,
            format!("{r}-dimensional array given. Array must be at least two-dimensional"),
        ),
        _ => Outcome::ok(a.clone()),
    }
}

/// A stack of square matrices.
pub fn square(a: &Shape) -> Outcome {
    let o = matrix(a);
    if o.error.is_some() {
        return o;
    }
    let Some(d) = a.dims() else {
        return o;
    };
    let (m, n) = (&d[d.len() - 2], &d[d.len() - 1]);
    let message = "Last 2 dimensions of the array must be square".to_owned();
    match m.same(n) {
        Tri::Yes => o,
        Tri::No => Outcome::certain(LINALG, message),
        Tri::Maybe => {
            let reason = m
                .why_unknown()
                .or_else(|| n.why_unknown())
                .unwrap_or_default();
            Outcome::possible(a.clone(), LINALG, message, reason)
        }
    }
}

/// `a` without its last `k` dimensions (a checked matrix stack: rank ≥ 2).
pub fn drop_last(a: &Shape, k: usize) -> Shape {
    match a.dims() {
        Some(d) if d.len() >= k => Shape::Known(d[..d.len() - k].to_vec()),
        _ => Shape::AnyRank,
    }
}

/// `a` with its last two dimensions replaced.
fn with_last_two(a: &Shape, m: Dim, n: Dim) -> Shape {
    match a.dims() {
        Some(d) if d.len() >= 2 => {
            let mut out = d[..d.len() - 2].to_vec();
            out.push(m);
            out.push(n);
            Shape::Known(out)
        }
        _ => Shape::AnyRank,
    }
}

fn last_two(a: &Shape) -> Option<(Dim, Dim)> {
    let d = a.dims()?;
    (d.len() >= 2).then(|| (d[d.len() - 2].clone(), d[d.len() - 1].clone()))
}

fn min_dim(m: &Dim, n: &Dim) -> Dim {
    match (m.known(), n.known()) {
        (Some(a), Some(b)) => Dim::Known(a.min(b)),
        _ if m == n => m.clone(),
        _ => Dim::Unknown,
    }
}

/// `pinv`: the last two dimensions swapped.
pub fn pinv(a: &Shape) -> Outcome {
    let o = matrix(a);
    if o.error.is_some() {
        return o;
    }
    match last_two(a) {
        Some((m, n)) => Outcome::ok(with_last_two(a, n, m)),
        None => Outcome::ok(Shape::AnyRank),
    }
}

/// `svd`: `(u, s, vh)`, or `s` alone when `compute_uv` is false.
pub fn svd(a: &Shape, full_matrices: bool) -> Result<[Shape; 3], Outcome> {
    let o = matrix(a);
    if o.error.is_some() {
        return Err(o);
    }
    let Some((m, n)) = last_two(a) else {
        return Ok([Shape::AnyRank, Shape::AnyRank, Shape::AnyRank]);
    };
    let k = min_dim(&m, &n);
    let mut s = drop_last(a, 2)
        .dims()
        .map(<[Dim]>::to_vec)
        .unwrap_or_default();
    s.push(k.clone());
    Ok(if full_matrices {
        [
            with_last_two(a, m.clone(), m),
            Shape::Known(s),
            with_last_two(a, n.clone(), n),
        ]
    } else {
        [
            with_last_two(a, m, k.clone()),
            Shape::Known(s),
            with_last_two(a, k, n),
        ]
    })
}

/// `qr`: `(q, r)` (`mode` "reduced" or "complete").
pub fn qr(a: &Shape, complete: bool) -> Result<[Shape; 2], Outcome> {
    let o = matrix(a);
    if o.error.is_some() {
        return Err(o);
    }
    let Some((m, n)) = last_two(a) else {
        return Ok([Shape::AnyRank, Shape::AnyRank]);
    };
    let k = if complete { m.clone() } else { min_dim(&m, &n) };
    Ok([with_last_two(a, m, k.clone()), with_last_two(a, k, n)])
}

/// `solve(a, b)` for a single matrix `a` (m, m): `b` is `(m,)` (NumPy's `solve1`) or `(m, n)`.
pub fn solve(a: &Shape, b: &Shape) -> Outcome {
    let o = square(a);
    if o.error
        .as_ref()
        .is_some_and(|e| e.certainty == crate::Certainty::Certain)
    {
        return o;
    }
    let (Some([m, _]), Some(bd)) = (a.dims(), b.dims()) else {
        return Outcome::ok(b.clone());
    };
    let (name, signature, rhs) = match bd {
        [r] => ("solve1", "(m,m),(m)->(m)", r),
        [r, _] => ("solve", "(m,m),(m,n)->(m,n)", r),
        _ => return Outcome::ok(Shape::AnyRank),
    };
    let message = || {
        format!(
            "{name}: Input operand 1 has a mismatch in its core dimension 0, with gufunc signature {signature} (size {rhs} is different from {m})"
        )
    };
    match rhs.same(m) {
        Tri::Yes => Outcome {
            shape: b.clone(),
            error: o.error,
        },
        Tri::No => Outcome::certain("W504", message()),
        Tri::Maybe => {
            let reason = rhs
                .why_unknown()
                .or_else(|| m.why_unknown())
                .unwrap_or_default();
            Outcome::possible(b.clone(), "W504", message(), reason)
        }
    }
}

/// `lstsq(a, b)`: `(x, residuals, rank, s)`.
pub fn lstsq(a: &Shape, b: &Shape) -> Result<[Shape; 4], Outcome> {
    let o = matrix(a);
    if o.error.is_some() {
        return Err(o);
    }
    let (Some([m, n]), Some(bd)) = (a.dims(), b.dims()) else {
        return Ok([
            Shape::AnyRank,
            Shape::AnyRank,
            Shape::Known(vec![]),
            Shape::AnyRank,
        ]);
    };
    let (rows, cols) = match bd {
        [r] => (r, None),
        [r, k] => (r, Some(k.clone())),
        _ => return Err(Outcome::ok(Shape::AnyRank)),
    };
    if rows.same(m) == Tri::No {
        return Err(Outcome::certain(
            LINALG,
            "Incompatible dimensions".to_owned(),
        ));
    }
    let x = match &cols {
        None => Shape::Known(vec![n.clone()]),
        Some(k) => Shape::Known(vec![n.clone(), k.clone()]),
    };
    Ok([
        x,
        Shape::Known(vec![Dim::Unknown]),
        Shape::Known(vec![]),
        Shape::Known(vec![min_dim(m, n)]),
    ])
}

#[cfg(test)]
mod tests {
    use super::*;

    // Expected values: NumPy 2.2.6 and 1.24.3 (the same for these calls), run on the shapes shown.
    #[test]
    fn square_and_matrix_requirements() {
        let e = square(&Shape::of(&[3, 4])).error.unwrap();
        assert_eq!(e.message, "Last 2 dimensions of the array must be square");
        let e = square(&Shape::of(&[3])).error.unwrap();
        assert_eq!(
            e.message,
            "1-dimensional array given. Array must be at least two-dimensional"
        );
        assert!(square(&Shape::of(&[2, 3, 3])).error.is_none());
    }

    #[test]
    fn decompositions_have_numpys_shapes() {
        // np.linalg.svd(np.zeros((5, 3))) -> (5,5) (3,) (3,3); full_matrices=False -> (5,3) (3,) (3,3)
        assert_eq!(
            svd(&Shape::of(&[5, 3]), true).unwrap(),
            [Shape::of(&[5, 5]), Shape::of(&[3]), Shape::of(&[3, 3])]
        );
        assert_eq!(
            svd(&Shape::of(&[5, 3]), false).unwrap(),
            [Shape::of(&[5, 3]), Shape::of(&[3]), Shape::of(&[3, 3])]
        );
        // np.linalg.qr(np.zeros((5, 3))) -> (5,3) (3,3)
        assert_eq!(
            qr(&Shape::of(&[5, 3]), false).unwrap(),
            [Shape::of(&[5, 3]), Shape::of(&[3, 3])]
        );
        assert_eq!(pinv(&Shape::of(&[5, 3])).shape, Shape::of(&[3, 5]));
    }

    #[test]
    fn solve_checks_the_right_hand_side() {
        let e = solve(&Shape::of(&[30, 30]), &Shape::of(&[5]))
            .error
            .unwrap();
        assert_eq!(
            e.message,
            "solve1: Input operand 1 has a mismatch in its core dimension 0, with gufunc signature (m,m),(m)->(m) (size 5 is different from 30)"
        );
        let e = solve(&Shape::of(&[3, 3]), &Shape::of(&[4, 2]))
            .error
            .unwrap();
        assert!(e.message.starts_with("solve: "), "{}", e.message);
        assert_eq!(
            solve(&Shape::of(&[3, 3]), &Shape::of(&[3, 2])).shape,
            Shape::of(&[3, 2])
        );
        assert!(lstsq(&Shape::of(&[5, 3]), &Shape::of(&[4])).is_err());
    }
}
