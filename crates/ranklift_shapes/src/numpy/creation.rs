//! Arrays made from Python values and ranges: `array`/`asarray` (nesting, raggedness), `arange`,
//! `linspace`, `eye`, `identity`.

use super::*;

/// `np.array(obj)` / `np.asarray(obj)`: the shape of nested lists and tuples; ragged nesting is
/// NumPy ≥ 1.24's ValueError (W512) unless `dtype=object`.
///
/// ```python
/// np.array([[1, 2, 3], [4, 5, 6]])  # (2,3)
/// np.array([[1, 2], [3]])           # W512 setting an array element with a sequence. ...
/// ```
pub(super) fn array(i: &mut Interp<'_>, args: &Args, range: TextRange, st: &mut State) -> Value {
    let v = array_of(i, args, range, st);
    // `ndmin=k` (keyword-only): ones are prepended to the shape up to rank k
    // (`np.array((133, 171), ndmin=2)` is (1, 2)); an unknown `ndmin` leaves any rank.
    match (args.kw("ndmin"), &v) {
        (None, _) => v,
        (Some(n), Value::Array(Shape::Known(dims))) => match const_int(Some(n)) {
            Some(k) if k >= 0 => {
                let k = k as usize;
                let mut out = vec![Dim::Known(1); k.saturating_sub(dims.len())];
                out.extend(dims.iter().cloned());
                Value::Array(Shape::Known(out))
            }
            _ => Value::Array(Shape::AnyRank),
        },
        (Some(_), _) => v,
    }
}

pub(super) fn array_of(i: &mut Interp<'_>, args: &Args, range: TextRange, st: &mut State) -> Value {
    let Some(v) = args.get(0, "object") else {
        return Value::Top;
    };
    if let Some(dtype) = args.get(1, "dtype") {
        if loose_dtype(dtype) {
            return Value::Array(Shape::AnyRank);
        }
        return match i.arg_shape(Some(v), st) {
            Some(s) => Value::Array(s),
            None => Value::Array(Shape::AnyRank),
        };
    }
    let seq = match v {
        Value::Tuple(s) => Some(s.clone()),
        Value::List(a) => st.list(*a),
        _ => None,
    };
    if let Some(Seq::Exact(items)) = &seq {
        let shapes: Option<Vec<Shape>> = items.iter().map(|x| i.arg_shape(Some(x), st)).collect();
        if let Some(shapes) = shapes
            && shapes.iter().all(|s| s.size().is_some())
            && shapes.windows(2).any(|w| w[0] != w[1])
        {
            // The common leading dimensions of the elements, after the outer one.
            let dims: Vec<&[Dim]> = shapes.iter().filter_map(|s| s.dims()).collect();
            let mut common = 0;
            while dims
                .iter()
                .all(|d| d.len() > common && d[common] == dims[0][common])
            {
                common += 1;
            }
            let mut detected = vec![items.len().to_string()];
            detected.extend(dims[0][..common].iter().map(ToString::to_string));
            let tuple = if detected.len() == 1 {
                format!("({},)", detected[0])
            } else {
                format!("({})", detected.join(", "))
            };
            i.report(
                range,
                "W512",
                crate::interp::Exc::Value,
                format!(
                    "setting an array element with a sequence. The requested array has an inhomogeneous shape after {} dimensions. The detected shape was {tuple} + inhomogeneous part.",
                    common + 1
                ),
                Certainty::Certain,
            );
            return Value::Array(Shape::AnyRank);
        }
    }
    match i.arg_shape(Some(v), st) {
        Some(s) => Value::Array(s),
        // `np.array(range(n))` has one element per integer.
        None if matches!(v, Value::Range(_)) => {
            let n = i.iteration_len(v, st);
            Value::Array(Shape::Known(vec![n.as_dim()]))
        }
        // None, strings, functions: a 0-d object (or string) array.
        None if matches!(
            v,
            Value::None | Value::Str(_) | Value::Func(_) | Value::Class(_)
        ) =>
        {
            Value::Array(Shape::Known(vec![]))
        }
        // An object may be a sequence or have `__array__`: any rank.
        None => Value::Array(Shape::AnyRank),
    }
}

