//! Sizes multiplied, stretched, differenced and joined: `repeat`, `tile`, `broadcast_to`,
//! `resize`, `diff`, `kron`, `pad`, `einsum` and their kin.

use super::*;

/// `np.repeat(a, repeats, axis=None)` / `a.repeat(...)` (see `models::repeat_tile`).
pub(super) fn repeat(i: &mut Interp<'_>, args: &Args, range: TextRange, st: &mut State) -> Value {
    let Some(a) = i.arg_shape(args.pos.first(), st) else {
        return Value::Top;
    };
    let r = match args.get(1, "repeats") {
        Some(Value::Int(n)) => n.constant().and_then(|c| u64::try_from(c).ok()),
        _ => None,
    };
    match args.get(2, "axis") {
        None | Some(Value::None) => i.outcome(range, models::repeat_tile::repeat(&a, r, None)),
        v => match const_int(v) {
            Some(ax) => i.outcome(range, models::repeat_tile::repeat(&a, r, Some(ax))),
            None => Value::Array(Shape::AnyRank),
        },
    }
}

/// `np.tile(a, reps)`: `reps` an int or a tuple of ints.
pub(super) fn tile(i: &mut Interp<'_>, args: &Args, range: TextRange, st: &mut State) -> Value {
    let Some(a) = i.arg_shape(args.pos.first(), st) else {
        return Value::Top;
    };
    let count = |v: &Value| {
        v.as_int()
            .and_then(|n| n.constant())
            .and_then(|c| u64::try_from(c).ok())
    };
    let reps: Option<Vec<Option<u64>>> = match args.get(1, "reps") {
        Some(v @ Value::Int(_)) => Some(vec![count(v)]),
        Some(Value::Tuple(Seq::Exact(items))) => Some(items.iter().map(count).collect()),
        Some(Value::List(l)) => match st.list(*l) {
            Some(Seq::Exact(items)) => Some(items.iter().map(count).collect()),
            _ => None,
        },
        _ => None,
    };
    match reps {
        Some(reps) => i.outcome(range, models::repeat_tile::tile(&a, &reps)),
        None => Value::Array(Shape::AnyRank),
    }
}

/// `np.broadcast_to(a, shape)` (W502 with its own message).
pub(super) fn broadcast_to(
    i: &mut Interp<'_>,
    args: &Args,
    range: TextRange,
    st: &mut State,
) -> Value {
    let Some(a) = i.arg_shape(args.pos.first(), st) else {
        return Value::Top;
    };
    let Some(target) = args.get(1, "shape").cloned() else {
        return Value::Top;
    };
    let target = i.shape_arg(&target, range, st);
    i.outcome(range, models::broadcast_to::broadcast_to(&a, &target))
}

/// `np.resize(a, new_shape)`: an array of `new_shape`, `a`'s elements repeated as needed (never
/// an error for a non-empty `a`; cma's BBOB functions tile `xopt` to the population's shape).
///
/// ```python
/// np.resize(np.arange(5), (3, 5)).shape   # (3, 5)
/// ```
pub(super) fn resize(i: &mut Interp<'_>, args: &Args, range: TextRange, st: &mut State) -> Value {
    if i.arg_shape(args.pos.first(), st).is_none() {
        return Value::Top;
    }
    match args.get(1, "new_shape").cloned() {
        Some(target) => Value::Array(i.shape_arg(&target, range, st)),
        None => Value::Top,
    }
}

