//! `sort`, `argsort`, `msort` and `topk`: values (and the indices they came from) along a dim.
//!
//! **Trigger:** `torch.sort(x, dim=-1, descending=False)` / `x.sort(...)`, `argsort`, `msort`
//! (dim 0), `torch.topk(x, k, dim=-1)` / `x.topk(k, ...)`. **Result:** `sort` and `topk` return a
//! `(values, indices)` pair of the input's shape (`topk`: the dim is `k`); `argsort` and `msort`
//! one tensor of the input's shape. So `lengths, order = lengths.sort(descending=True)` keeps
//! `order` a `(batch,)` index, and `x[order]` keeps `x`'s shape (the captioning decoder's
//! reordering of a batch by caption length). **Finding:** a dim out of range (W525), `k` larger
//! than the dim (W525, torch's `RuntimeError`):
//!
//! ```python
//! x = torch.randn(3, 5)
//! values, idx = x.topk(6)   # W525 selected index k out of range
//! x.sort(dim=2)             # W525 Dimension out of range (expected to be in range of [-2, 1], but got 2)
//! ```
//!
//! Why: a sort or top-k sits between the tensors a model computes and the ones it indexes with
//! the result; an unmodelled one made everything after it unknown. An unknown `k` or `dim`
//! makes the result's shape unknown, never an error.

use ruff_text_size::TextRange;

use super::ops::int;
use super::{tensor, wrap_dim};
use crate::interp::call::Args;
use crate::interp::value::{Seq, Value};
use crate::interp::{Exc, Interp};
use crate::{Dim, Shape};

/// Which of them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Sort {
    /// `sort`: a (values, indices) pair.
    Sort,
    /// `argsort`: the indices.
    ArgSort,
    /// `msort`: the values, sorted along dim 0.
    MSort,
    /// `topk(k)`: a (values, indices) pair with `k` along the dim.
    TopK,
}

impl<'a> Interp<'a> {
    /// `kind(x, ...)` with `x` first in `args`.
    pub(crate) fn torch_sort(&mut self, kind: Sort, args: &Args, range: TextRange) -> Value {
        let Some(Value::Tensor(s)) = args.pos.first() else {
            return Value::Top;
        };
        let pair = |v: Value| Value::Tuple(Seq::Exact(vec![v.clone(), v].into()));
        let unknown = match kind {
            Sort::Sort | Sort::TopK => pair(Value::Tensor(Shape::AnyRank)),
            Sort::ArgSort | Sort::MSort => Value::Tensor(Shape::AnyRank),
        };
        let Some(d) = s.dims() else {
            return unknown;
        };
        let dim = match kind {
            Sort::MSort => Some(0),
            Sort::TopK => args.get(2, "dim").map_or(Some(-1), int),
            Sort::Sort | Sort::ArgSort => args.get(1, "dim").map_or(Some(-1), int),
        };
        let Some(dim) = dim else {
            return unknown;
        };
        let i = match wrap_dim(dim, d.len()) {
            Ok(i) => i,
            Err(m) => return self.torch_error(range, "W525", Exc::Index, m),
        };
        match kind {
            Sort::Sort => pair(Value::Tensor(s.clone())),
            Sort::ArgSort | Sort::MSort => Value::Tensor(s.clone()),
            Sort::TopK => {
                let Some(k) = args.get(1, "k").and_then(int) else {
                    return unknown;
                };
                // A 0-d tensor has one element along its only dim.
                let size = d.get(i).map_or(Some(1), Dim::known);
                if k < 0 || size.is_some_and(|n| k as u64 > n) {
                    return self.torch_error(
                        range,
                        "W525",
                        Exc::Runtime,
                        "selected index k out of range".to_owned(),
                    );
                }
                let mut out = d.to_vec();
                if let Some(x) = out.get_mut(i) {
                    *x = Dim::Known(k as u64);
                }
                pair(tensor(out))
            }
        }
    }
}
