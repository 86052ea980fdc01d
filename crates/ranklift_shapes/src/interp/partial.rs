//! Library model: `functools.partial`.
//!
//! **Trigger:** `partial(f, *args, **kwargs)` (from `functools`), then a call of what it made.
//!
//! **Result:** the call is `f` called with the stored arguments first and the call's after
//! them; a keyword given again at the call replaces the stored one, as Python does.
//!
//! **Why:** model code passes its layer factories as partials (`norm_layer =
//! partial(nn.LayerNorm, eps=1e-6)`, then `self.norm = norm_layer(dim)` in every block):
//! left unknown, every layer made through one was unknown, and with it everything the model
//! computed after its first normalisation.
//!
//! ```python
//! norm_layer = partial(nn.LayerNorm, eps=1e-6)
//! norm = norm_layer(64)
//! norm(torch.zeros(2, 10, 32))  # W521 Given normalized_shape=[64], expected input with shape [*, 64], ...
//! ```
use std::sync::Arc;

use ruff_text_size::TextRange;

use super::Interp;
use super::call::Args;
use super::state::State;
use super::value::Value;

/// What `partial(f, ...)` made.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Partial {
    pub func: Value,
    pub pos: Vec<Value>,
    pub kw: Vec<(Arc<str>, Value)>,
}

impl Interp<'_> {
    /// `partial(f, *args, **kwargs)`; unknown when its own arguments are.
    pub(crate) fn make_partial(&self, args: &Args) -> Value {
        match args.pos.split_first() {
            Some((func, rest)) if !args.unknown && !matches!(func, Value::Top) => {
                Value::Partial(Arc::new(Partial {
                    func: func.clone(),
                    pos: rest.to_vec(),
                    kw: args.kw.clone(),
                }))
            }
            _ => Value::Top,
        }
    }

    /// A call of what `partial` made.
    pub(crate) fn call_partial(
        &mut self,
        p: &Partial,
        args: Args,
        range: TextRange,
        st: &mut State,
    ) -> Value {
        let mut pos = p.pos.clone();
        pos.extend(args.pos);
        let mut kw = p.kw.clone();
        for (k, v) in args.kw {
            match kw.iter_mut().find(|(name, _)| *name == k) {
                Some(slot) => slot.1 = v,
                None => kw.push((k, v)),
            }
        }
        let args = Args {
            pos,
            kw,
            unknown: args.unknown,
        };
        self.call_value(&p.func, args, range, st)
    }
}