/// `np.broadcast_arrays(a, b, ...)`: a tuple (NumPy 2; a list in 1.x) of arrays of the
/// broadcast shape. Two arrays are checked with NumPy's message.
pub(super) fn broadcast_arrays(
    i: &mut Interp<'_>,
    args: &Args,
    range: TextRange,
    st: &mut State,
) -> Value {
    let shapes: Option<Vec<Shape>> = args.pos.iter().map(|v| i.arg_shape(Some(v), st)).collect();
    let Some(shapes) = shapes.filter(|s| !s.is_empty() && args.kw.is_empty()) else {
        return Value::Top;
    };
    let common = match shapes.as_slice() {
        [a] => a.clone(),
        [a, b] => match i.outcome(range, models::broadcast_to::broadcast_pair(a, b)) {
            Value::Array(s) => s,
            _ => Shape::AnyRank,
        },
        _ => {
            let mut acc = shapes[0].clone();
            for s in &shapes[1..] {
                acc = match models::broadcast::broadcast(&acc, s) {
                    o if o.error.is_none() => o.shape,
                    _ => Shape::AnyRank,
                };
            }
            acc
        }
    };
    let items: Vec<Value> = shapes
        .iter()
        .map(|_| Value::Array(common.clone()))
        .collect();
    match i.config.numpy {
        NumpyVersion::V1 => i.alloc_list(Seq::Exact(items.into()), range.start(), st),
        NumpyVersion::V2 => Value::Tuple(Seq::Exact(items.into())),
    }
}

/// `np.atleast_1d(a)` (one array).
pub(super) fn atleast_1d(i: &mut Interp<'_>, args: &Args, _: TextRange, st: &mut State) -> Value {
    match (args.pos.as_slice(), i.arg_shape(args.pos.first(), st)) {
        ([_], Some(s)) if s.rank() == Some(0) => Value::Array(Shape::of(&[1])),
        ([_], Some(s)) => Value::Array(s),
        _ => Value::Top,
    }
}

/// `np.atleast_2d(a)` (one array): a 1-d `(n,)` becomes a row `(1, n)`.
pub(super) fn atleast_2d(i: &mut Interp<'_>, args: &Args, _: TextRange, st: &mut State) -> Value {
    match (args.pos.as_slice(), i.arg_shape(args.pos.first(), st)) {
        ([_], Some(s)) => match s.dims() {
            Some([]) => Value::Array(Shape::of(&[1, 1])),
            Some([n]) => Value::Array(Shape::Known(vec![Dim::Known(1), n.clone()])),
            _ => Value::Array(s),
        },
        _ => Value::Top,
    }
}

/// `np.cov(m, rowvar=True)`: variables by variables; a 1-d `m` is one variable (a 0-d result).
pub(super) fn cov(i: &mut Interp<'_>, args: &Args, _: TextRange, st: &mut State) -> Value {
    if args.pos.len() > 1
        || args
            .kw
            .iter()
            .any(|(k, _)| !matches!(&**k, "rowvar" | "ddof" | "bias"))
    {
        return Value::Array(Shape::AnyRank);
    }
    let Some(m) = i.arg_shape(args.pos.first(), st) else {
        return Value::Top;
    };
    // `rowvar=0` (an int) is common.
    let rowvar = match args.kw("rowvar") {
        None => Some(true),
        Some(v) => v.truth(),
    };
    match (m.dims(), rowvar) {
        (Some([_]), _) => Value::Array(Shape::Known(vec![])),
        (Some([v, _]), Some(true)) | (Some([_, v]), Some(false)) => {
            Value::Array(Shape::Known(vec![v.clone(), v.clone()]))
        }
        _ => Value::Array(Shape::AnyRank),
    }
}

