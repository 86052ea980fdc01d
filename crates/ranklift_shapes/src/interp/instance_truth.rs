//! Semantics: the truth of an object of the program's classes.
//!
//! **Trigger:** an instance used as a condition (`if self.cross_attn:`, `x or default`) whose
//! class and bases are the program's own, `object` or `torch.nn.Module`, none defining
//! `__bool__` or `__len__`.
//!
//! **Effect:** it is true, as Python's default truth is; a class defining either (or deriving
//! from a library class that may, `nn.ModuleList` included) keeps an undecided truth.
//!
//! **Why:** a transformer block holds its cross-attention only in the decoder
//! (`self.cross_attn = MultiHeadAttention(...) if cross_attention else None`) and tests it with
//! `if self.cross_attn:`; undecided, the block's output joined two shapes of the residual
//! stream and every decoder value after the first block was unknown.
//!
//! ```python
//! class Block(nn.Module):
//!     def __init__(self, cross):
//!         super().__init__()
//!         self.cross = nn.Linear(4, 4) if cross else None
//! if Block(True).cross:   # decided: a layer is true
//!     ...
//! ```
use super::Interp;
use super::state::State;
use super::value::{Addr, Builtin, Value};

impl Interp<'_> {
    /// `Some(true)` for an instance whose class keeps Python's default truth.
    pub(crate) fn instance_truth(&self, addr: Addr, st: &State) -> Option<bool> {
        let class = self.instance_class(st, addr)?;
        (self.default_truth(class, 0)).then_some(true)
    }

    fn default_truth(&self, class: u32, depth: usize) -> bool {
        let c = &self.classes[class as usize];
        depth <= 16
            && !c.meta
            && !c.attrs.contains_key("__bool__")
            && !c.attrs.contains_key("__len__")
            && c.bases.iter().all(|b| match b {
                Value::Class(b) => self.default_truth(*b, depth + 1),
                Value::TorchFunc(name) => *name == "torch.nn.Module",
                Value::Builtin(Builtin::Object) => true,
                _ => false,
            })
    }
}
