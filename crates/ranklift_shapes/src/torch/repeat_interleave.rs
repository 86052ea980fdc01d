//! Library model: `repeat_interleave`, each element (or slice along a dim) repeated in place.
//!
//! **Trigger:** `torch.repeat_interleave(x, repeats, dim=None)` and `x.repeat_interleave(...)`.
//!
//! **Result:** with an `int` (or one-element tensor) `repeats`, the dim `dim` multiplied by it;
//! with no `dim`, the flattened input repeated (1-d, `numel * repeats` long). With a 1-d tensor
//! of repeats, one per slice, the dim's new size is their sum: unknown (the values are data),
//! the other dims kept. `torch.repeat_interleave(counts)` alone is 1-d of unknown length.
//!
//! **Findings:** a dim out of range (W525); a negative `repeats` (W523); a tensor of repeats
//! whose length is not the dim's size, or of rank 2 or more (W523), with torch's words:
//!
//! ```python
//! x = torch.randn(2, 3)
//! a = torch.repeat_interleave(x, 2, dim=1)          # (2, 6)
//! b = x.repeat_interleave(torch.tensor([1, 2, 3]))  # W523 repeats must have the same size as input along dim, but got repeats.size(0) = 3 and input.size(0) = 6
//! ```
//!
//! **Why:** a prompt-conditioned decoder expands the image's embedding to one copy per prompt
//! (`torch.repeat_interleave(image_embeddings, tokens.shape[0], dim=0)`); left unknown, every
//! value of the decoder after it was unknown, its layers unchecked.
use ruff_text_size::TextRange;

use super::ops::{Rule, int};
use super::{tensor, wrap_dim};
use crate::Dim;
use crate::interp::call::Args;
use crate::interp::value::Value;
use crate::interp::{Exc, Interp};

/// Functions and tensor methods of `torch`.
pub const TORCH: &[(&[&str], Rule)] = &[(&["repeat_interleave"], Rule::RepeatInterleave)];

/// What `repeats` says of the new size.
enum Repeats {
    /// The same count for every slice (an `int`, or a tensor of one element).
    Each(Option<u64>),
    /// One count per slice: a 1-d tensor of this length (if known).
    PerSlice(Dim),
}

impl<'a> Interp<'a> {
    /// `args` holds the tensor first (a method call's receiver is inserted there).
    pub(crate) fn torch_repeat_interleave(&mut self, args: &Args, range: TextRange) -> Value {
        let Some(Value::Tensor(s)) = args.pos.first() else {
            return Value::Top;
        };
        let Some(d) = s.dims() else {
            return Value::Top;
        };
        let repeats = match args.get(1, "repeats") {
            // `torch.repeat_interleave(counts)`: the indices, each repeated its count times.
            None => return tensor(vec![Dim::Unknown]),
            Some(Value::Tensor(r)) => match r.dims() {
                Some([]) => Repeats::Each(None),
                Some([n]) if n.known() == Some(1) => Repeats::Each(None),
                Some([n]) => Repeats::PerSlice(n.clone()),
                Some(_) => {
                    return self.torch_error(
                        range,
                        "W523",
                        Exc::Runtime,
                        "repeats must be 0-dim or 1-dim tensor".to_string(),
                    );
                }
                None => return Value::Top,
            },
            Some(v) => match int(v) {
                Some(r) if r < 0 => {
                    return self.torch_error(
                        range,
                        "W523",
                        Exc::Runtime,
                        "Repeats must be non-negative".to_string(),
                    );
                }
                Some(r) => Repeats::Each(Some(r as u64)),
                None => Repeats::Each(None),
            },
        };
        // The dim as torch names it in its message (as given, or 0 of the flattened input).
        let (mut out, axis, named) = match args.get(2, "dim") {
            None | Some(Value::None) => {
                // Flattened first: one dim of every element.
                let numel = d.iter().try_fold(1u64, |n, x| Some(n * x.known()?));
                (vec![numel.map_or(Dim::Unknown, Dim::Known)], 0, 0)
            }
            Some(v) => {
                let Some(dim) = int(v) else {
                    return Value::Top;
                };
                match wrap_dim(dim, d.len()) {
                    Ok(a) if !d.is_empty() => (d.to_vec(), a, dim),
                    Ok(_) => return Value::Top,
                    Err(m) => return self.torch_error(range, "W525", Exc::Index, m),
                }
            }
        };
        out[axis] = match repeats {
            Repeats::Each(r) => match (out[axis].known(), r) {
                (Some(n), Some(r)) => Dim::Known(n * r),
                _ => Dim::Unknown,
            },
            Repeats::PerSlice(len) => {
                if let (Some(l), Some(n)) = (len.known(), out[axis].known())
                    && l != n
                {
                    return self.torch_error(
                        range,
                        "W523",
                        Exc::Runtime,
                        format!(
                            "repeats must have the same size as input along dim, but got \
                             repeats.size(0) = {l} and input.size({named}) = {n}"
                        ),
                    );
                }
                Dim::Unknown
            }
        };
        tensor(out)
    }
}