/// `np.diff(a, n=1, axis=-1, prepend=, append=)`: the axis shrinks by `n` (W507 for a bad
/// axis), after `prepend` and `append` grew it — a scalar by one, an array by its own size
/// along the axis.
pub(super) fn diff(i: &mut Interp<'_>, args: &Args, range: TextRange, st: &mut State) -> Value {
    let Some(a) = i.arg_shape(args.pos.first(), st) else {
        return Value::Top;
    };
    let n = int_arg_or(args, 1, "n", 1);
    let (Some(d), Some(n), Some(axis)) = (
        a.dims(),
        n,
        const_int(args.get(2, "axis")).or(if args.get(2, "axis").is_none() {
            Some(-1)
        } else {
            None
        }),
    ) else {
        return Value::Array(Shape::AnyRank);
    };
    match models::normalize_axis(axis, d.len()) {
        Ok(k) => {
            // What `prepend` / `append` add along the axis: nothing, or a count (unknown:
            // `None`).
            let mut added = Some(0u64);
            for (pos, name) in [(3, "prepend"), (4, "append")] {
                let grow = match args.get(pos, name) {
                    None => Some(0),
                    Some(Value::Int(_) | Value::Float(_) | Value::Bool(_)) => Some(1),
                    Some(v) => match i.arg_shape(Some(v), st).as_ref().and_then(Shape::dims) {
                        Some([]) => Some(1),
                        Some(e) if e.len() == d.len() => e[k].known(),
                        _ => None,
                    },
                };
                added = added.zip(grow).map(|(a, g)| a + g);
            }
            let mut out = d.to_vec();
            out[k] = match (d[k].known(), added) {
                (Some(m), Some(a)) => Dim::Known((m + a).saturating_sub(n.max(0) as u64)),
                _ => Dim::Unknown,
            };
            Value::Array(Shape::Known(out))
        }
        Err(e) => i.outcome(range, crate::Outcome::certain("W507", e)),
    }
}

/// `np.trace(a)` / `a.trace()`: a number for a 2-d array.
pub(super) fn trace(i: &mut Interp<'_>, args: &Args, _: TextRange, st: &mut State) -> Value {
    match i.arg_shape(args.pos.first(), st).and_then(|s| s.rank()) {
        Some(2) if args.pos.len() == 1 && args.kw.is_empty() => Value::Array(Shape::Known(vec![])),
        _ => Value::Top,
    }
}

/// `np.unique`, `np.bincount`, `np.flatnonzero`: a 1-d array of a length that depends on the
/// values (a tuple when `unique` is asked for more).
pub(super) fn unknown_length(
    i: &mut Interp<'_>,
    args: &Args,
    _: TextRange,
    st: &mut State,
) -> Value {
    if args
        .kw
        .iter()
        .any(|(k, _)| k.starts_with("return_") || &**k == "axis")
    {
        return Value::Top;
    }
    match i.arg_shape(args.pos.first(), st) {
        Some(_) => Value::Array(Shape::Known(vec![Dim::Unknown])),
        None => Value::Top,
    }
}

/// `np.nonzero(a)` / `a.nonzero()`: one index array per dimension, of a length that depends on
/// the values.
pub(super) fn nonzero(i: &mut Interp<'_>, args: &Args, _: TextRange, st: &mut State) -> Value {
    match i.arg_shape(args.pos.first(), st).and_then(|s| s.rank()) {
        Some(r) if args.pos.len() == 1 => Value::Tuple(Seq::Exact(
            vec![Value::Array(Shape::Known(vec![Dim::Unknown])); r.max(1)].into(),
        )),
        _ => Value::Top,
    }
}

/// `np.meshgrid(x, y)` of two 1-d arrays: two `(len(y), len(x))` arrays (`indexing="xy"`, the
/// default), `(len(x), len(y))` with `indexing="ij"`.
pub(super) fn meshgrid(i: &mut Interp<'_>, args: &Args, range: TextRange, st: &mut State) -> Value {
    let ij = match args.kw("indexing") {
        None => false,
        Some(Value::Str(Some(s))) if &**s == "ij" => true,
        Some(Value::Str(Some(s))) if &**s == "xy" => false,
        _ => return Value::Top,
    };
    if args.kw.iter().any(|(k, _)| &**k != "indexing") {
        return Value::Top;
    }
    let (Some(x), Some(y)) = (
        i.arg_shape(args.pos.first(), st),
        i.arg_shape(args.pos.get(1), st),
    ) else {
        return Value::Top;
    };
    let (Some([n]), Some([m]), 2) = (x.dims(), y.dims(), args.pos.len()) else {
        return Value::Top;
    };
    let s = if ij {
        Shape::Known(vec![n.clone(), m.clone()])
    } else {
        Shape::Known(vec![m.clone(), n.clone()])
    };
    let items = vec![Value::Array(s.clone()), Value::Array(s)];
    match i.config.numpy {
        NumpyVersion::V1 => i.alloc_list(Seq::Exact(items.into()), range.start(), st),
        NumpyVersion::V2 => Value::Tuple(Seq::Exact(items.into())),
    }
}

