//! Library model: functions whose result is their input with some sizes changed — `F.pad`
//! (the padded dims grow), `index_select` (one dim becomes the index's length), `F.one_hot` (a
//! dim of `num_classes` appended), `F.embedding` (the weight's row size appended) — the shape-keeping `roll` and `F.rms_norm`, and the norms
//! (`x.norm(p, dim, keepdim)`, `torch.linalg.vector_norm`: a reduction over `dim`).
//!
//! **Trigger:** `F.pad(x, pad)`, `torch.index_select(x, dim, index)` / `x.index_select(...)`,
//! `F.one_hot(t, num_classes)`, `F.embedding(ids, weight)`, `torch.roll(x, shifts, dims)` /
//! `x.roll(...)`,
//! `F.rms_norm(x, normalized_shape)`.
//!
//! **Result:** the shape as torch computes it where the sizes involved are known, a tensor of
//! the right rank otherwise; never an error (torch's own checks on these are not modelled).
//!
//! **Why:** windowed attention pads its feature maps, graph layers select rows, classifiers
//! one-hot their targets, vector quantisers look their codes up in a codebook
//! (`F.embedding(ids, self.embed.transpose(0, 1))`): each of these left every value after it
//! unknown, in every model of the fetched corpora that used one.
//!
//! ```python
//! x = F.pad(torch.zeros(2, 3, 7, 7), (0, 1, 0, 1))   # (2, 3, 8, 8)
//! y = torch.index_select(torch.zeros(5, 4), 0, torch.tensor([0, 2]))  # (2, 4)
//! z = F.one_hot(torch.zeros(8, dtype=torch.long), 10)  # (8, 10)
//! q = F.embedding(torch.zeros(2, 4, 4, dtype=torch.long), torch.randn(32, 16))  # (2, 4, 4, 16)
//! ```
use super::ops::{Rule, int, seq_ints};
use super::{dims, tensor, wrap_dim};
use crate::interp::call::Args;
use crate::interp::value::{Int, Value};
use crate::{Dim, Shape};

/// Functions and tensor methods of `torch`.
pub const TORCH: &[(&[&str], Rule)] = &[
    (&["index_select"], Rule::IndexSelect),
    (&["roll"], Rule::Same),
    (&["norm"], Rule::Norm),
];

/// Of `torch.linalg`: the norms (a reduction whose `dim` follows the order).
pub const LINALG: &[(&[&str], Rule)] = &[(&["norm", "vector_norm"], Rule::Norm)];

/// Of `torch.nn.functional`.
pub const FUNCTIONAL: &[(&[&str], Rule)] = &[
    (&["pad"], Rule::Pad),
    (&["one_hot"], Rule::OneHot),
    (&["embedding"], Rule::Embedding),
    (&["rms_norm"], Rule::Same),
];

/// `F.pad(x, pad)`: pairs of (before, after) from the last dim backwards.
pub fn pad(args: &Args) -> Value {
    let Some(d) = args.pos.first().and_then(dims) else {
        return Value::Top;
    };
    let mut out = d.to_vec();
    let Some(p) = args.get(1, "pad").and_then(seq_ints) else {
        return Value::Tensor(Shape::Known(vec![Dim::Unknown; d.len()]));
    };
    if p.len() % 2 != 0 || p.len() / 2 > d.len() {
        return Value::Tensor(Shape::Known(vec![Dim::Unknown; d.len()]));
    }
    for (i, pair) in p.chunks(2).enumerate() {
        let at = d.len() - 1 - i;
        out[at] = match (&d[at], pair[0].constant(), pair[1].constant()) {
            (Dim::Known(n), Some(a), Some(b)) if *n as i64 + a + b >= 0 => {
                Dim::Known((*n as i64 + a + b) as u64)
            }
            _ => Dim::Unknown,
        };
    }
    tensor(out)
}

/// `index_select(x, dim, index)`: `x` with `dim` as long as the (1-d) index.
pub fn index_select(args: &Args) -> Value {
    let Some(d) = args.pos.first().and_then(dims) else {
        return Value::Top;
    };
    let (Some(dim), Some(index)) = (args.get(1, "dim").and_then(int), args.get(2, "index")) else {
        return Value::Tensor(Shape::Known(vec![Dim::Unknown; d.len()]));
    };
    let Ok(at) = wrap_dim(dim, d.len()) else {
        return Value::Top;
    };
    let mut out = d.to_vec();
    if let Some(slot) = out.get_mut(at) {
        *slot = match dims(index) {
            Some([n]) => n.clone(),
            _ => Dim::Unknown,
        };
    }
    tensor(out)
}

/// `F.one_hot(t, num_classes=-1)`: a last dim of `num_classes` (unknown when inferred from the
/// data).
pub fn one_hot(args: &Args) -> Value {
    let Some(d) = args.pos.first().and_then(dims) else {
        return Value::Top;
    };
    let classes = match args.get(1, "num_classes").and_then(Value::as_int) {
        Some(Int::Const(c)) if c > 0 => Dim::Known(c as u64),
        _ => Dim::Unknown,
    };
    let mut out = d.to_vec();
    out.push(classes);
    tensor(out)
}

/// `F.embedding(input, weight)`: each index of `input` becomes a row of the 2-d `weight`.
pub fn embedding(args: &Args) -> Value {
    let Some(d) = args.pos.first().and_then(dims) else {
        return Value::Top;
    };
    let row = match args.get(1, "weight").and_then(dims) {
        Some([_, row]) => row.clone(),
        _ => Dim::Unknown,
    };
    let mut out = d.to_vec();
    out.push(row);
    tensor(out)
}
