//! Library model: PyTorch's pre-0.4 API, still everywhere in published training scripts.
//!
//! **Trigger:** the legacy typed constructors (`torch.FloatTensor`, `torch.LongTensor`, ...,
//! and the same names under `torch.cuda`) and `torch.autograd.Variable`.
//!
//! **Result:** a constructor given ints makes a tensor of those sizes, given data the data's shape
//! (rule `FromData` of `ops.rs`); `torch.cuda.X` is `torch.X` (`crate::torch::module_attr`);
//! `Variable(x, ...)` is `x`.
//!
//! **Why:** `Tensor = torch.cuda.FloatTensor if cuda else torch.FloatTensor` and `Variable(...)`
//! around every tensor made every tensor of such a script unknown.
//!
//! ```python
//! Tensor = torch.cuda.FloatTensor if cuda else torch.FloatTensor
//! valid = Variable(Tensor(imgs.size(0), 1).fill_(1.0), requires_grad=False)   # (N, 1)
//! ```
use super::ops::Rule;

/// The legacy typed constructors (`torch.FloatTensor(64, 1)` is sizes, `torch.FloatTensor([1.0,
/// 2.0])` data); `torch.cuda.FloatTensor` is the same constructor on the GPU
/// (`crate::torch::module_attr`), so the classic `Tensor = torch.cuda.FloatTensor if cuda else
/// torch.FloatTensor` is one known constructor on both branches.
pub const CONSTRUCTORS: &[&str] = &[
    "Tensor",
    "FloatTensor",
    "DoubleTensor",
    "HalfTensor",
    "BFloat16Tensor",
    "LongTensor",
    "IntTensor",
    "ShortTensor",
    "CharTensor",
    "ByteTensor",
    "BoolTensor",
];

/// `torch.autograd.Variable(x, requires_grad=...)`: a tensor since torch 0.4, `x` itself.
pub const AUTOGRAD: &[(&[&str], Rule)] = &[(&["Variable"], Rule::Same)];
