//! `split`, `chunk`, `tensor_split` and `unbind`: one tensor into a tuple of pieces along a dim.
//!
//! **Trigger:** `torch.split(x, size_or_sizes, dim)`, `x.split(...)`, `x.chunk(chunks, dim)`,
//! `torch.tensor_split(x, indices_or_sections, dim)`, `x.unbind(dim)`. **Result:** a tuple
//! whose pieces have the input's shape with the split dim replaced by each piece's size
//! (PyTorch's rule: `split(3)` of 10 is 3, 3, 3, 1; `chunk(3)` of 10 is 4, 4, 2 — pieces of
//! `ceil(n / chunks)`, possibly fewer than `chunks`; `tensor_split(3)` of 10 is 4, 3, 3 —
//! always `sections` pieces, the first `n % sections` one longer; `tensor_split((1, 5))` cuts
//! before index 1 and 5, as slices do, so of 10 it is 1, 4, 5 — MViT's class token split off
//! its patches), so
//! `q, k, v = x.split(n_embd, dim=2)` unpacks three tensors whose sizes later code relies on.
//! **Finding:** sizes that do not sum to the dim (W523), `chunks <= 0` (W523), a dim out of range
//! (W525):
//!
//! ```python
//! x = torch.randn(2, 10)
//! a, b = x.split([3, 4], dim=1)  # W523 split_with_sizes expects split_sizes to sum exactly to 10 (input tensor's size at dimension 1), but got split_sizes=[3, 4]
//! a, b = x.split([3, 7], dim=1)  # a is (2, 3), b is (2, 7)
//! ```
//!
//! Why: attention code splits a fused projection into query, key and value; the sizes of the
//! pieces are what the next `view` and `matmul` check. An unknown size makes the pieces' split
//! dim unknown (and their number, when it depends on it), never an error.

use std::sync::Arc;

use ruff_text_size::TextRange;

use super::ops::int;
use super::{tensor, wrap_dim};
use crate::Dim;
use crate::interp::call::Args;
use crate::interp::value::{Int, Seq, Value};
use crate::interp::{Exc, Interp};

/// Which of the three.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Split {
    Split,
    Chunk,
    TensorSplit,
    Unbind,
}

/// More pieces than this are summarised (one piece standing for all).
const MAX_PIECES: u64 = 64;

fn tuple(items: Vec<Value>) -> Value {
    Value::Tuple(Seq::Exact(Arc::from(items)))
}

