//! Library model: a module that is one of several (the join of two branches).
//!
//! **Trigger:** two values joined (after an `if` the analysis cannot decide, a conditional
//! expression, a loop) where one is a `torch.nn` layer and the other a layer or an instance of
//! the program's class: `self.drop_path = DropPath(p) if p > 0.0 else nn.Identity()` with `p`
//! unknown.
//!
//! **Result:** a module that is one of them (at most four; more is unknown). Calling it calls
//! each alternative on the same arguments and joins the results; any other use knows nothing
//! of it (its attributes are unknown, `isinstance` undecided).
//!
//! **Why:** stochastic depth, optional projections and optional norms are written this way in
//! almost every vision transformer and ConvNeXt-style block, with the rate from a schedule the
//! analysis does not evaluate: the join was unknown, and every block's output with it (all of
//! torchvision's MaxViT after its first layer).
//!
//! ```python
//! self.drop_path = DropPath(p) if p > 0.0 else nn.Identity()
//! x = x + self.drop_path(self.mlp(x))   # shape kept: both alternatives keep it
//! ```
use std::sync::Arc;

use ruff_text_size::TextRange;

use super::layers::Layer;
use crate::interp::Interp;
use crate::interp::call::Args;
use crate::interp::state::State;
use crate::interp::value::Value;

/// More alternatives than this are unknown.
const MAX: usize = 4;

/// The join of `a` and `b` as one of several modules, or `None` if they are not both modules
/// (with at least one `torch.nn` layer; two instances of the program's classes stay unknown).
pub fn join(a: &Value, b: &Value) -> Option<Value> {
    let module = |v: &Value| match v {
        Value::Layer(l) => !matches!(
            **l,
            Layer::ModuleList(_)
                | Layer::ModuleDict(_)
                | Layer::Dataset { .. }
                | Layer::Loader { .. }
        ),
        Value::Instance(_) => true,
        _ => false,
    };
    if !module(a) || !module(b) || !(matches!(a, Value::Layer(_)) || matches!(b, Value::Layer(_))) {
        return None;
    }
    let mut all: Vec<Value> = Vec::new();
    for v in [a, b] {
        match v {
            Value::Layer(l) if matches!(**l, Layer::Either(_)) => {
                let Layer::Either(alts) = &**l else {
                    unreachable!()
                };
                all.extend(alts.iter().cloned());
            }
            v => all.push(v.clone()),
        }
    }
    let mut unique: Vec<Value> = Vec::new();
    for v in all {
        if !unique.contains(&v) {
            unique.push(v);
        }
    }
    (unique.len() <= MAX).then(|| Value::Layer(Arc::new(Layer::Either(unique.into()))))
}

impl Interp<'_> {
    /// `m(args)` of a module that is one of `alternatives`: each called, the results joined.
    pub(crate) fn call_either(
        &mut self,
        alternatives: &[Value],
        args: Args,
        range: TextRange,
        st: &mut State,
    ) -> Value {
        let mut out: Option<Value> = None;
        for alt in alternatives {
            let r = self.call_value(alt, args.clone(), range, st);
            out = Some(match out {
                Some(o) => o.join(&r),
                None => r,
            });
        }
        out.unwrap_or(Value::Top)
    }
}
