//! `np.fft`: transforms keep or change the transformed axes' lengths (`n`, `s`, real halves),
//! and the sample-frequency helpers.

use super::*;
/// The `n` of an FFT (`None`: the axis' own length; `Err`: unknown).
pub(super) fn fft_n(args: &Args) -> Result<Option<u64>, ()> {
    match args.get(1, "n") {
        None | Some(Value::None) => Ok(None),
        v => const_int(v)
            .and_then(|n| u64::try_from(n).ok())
            .map(Some)
            .ok_or(()),
    }
}

/// `np.fft.fft(a, n=None, axis=-1)` / `ifft`: the last axis becomes `n` (when given).
pub(super) fn fft(i: &mut Interp<'_>, args: &Args, _: TextRange, st: &mut State) -> Value {
    let Some(a) = i.arg_shape(args.pos.first(), st) else {
        return Value::Top;
    };
    if args.get(2, "axis").is_some() || args.kw.iter().any(|(k, _)| &**k != "n" && &**k != "norm") {
        return Value::Array(Shape::AnyRank);
    }
    match (fft_n(args), a.dims()) {
        (Ok(None), _) => Value::Array(a),
        (Ok(Some(n)), Some(d)) if !d.is_empty() => {
            let mut d = d.to_vec();
            *d.last_mut().expect("non-empty") = Dim::Known(n);
            Value::Array(Shape::Known(d))
        }
        _ => Value::Array(Shape::AnyRank),
    }
}

/// `np.fft.rfft(a, n=None)`: the last axis becomes `n // 2 + 1`.
pub(super) fn rfft(i: &mut Interp<'_>, args: &Args, _: TextRange, st: &mut State) -> Value {
    let Some(a) = i.arg_shape(args.pos.first(), st) else {
        return Value::Top;
    };
    if args.get(2, "axis").is_some() {
        return Value::Array(Shape::AnyRank);
    }
    let Some(d) = a.dims().filter(|d| !d.is_empty()) else {
        return Value::Array(Shape::AnyRank);
    };
    let n = match fft_n(args) {
        Ok(Some(n)) => Some(n),
        Ok(None) => d[d.len() - 1].known(),
        Err(()) => None,
    };
    let mut d = d.to_vec();
    *d.last_mut().expect("non-empty") = n.map_or(Dim::Unknown, |n| Dim::Known(n / 2 + 1));
    Value::Array(Shape::Known(d))
}

/// The n-dimensional and inverse real FFTs (`models/fft_nd.rs`): `a`'s shape mapped by `f`;
/// with `s`, `n`, `axes` or `axis` given, an array of unknown shape.
pub(super) fn fft_nd(
    i: &mut Interp<'_>,
    args: &Args,
    st: &mut State,
    f: impl Fn(&Shape) -> Shape,
) -> Value {
    let Some(a) = i.arg_shape(args.pos.first(), st) else {
        return Value::Top;
    };
    if args.pos.len() > 1 || args.kw.iter().any(|(k, _)| &**k != "norm") {
        return Value::Array(Shape::AnyRank);
    }
    Value::Array(f(&a))
}

pub(super) fn fft_same(i: &mut Interp<'_>, args: &Args, _: TextRange, st: &mut State) -> Value {
    fft_nd(i, args, st, Shape::clone)
}

pub(super) fn fft_real(i: &mut Interp<'_>, args: &Args, _: TextRange, st: &mut State) -> Value {
    fft_nd(i, args, st, crate::models::fft_nd::rfftn)
}

pub(super) fn fft_inverse_real(
    i: &mut Interp<'_>,
    args: &Args,
    _: TextRange,
    st: &mut State,
) -> Value {
    fft_nd(i, args, st, crate::models::fft_nd::irfftn)
}

/// `np.fft.rfftfreq(n, d=1.0)`.
pub(super) fn rfftfreq(_: &mut Interp<'_>, args: &Args, _: TextRange, _: &mut State) -> Value {
    match const_int(args.get(0, "n")).and_then(|n| u64::try_from(n).ok()) {
        Some(n) => Value::Array(crate::models::fft_nd::rfftfreq(n)),
        None => Value::Array(Shape::Known(vec![Dim::Unknown])),
    }
}

/// `np.fft.fftfreq(n, d=1.0)`: `n` frequencies.
pub(super) fn fftfreq(_: &mut Interp<'_>, args: &Args, _: TextRange, _: &mut State) -> Value {
    match args.get(0, "n") {
        Some(Value::Int(n)) => Value::Array(Shape::Known(vec![n.as_dim()])),
        _ => Value::Top,
    }
}