impl<'a> Interp<'a> {
    /// `args` holds the tensor first (a method call's receiver is inserted there).
    pub(crate) fn torch_split(&mut self, kind: Split, args: &Args, range: TextRange) -> Value {
        let Some(Value::Tensor(s)) = args.pos.first() else {
            return Value::Top;
        };
        let Some(d) = s.dims() else {
            return Value::Top;
        };
        let dim_arg = match kind {
            Split::Unbind => args.get(1, "dim"),
            _ => args.get(2, "dim"),
        };
        let dim = match dim_arg {
            None => 0,
            Some(v) => match int(v) {
                Some(i) => i,
                None => return Value::Top,
            },
        };
        let axis = match wrap_dim(dim, d.len()) {
            Ok(a) if !d.is_empty() => a,
            Ok(_) => return Value::Top,
            Err(m) => return self.torch_error(range, "W525", Exc::Index, m),
        };
        let piece = |size: Dim| {
            let mut p = d.to_vec();
            p[axis] = size;
            tensor(p)
        };
        let n = d[axis].known();
        match kind {
            Split::Unbind => {
                let mut p = d.to_vec();
                p.remove(axis);
                let one = tensor(p);
                match n {
                    Some(n) if n <= MAX_PIECES => tuple(vec![one; n as usize]),
                    _ => Value::Tuple(Seq::Summary(Box::new(one), Int::from_dim(&d[axis]))),
                }
            }
            Split::Chunk => {
                let chunks = match args.get(1, "chunks").and_then(int) {
                    Some(c) => c,
                    None => return Value::Top,
                };
                if chunks <= 0 {
                    return self.torch_error(
                        range,
                        "W523",
                        Exc::Runtime,
                        format!("chunk expects `chunks` to be greater than 0, got: {chunks}"),
                    );
                }
                match n {
                    // Pieces of ceil(n / chunks): n = 6, chunks = 4 gives 2, 2, 2.
                    Some(n) if n > 0 => {
                        let each = n.div_ceil(chunks as u64);
                        self.pieces(n, each, piece)
                    }
                    _ => Value::Tuple(Seq::Summary(
                        Box::new(piece(Dim::Unknown)),
                        Int::Range(Some(0), Some(chunks)),
                    )),
                }
            }
            Split::TensorSplit => {
                let how = args
                    .get(1, "indices_or_sections")
                    .or_else(|| args.get(1, "sections"))
                    .or_else(|| args.get(1, "indices"));
                let Some(n) = n else {
                    return match how.and_then(int) {
                        Some(k) if k > 0 && k as u64 <= MAX_PIECES => {
                            tuple(vec![piece(Dim::Unknown); k as usize])
                        }
                        _ => Value::Top,
                    };
                };
                match how {
                    Some(v @ Value::Int(_)) => match int(v) {
                        Some(k) if k > 0 && k as u64 <= MAX_PIECES => {
                            let (k, n) = (k as u64, n);
                            tuple(
                                (0..k)
                                    .map(|i| piece(Dim::Known(n / k + u64::from(i < n % k))))
                                    .collect(),
                            )
                        }
                        _ => Value::Top,
                    },
                    // Cut points, as slices take them: negative from the end, clamped.
                    Some(Value::Tuple(Seq::Exact(items))) if items.len() < MAX_PIECES as usize => {
                        let Some(cuts) = items.iter().map(int).collect::<Option<Vec<i64>>>() else {
                            return tuple(vec![piece(Dim::Unknown); items.len() + 1]);
                        };
                        let n = n as i64;
                        let at = |c: i64| if c < 0 { (c + n).max(0) } else { c.min(n) };
                        let mut start = 0;
                        let mut out = Vec::with_capacity(cuts.len() + 1);
                        for c in cuts.iter().copied().map(at).chain(std::iter::once(n)) {
                            out.push(piece(Dim::Known((c - start).max(0) as u64)));
                            start = start.max(c);
                        }
                        tuple(out)
                    }
                    _ => Value::Top,
                }
            }
            Split::Split => match args.get(1, "split_size_or_sections") {
                Some(v @ Value::Int(_)) => match (int(v), n) {
                    (Some(each), Some(n)) if each > 0 && n > 0 => {
                        self.pieces(n, each as u64, piece)
                    }
                    _ => Value::Tuple(Seq::Summary(Box::new(piece(Dim::Unknown)), Int::ANY)),
                },
                Some(Value::Tuple(Seq::Exact(items))) => {
                    let sizes: Option<Vec<i64>> = items.iter().map(int).collect();
                    let Some(sizes) = sizes else {
                        return tuple(
                            items
                                .iter()
                                .map(|v| piece(v.as_int().map_or(Dim::Unknown, |i| i.as_dim())))
                                .collect(),
                        );
                    };
                    let total: i64 = sizes.iter().sum();
                    if let Some(n) = n
                        && total != n as i64
                    {
                        let shown: Vec<String> = sizes.iter().map(i64::to_string).collect();
                        return self.torch_error(
                            range,
                            "W523",
                            Exc::Runtime,
                            format!(
                                "split_with_sizes expects split_sizes to sum exactly to {n} (input tensor's size at dimension {axis}), but got split_sizes=[{}]",
                                shown.join(", ")
                            ),
                        );
                    }
                    tuple(
                        sizes
                            .iter()
                            .map(|&k| piece(u64::try_from(k).map_or(Dim::Unknown, Dim::Known)))
                            .collect(),
                    )
                }
                _ => Value::Top,
            },
        }
    }

    /// Pieces of `each` along a dim of `n`, the last one the remainder.
    fn pieces(&self, n: u64, each: u64, piece: impl Fn(Dim) -> Value) -> Value {
        let count = n.div_ceil(each);
        if count > MAX_PIECES {
            return Value::Tuple(Seq::Summary(
                Box::new(piece(Dim::Unknown)),
                Int::Const(count as i64),
            ));
        }
        let mut out: Vec<Value> = (0..count.saturating_sub(1))
            .map(|_| piece(Dim::Known(each)))
            .collect();
        if count > 0 {
            out.push(piece(Dim::Known(n - each * (count - 1))));
        }
        tuple(out)
    }
}
