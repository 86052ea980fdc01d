//! Library model: `np.random.multinomial(n, pvals, size=None)` (and a `Generator`'s).
//!
//! **Trigger:** a call whose `pvals` has a known length (a list, a tuple, or an array whose last
//! axis is known).
//!
//! **Result:** an int array of shape `size + (len(pvals),)` — `(len(pvals),)` without `size`.
//! A `pvals` of more than one axis (a `Generator`'s batched draw) or of unknown length gives an
//! array of unknown shape.
//!
//! **Why:** samplers draw one-hot outcomes with it (`np.random.multinomial(1, B[s]).argmax()` in a
//! hidden-Markov model's `generate`): left unknown, every sequence it drew was too.
//!
//! ```python
//! counts = np.random.multinomial(10, [0.2, 0.3, 0.5], size=4)   # (4, 3)
//! ```
use super::*;

pub(super) fn multinomial(
    i: &mut Interp<'_>,
    args: &Args,
    range: TextRange,
    st: &mut State,
) -> Value {
    if args.unknown {
        return Value::Array(Shape::AnyRank);
    }
    let k = match i
        .arg_shape(args.get(1, "pvals"), st)
        .as_ref()
        .and_then(Shape::dims)
    {
        Some([k]) => k.clone(),
        _ => return Value::Array(Shape::AnyRank),
    };
    match args.get(2, "size").cloned() {
        None | Some(Value::None) => Value::Array(Shape::Known(vec![k])),
        Some(v) => match i.whole_shape_arg(&v, range, st) {
            Shape::Known(mut d) => {
                d.push(k);
                Value::Array(Shape::Known(d))
            }
            Shape::AnyRank => Value::Array(Shape::AnyRank),
        },
    }
}
