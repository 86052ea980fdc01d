//! Library model: `torch.nn.modules.utils`' size normalisers `_single`, `_pair`, `_triple`,
//! `_quadruple` and `_ntuple(n)`.
//!
//! **Trigger:** `_pair(x)` (and the others) from `torch.nn.modules.utils`, and `_ntuple(n)` for
//! `n` from 1 to 4 (which is the function of that arity).
//!
//! **Result:** torch's own rule: a tuple or list becomes the tuple of its items; anything else
//! (an `int`, a `float`) is repeated `n` times. Unknown when the argument is.
//!
//! **Why:** model code takes "an int or a pair" for image, patch and kernel sizes and
//! normalises it with `_pair` (a vision transformer's `img_size = _pair(img_size)`, then the
//! number of patches); left unknown, the position embeddings, and everything added to them,
//! had no shape.
//!
//! ```python
//! from torch.nn.modules.utils import _pair
//!
//! img_size, patch = _pair(32), _pair((4, 4))   # (32, 32), (4, 4)
//! n_patches = (img_size[0] // patch[0]) * (img_size[1] // patch[1])   # 64
//! pos = torch.zeros(1, n_patches + 1, 32)      # (1, 65, 32)
//! ```
use super::ops::Rule;
use crate::interp::call::Args;
use crate::interp::state::State;
use crate::interp::value::{Seq, Value};

/// The module, modelled on its own (not as one of the files `torch.nn` re-exports).
pub const MODULE: &str = "torch.nn.modules.utils";

/// The functions, by arity.
const ARITIES: [&str; 4] = ["_single", "_pair", "_triple", "_quadruple"];

/// Functions of [`MODULE`].
pub const UTILS: &[(&[&str], Rule)] = &[
    (&["_single", "_pair", "_triple", "_quadruple"], Rule::NTuple),
    (&["_ntuple"], Rule::NTupleOf),
];

/// The arity of normaliser `short` (`_pair`: 2).
fn arity(short: &str) -> Option<usize> {
    ARITIES.iter().position(|a| *a == short).map(|i| i + 1)
}

/// `_ntuple(n)`: the normaliser of arity `n`, as `torch.nn.modules.utils` names it.
pub fn ntuple_of(args: &Args) -> Value {
    match args
        .get(0, "n")
        .and_then(Value::as_int)
        .and_then(|n| n.constant())
    {
        Some(n @ 1..=4) => super::ops::function(&format!("{MODULE}.{}", ARITIES[n as usize - 1]))
            .map_or(Value::Top, Value::TorchFunc),
        _ => Value::Top,
    }
}

/// `_pair(x)` and the others (`short` is the function's own name).
pub fn ntuple(short: &str, args: &Args, st: &State) -> Value {
    let (Some(n), Some(x)) = (arity(short), args.get(0, "x")) else {
        return Value::Top;
    };
    if args.unknown {
        return Value::Top;
    }
    match x {
        Value::Tuple(Seq::Exact(_)) => x.clone(),
        Value::List(_) => st
            .exact_items(x)
            .map_or(Value::Top, |items| Value::Tuple(Seq::Exact(items.into()))),
        Value::Int(_) | Value::Float(_) | Value::Bool(_) | Value::None => {
            Value::Tuple(Seq::Exact(vec![x.clone(); n].into()))
        }
        _ => Value::Top,
    }
}