/// `np.kron(a, b)`: ranks padded with leading ones, dimensions multiplied.
pub(super) fn kron(i: &mut Interp<'_>, args: &Args, _: TextRange, st: &mut State) -> Value {
    let (Some(a), Some(b)) = (
        i.arg_shape(args.pos.first(), st),
        i.arg_shape(args.pos.get(1), st),
    ) else {
        return Value::Top;
    };
    let (Some(x), Some(y)) = (a.dims(), b.dims()) else {
        return Value::Array(Shape::AnyRank);
    };
    let n = x.len().max(y.len());
    let pad = |d: &[Dim]| -> Vec<Dim> {
        std::iter::repeat_n(Dim::Known(1), n - d.len())
            .chain(d.iter().cloned())
            .collect()
    };
    let dims = pad(x)
        .iter()
        .zip(pad(y))
        .map(|(p, q)| match (p.known(), q.known()) {
            (Some(a), Some(b)) => Dim::Known(a * b),
            (Some(1), _) => q,
            (_, Some(1)) => p.clone(),
            _ => Dim::Unknown,
        })
        .collect();
    Value::Array(Shape::Known(dims))
}

/// `np.column_stack(arrays)`: 1-d arrays become columns `(n, 1)` (`ndmin=2` then transposed;
/// a scalar is `(1, 1)`), then concatenation along axis 1 (W506 with `concatenate`'s message).
pub(super) fn column_stack(
    i: &mut Interp<'_>,
    args: &Args,
    range: TextRange,
    st: &mut State,
) -> Value {
    join_promoted(i, args, range, st, 1, |n| vec![n.clone(), Dim::Known(1)])
}

/// `np.searchsorted(a, v)`: one index per element of `v` (an integer for a scalar `v`).
pub(super) fn searchsorted(i: &mut Interp<'_>, args: &Args, _: TextRange, st: &mut State) -> Value {
    match i.arg_shape(args.get(1, "v"), st) {
        Some(s) if s.rank() == Some(0) && !matches!(args.get(1, "v"), Some(Value::Array(_))) => {
            Value::Int(Int::Range(Some(0), None))
        }
        Some(s) => Value::Array(s),
        None => Value::Top,
    }
}

/// `np.append(arr, values, axis=None)`: flattened and joined without an axis; with one,
/// `concatenate`'s rules (W506, W507).
pub(super) fn append(i: &mut Interp<'_>, args: &Args, range: TextRange, st: &mut State) -> Value {
    let (Some(a), Some(b)) = (
        i.arg_shape(args.pos.first(), st),
        i.arg_shape(args.get(1, "values"), st),
    ) else {
        return Value::Top;
    };
    match axis_or(args, 2, i64::MIN) {
        Some(Some(i64::MIN)) | Some(None) => {
            let n = match (a.size(), b.size()) {
                (Some(x), Some(y)) => Dim::Known(x + y),
                _ => Dim::Unknown,
            };
            Value::Array(Shape::Known(vec![n]))
        }
        Some(Some(axis)) => i.outcome(range, models::concatenate::concatenate(&[a, b], axis)),
        None => Value::Array(Shape::AnyRank),
    }
}

