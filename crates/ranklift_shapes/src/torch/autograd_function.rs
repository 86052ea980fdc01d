//! Library model: a custom `torch.autograd.Function` of the program, called through `apply`.
//!
//! **Trigger:** `MyFn.apply(*args)`, where `MyFn` derives from `torch.autograd.Function` and
//! defines its `forward(ctx, *args)` (a staticmethod, as torch requires).
//!
//! **Result:** the program's `forward` run with a fresh context object first (what it stores
//! on `ctx` it reads back in the same call) and `apply`'s arguments after it, as torch does;
//! `backward` is not run (the analysis follows the forward pass only).
//!
//! **Why:** gradient checkpointing, gradient reversal and custom kernels are written as
//! `Function`s; a diffusion UNet sends every residual and attention block through
//! `CheckpointFunction.apply(self._forward, ...)`. Left unknown, every value after the first
//! such block was unknown and the rest of the model unchecked.
//!
//! ```python
//! class Scale(torch.autograd.Function):
//!     @staticmethod
//!     def forward(ctx, x, w):
//!         ctx.save_for_backward(x)
//!         return x @ w
//!
//! y = Scale.apply(torch.randn(2, 3), torch.randn(4, 5))  # W520 mat1 and mat2 shapes cannot be multiplied (2x3 and 4x5)
//! ```
use std::sync::Arc;

use ruff_text_size::TextRange;

use crate::interp::Interp;
use crate::interp::partial::Partial;
use crate::interp::state::State;
use crate::interp::value::Value;

/// The value of `torch.autograd.Function` (a base of the program's functions).
pub const FUNCTION: &str = "torch.autograd.Function";

/// Methods of the context torch passes to `forward`: they record tensors for the backward
/// pass and change none of the attributes the program stored on it.
const CONTEXT_METHODS: &[&str] = &[
    "save_for_backward",
    "save_for_forward",
    "mark_dirty",
    "mark_non_differentiable",
    "set_materialize_grads",
];

impl<'a> Interp<'a> {
    /// `ctx.save_for_backward` (and the context's other methods) on the context of a
    /// `Function` of the program: a call that returns `None` and changes nothing tracked.
    pub(crate) fn autograd_context_attr(&self, c: u32, attr: &str) -> Option<Value> {
        (CONTEXT_METHODS.contains(&attr)
            && self.class_attr(c, attr, 0).is_none()
            && self.derives_from_library(c, FUNCTION, 0))
        .then(|| Value::Method(Box::new(Value::None), "<harmless>".into()))
    }

    /// `C.apply` for a `Function` subclass `C` of the program: its `forward` with a new
    /// context bound first. `None` when `C` is not one (or has no `forward` of its own).
    pub(crate) fn autograd_apply(
        &mut self,
        c: u32,
        range: TextRange,
        st: &mut State,
    ) -> Option<Value> {
        if !self.derives_from_library(c, FUNCTION, 0) {
            return None;
        }
        let forward = match self.class_attr(c, "forward", 0)? {
            Value::Method(inner, kind) if &*kind == "<static>" => *inner,
            f @ Value::Func(_) => f,
            _ => return None,
        };
        // The context: an object of the class, so that what `forward` stores on it is read
        // back, and what torch's context has (`save_for_backward`) is a library attribute.
        let ctx = self.fresh_instance(c, range, st);
        Some(Value::Partial(Arc::new(Partial {
            func: forward,
            pos: vec![ctx],
            kw: Vec::new(),
        })))
    }
}