/// `np.arange([start,] stop[, step])`: `ceil((stop - start) / step)` elements.
///
/// ```python
/// np.arange(6)          # (6,)
/// np.arange(1, 10, 3)   # (3,)
/// np.arange(n)          # (n,)
/// ```
pub(super) fn arange(_: &mut Interp<'_>, args: &Args, _: TextRange, _: &mut State) -> Value {
    let num = |v: Option<&Value>| v.and_then(Value::as_f64);
    let (start, stop, step) = match args.pos.len() {
        1 => (Some(0.0), num(args.pos.first()), Some(1.0)),
        2 => (num(args.pos.first()), num(args.pos.get(1)), Some(1.0)),
        _ => (
            num(args.pos.first()),
            num(args.pos.get(1)),
            num(args.pos.get(2)),
        ),
    };
    let dim = match (start, stop, step) {
        (Some(a), Some(b), Some(s)) if s != 0.0 => Dim::Known(((b - a) / s).ceil().max(0.0) as u64),
        _ if args.pos.len() == 1 => match args.pos.first() {
            Some(Value::Int(i)) => i.as_dim(),
            _ => Dim::Unknown,
        },
        _ => Dim::Unknown,
    };
    Value::Array(Shape::Known(vec![dim]))
}

/// `np.linspace(start, stop, num=50)`: `(num,)`.
pub(super) fn linspace(i: &mut Interp<'_>, args: &Args, _: TextRange, st: &mut State) -> Value {
    let dim = match args.get(2, "num") {
        None => Dim::Known(50),
        Some(v) => v.as_int().map_or(Dim::Unknown, |i| i.as_dim()),
    };
    // Array endpoints give one row per sample: `(num, *broadcast(start, stop))` (axis=0).
    let mut rest: Vec<Dim> = Vec::new();
    for v in [args.get(0, "start"), args.get(1, "stop")] {
        match v {
            Some(Value::Int(_) | Value::Float(_) | Value::Bool(_)) => {}
            Some(v @ (Value::Array(_) | Value::List(_) | Value::Tuple(_))) => {
                match i.arg_shape(Some(v), st).as_ref().and_then(Shape::dims) {
                    Some([]) => {}
                    Some(d) if rest.is_empty() || rest.as_slice() == d => rest = d.to_vec(),
                    _ => return Value::Array(Shape::AnyRank),
                }
            }
            _ => return Value::Array(Shape::AnyRank),
        }
    }
    if args.get(5, "axis").is_some() && !rest.is_empty() {
        return Value::Array(Shape::AnyRank);
    }
    let mut dims = vec![dim];
    dims.extend(rest);
    Value::Array(Shape::Known(dims))
}

/// `np.eye(N, M=None)`: `(N, M)`, square by default.
pub(super) fn eye(_: &mut Interp<'_>, args: &Args, _: TextRange, _: &mut State) -> Value {
    let n = args
        .get(0, "N")
        .and_then(Value::as_int)
        .map_or(Dim::Unknown, |i| i.as_dim());
    let m = match args.get(1, "M") {
        None | Some(Value::None) => n.clone(),
        Some(v) => v.as_int().map_or(Dim::Unknown, |i| i.as_dim()),
    };
    Value::Array(Shape::Known(vec![n, m]))
}

/// `np.identity(n)`: `(n, n)`.
pub(super) fn identity(_: &mut Interp<'_>, args: &Args, _: TextRange, _: &mut State) -> Value {
    let n = args
        .get(0, "n")
        .and_then(Value::as_int)
        .map_or(Dim::Unknown, |i| i.as_dim());
    Value::Array(Shape::Known(vec![n.clone(), n]))
}

/// `np.zeros_like(a)` (and `ones_like`, `empty_like`, `full_like`): an array of `a`'s shape,
/// or of `shape=` when it is given, read as `np.zeros(shape)` reads it.
///
/// ```python
/// X = np.ones((5, 3))
/// coef = np.zeros_like(X, shape=4)           # (4,), not (5, 3)
/// hess = np.empty_like(coef, shape=(4, 4))   # (4, 4)
/// ```
pub(super) fn like(i: &mut Interp<'_>, args: &Args, range: TextRange, st: &mut State) -> Value {
    if let Some(shape) = args.kw("shape").filter(|s| !matches!(s, Value::None)) {
        let shape = shape.clone();
        return Value::Array(i.whole_shape_arg(&shape, range, st));
    }
    // An operand of unknown type may be a pandas Series or a sparse matrix, whose `*_like`
    // is its own kind.
    match args.get(0, "a") {
        Some(Value::Top | Value::Instance(_)) | None => Value::Top,
        a => i.arg_shape(a, st).map_or(Value::Top, Value::Array),
    }
}