/// `np.pad(a, pad_width)`: each dimension grows by its `(before, after)`; `pad_width` is an int,
/// one pair for every dimension, or one pair per dimension.
///
/// ```python
/// np.pad(np.zeros((3, 4)), 1)                  # (5, 6)
/// np.pad(np.zeros((3, 4)), ((1, 2), (0, 3)))   # (6, 7)
/// ```
pub(super) fn pad(i: &mut Interp<'_>, args: &Args, _: TextRange, st: &mut State) -> Value {
    let Some(a) = i.arg_shape(args.pos.first(), st) else {
        return Value::Top;
    };
    let Some(d) = a.dims() else {
        return Value::Array(Shape::AnyRank);
    };
    let int = |v: &Value| {
        v.as_int()
            .and_then(|n| n.constant())
            .and_then(|n| u64::try_from(n).ok())
    };
    let seq = |v: &Value| st.exact_items(v);
    let pair = |v: &Value| -> Option<u64> {
        match seq(v)?.as_slice() {
            [b, e] => Some(int(b)? + int(e)?),
            [b] => Some(2 * int(b)?),
            _ => None,
        }
    };
    let grow: Option<Vec<Option<u64>>> = match args.get(1, "pad_width") {
        Some(v @ Value::Int(_)) => Some(vec![int(v).map(|n| 2 * n); d.len()]),
        Some(v) => seq(v).and_then(|items| match items.as_slice() {
            // One pair (or one int) for every dimension.
            [Value::Int(_), Value::Int(_)] | [Value::Int(_)] => Some(vec![pair(v); d.len()]),
            rows if rows.len() == d.len() => Some(rows.iter().map(pair).collect()),
            _ => None,
        }),
        None => None,
    };
    let Some(grow) = grow else {
        return Value::Array(Shape::AnyRank);
    };
    Value::Array(Shape::Known(
        d.iter()
            .zip(grow)
            .map(|(n, g)| match (n.known(), g) {
                (Some(n), Some(g)) => Dim::Known(n + g),
                (_, Some(0)) => n.clone(),
                _ => Dim::Unknown,
            })
            .collect(),
    ))
}

/// `np.einsum("ij,jk->ik", a, b)` with an explicit output: its letters take their sizes from
/// the operands (no ellipsis; a mismatch is not reported, the result is then unknown).
///
/// ```python
/// np.einsum("ij,jk->ik", np.zeros((2, 3)), np.zeros((3, 5)))   # (2, 5)
/// ```
pub(super) fn einsum(i: &mut Interp<'_>, args: &Args, _: TextRange, st: &mut State) -> Value {
    let Some(Value::Str(Some(spec))) = args.pos.first() else {
        return Value::Top;
    };
    let spec: String = spec.chars().filter(|c| !c.is_whitespace()).collect();
    let Some((inputs, output)) = spec.split_once("->") else {
        return Value::Array(Shape::AnyRank);
    };
    if spec.contains('.') {
        return Value::Array(Shape::AnyRank);
    }
    let terms: Vec<&str> = inputs.split(',').collect();
    if terms.len() + 1 != args.pos.len() {
        return Value::Top;
    }
    let mut sizes: HashMap<char, Dim> = HashMap::default();
    for (term, v) in terms.iter().zip(&args.pos[1..]) {
        let Some(shape) = i.arg_shape(Some(v), st) else {
            return Value::Top;
        };
        let Some(d) = shape.dims() else {
            return Value::Array(Shape::AnyRank);
        };
        if d.len() != term.chars().count() {
            return Value::Array(Shape::AnyRank);
        }
        for (c, n) in term.chars().zip(d) {
            let e = sizes.entry(c).or_insert_with(|| n.clone());
            if e.is_one() == crate::Tri::Yes {
                *e = n.clone();
            }
        }
    }
    let dims: Option<Vec<Dim>> = output.chars().map(|c| sizes.get(&c).cloned()).collect();
    dims.map_or(Value::Array(Shape::AnyRank), |d| {
        Value::Array(Shape::Known(d))
    })
}
