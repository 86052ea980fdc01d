//! Library model: `np.finfo(dtype)` / `np.iinfo(dtype)` — the limits of a number type.
//!
//! **Trigger:** `np.finfo(float).eps`, `np.finfo(x.dtype).tiny`, `np.iinfo(np.int32).max`, ...
//!
//! **Result:** the object's limits are numbers of unknown value: `eps`, `epsneg`, `max`,
//! `min`, `tiny`, `smallest_normal`, `smallest_subnormal` and `resolution` of a `finfo` are
//! floats, its `bits`, `precision`, `iexp`, `maxexp`, `minexp`, `negep`, `nexp` and `nmant`
//! ints; `min`, `max` and `bits` of an `iinfo` are ints. Any other attribute is unknown.
//!
//! **Why:** numerical code guards its logarithms and divisions with `eps` (`np.log(A + eps)`):
//! left unknown, every array it touched lost its shape — a hidden-Markov model's whole
//! forward/backward pass went dark after one `eps = np.finfo(float).eps`.
//!
//! ```python
//! eps = np.finfo(float).eps
//! log_A = np.log(A + eps)   # A's shape, as before the guard
//! ```
use super::*;

/// The pseudo-module an `np.finfo(...)` call stands for.
pub(super) const FINFO: &str = "numpy.finfo";
/// The same for `np.iinfo(...)`.
pub(super) const IINFO: &str = "numpy.iinfo";

pub(super) fn finfo(_: &mut Interp<'_>, _: &Args, _: TextRange, _: &mut State) -> Value {
    Value::Module(ModRef::Numpy(FINFO))
}

pub(super) fn iinfo(_: &mut Interp<'_>, _: &Args, _: TextRange, _: &mut State) -> Value {
    Value::Module(ModRef::Numpy(IINFO))
}

/// An attribute of the object `np.finfo(...)` (`module` [`FINFO`]) or `np.iinfo(...)`
/// ([`IINFO`]) made; `None` for any other module.
pub(super) fn limit(module: &str, attr: &str) -> Option<Value> {
    let float = Value::Float(None);
    let int = Value::Int(Int::ANY);
    Some(match (module, attr) {
        (
            FINFO,
            "eps" | "epsneg" | "max" | "min" | "tiny" | "smallest_normal" | "smallest_subnormal"
            | "resolution",
        ) => float,
        (
            FINFO,
            "bits" | "precision" | "iexp" | "maxexp" | "minexp" | "negep" | "nexp" | "nmant",
        )
        | (IINFO, "min" | "max" | "bits") => int,
        (FINFO | IINFO, _) => Value::Top,
        _ => return None,
    })
}
