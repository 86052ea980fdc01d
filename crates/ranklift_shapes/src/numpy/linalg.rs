//! `np.linalg`: the shape rules of `models::linalg` applied to the arguments (square matrices,
//! decompositions' tuples, solvers).

use super::*;

pub(super) fn linalg_arg(i: &Interp<'_>, args: &Args, st: &State) -> Option<Shape> {
    i.arg_shape(args.pos.first(), st)
}

/// `inv`, `cholesky`: square matrices in, the same shape out (W513).
pub(super) fn linalg_square(
    i: &mut Interp<'_>,
    args: &Args,
    range: TextRange,
    st: &mut State,
) -> Value {
    let Some(a) = linalg_arg(i, args, st) else {
        return Value::Top;
    };
    i.outcome(range, models::linalg::square(&a))
}

/// `det`: one number per square matrix.
pub(super) fn linalg_det(
    i: &mut Interp<'_>,
    args: &Args,
    range: TextRange,
    st: &mut State,
) -> Value {
    let Some(a) = linalg_arg(i, args, st) else {
        return Value::Top;
    };
    let o = models::linalg::square(&a);
    let stacked = models::linalg::drop_last(&a, 2);
    match i.outcome(range, o) {
        Value::Array(_) if stacked.rank() == Some(0) => Value::Float(None),
        Value::Array(_) => Value::Array(stacked),
        v => v,
    }
}

/// `eigvals`, `eigvalsh`: one vector of eigenvalues per square matrix.
pub(super) fn linalg_eigvals(
    i: &mut Interp<'_>,
    args: &Args,
    range: TextRange,
    st: &mut State,
) -> Value {
    let Some(a) = linalg_arg(i, args, st) else {
        return Value::Top;
    };
    i.outcome(range, models::linalg::square(&a));
    Value::Array(models::linalg::drop_last(&a, 1))
}

/// `eig`, `eigh`: `(eigenvalues, eigenvectors)`.
pub(super) fn linalg_eig(
    i: &mut Interp<'_>,
    args: &Args,
    range: TextRange,
    st: &mut State,
) -> Value {
    let Some(a) = linalg_arg(i, args, st) else {
        return Value::Top;
    };
    i.outcome(range, models::linalg::square(&a));
    Value::Tuple(Seq::Exact(
        vec![
            Value::Array(models::linalg::drop_last(&a, 1)),
            Value::Array(a),
        ]
        .into(),
    ))
}

pub(super) fn linalg_pinv(
    i: &mut Interp<'_>,
    args: &Args,
    range: TextRange,
    st: &mut State,
) -> Value {
    let Some(a) = linalg_arg(i, args, st) else {
        return Value::Top;
    };
    i.outcome(range, models::linalg::pinv(&a))
}

pub(super) fn tuple_of(shapes: &[Shape]) -> Value {
    Value::Tuple(Seq::Exact(
        shapes
            .iter()
            .cloned()
            .map(Value::Array)
            .collect::<Vec<_>>()
            .into(),
    ))
}

/// `svd(a, full_matrices=True, compute_uv=True)`.
pub(super) fn linalg_svd(
    i: &mut Interp<'_>,
    args: &Args,
    range: TextRange,
    st: &mut State,
) -> Value {
    let Some(a) = linalg_arg(i, args, st) else {
        return Value::Top;
    };
    // Any truthy value selects (`np.linalg.svd(a, 0)` is common in older code).
    let flag = |v: Option<&Value>| v.map_or(Some(true), Value::truth);
    let (full, uv) = (
        flag(args.get(1, "full_matrices")),
        flag(args.get(2, "compute_uv")),
    );
    match models::linalg::svd(&a, full.unwrap_or(true)) {
        Ok(shapes) => match (uv, full) {
            (Some(false), _) => Value::Array(shapes[1].clone()),
            (Some(true), Some(_)) => tuple_of(&shapes),
            _ => Value::Top,
        },
        Err(o) => i.outcome(range, o),
    }
}

/// `qr(a, mode="reduced")`; `mode="r"` gives `r` alone.
pub(super) fn linalg_qr(
    i: &mut Interp<'_>,
    args: &Args,
    range: TextRange,
    st: &mut State,
) -> Value {
    let Some(a) = linalg_arg(i, args, st) else {
        return Value::Top;
    };
    let mode = match args.get(1, "mode") {
        None => Some("reduced"),
        Some(Value::Str(Some(m))) => Some(&**m),
        _ => None,
    };
    match (models::linalg::qr(&a, mode == Some("complete")), mode) {
        (Err(o), _) => i.outcome(range, o),
        (Ok(shapes), Some("reduced" | "complete")) => tuple_of(&shapes),
        (Ok(shapes), Some("r")) => Value::Array(shapes[1].clone()),
        _ => Value::Top,
    }
}

/// `solve(a, b)` (W513 for `a`, W504 for `b`).
pub(super) fn linalg_solve(
    i: &mut Interp<'_>,
    args: &Args,
    range: TextRange,
    st: &mut State,
) -> Value {
    let (Some(a), Some(b)) = (linalg_arg(i, args, st), i.arg_shape(args.get(1, "b"), st)) else {
        return Value::Top;
    };
    i.outcome(range, models::linalg::solve(&a, &b))
}

/// `lstsq(a, b)`: `(x, residuals, rank, singular values)`.
pub(super) fn linalg_lstsq(
    i: &mut Interp<'_>,
    args: &Args,
    range: TextRange,
    st: &mut State,
) -> Value {
    let (Some(a), Some(b)) = (linalg_arg(i, args, st), i.arg_shape(args.get(1, "b"), st)) else {
        return Value::Top;
    };
    match models::linalg::lstsq(&a, &b) {
        Ok([x, res, _, s]) => Value::Tuple(Seq::Exact(
            vec![
                Value::Array(x),
                Value::Array(res),
                Value::Int(Int::Range(Some(0), None)),
                Value::Array(s),
            ]
            .into(),
        )),
        Err(o) => i.outcome(range, o),
    }
}
