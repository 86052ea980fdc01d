//! `torch.meshgrid`: coordinate grids from 1-d tensors.
//!
//! **Trigger:** `torch.meshgrid(a, b, ..., indexing=...)` or `torch.meshgrid([a, b, ...])`.
//!
//! **Result:** a tuple of as many tensors as inputs, each of shape `(len(a), len(b), ...)` with
//! `indexing="ij"` (torch's default) or the first two sizes exchanged with `indexing="xy"`; a
//! 0-d input counts as size 1. Unknown when an input or the indexing is unknown, or an input
//! has two or more dims (torch raises; left to run time).
//!
//! **Why:** relative position tables of windowed attention (Swin, its V2, many ViTs) are built
//! from `torch.stack(torch.meshgrid(coords_h, coords_w, indexing="ij"))`: without it the bias
//! added to every attention map, and the attention's output, were unknown. It led the ranking
//! of unmodelled attributes across the fetched model corpora.
//!
//! ```python
//! h, w = torch.meshgrid(torch.arange(2), torch.arange(3), indexing="xy")   # both (3, 2)
//! ```
use super::tensor;
use crate::Dim;
use crate::interp::call::Args;
use crate::interp::value::{Seq, Value};

pub fn meshgrid(args: &Args) -> Value {
    if args.unknown {
        return Value::Top;
    }
    let inputs: Vec<Value> = match args.pos.as_slice() {
        [Value::Tuple(Seq::Exact(items))] => items.to_vec(),
        pos => pos.to_vec(),
    };
    if inputs.is_empty() {
        return Value::Top;
    }
    let mut sizes = Vec::with_capacity(inputs.len());
    for v in &inputs {
        let Value::Tensor(s) = v else {
            return Value::Top;
        };
        sizes.push(match s.dims() {
            Some([]) => Dim::Known(1),
            Some([d]) => d.clone(),
            _ => return Value::Top,
        });
    }
    let xy = match args.kw.iter().find(|(k, _)| &**k == "indexing") {
        None => false,
        Some((_, Value::Str(Some(s)))) if &**s == "ij" => false,
        Some((_, Value::Str(Some(s)))) if &**s == "xy" => true,
        Some(_) => return Value::Top,
    };
    if xy && sizes.len() >= 2 {
        sizes.swap(0, 1);
    }
    let grid = tensor(sizes);
    Value::Tuple(Seq::Exact(vec![grid; inputs.len()].into()))
}
