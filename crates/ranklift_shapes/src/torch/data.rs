//! `torch.utils.data`: datasets and the batches a `DataLoader` yields.
//!
//! **Trigger:** `TensorDataset(x, y)`, a program's `Dataset` subclass (its `__getitem__` is run
//! on an unknown index), `DataLoader(dataset, batch_size=..., drop_last=...)`; then
//! `for x, y in loader:`, `enumerate(loader)`, `next(iter(loader))`, `dataset[i]`,
//! `len(dataset)`. **Result:** one sample is what `dataset[i]` gives; a batch is the sample
//! collated as `default_collate` does — tensors and NumPy arrays gain a leading batch dim,
//! numbers become a 1-d tensor, tuples and lists are collated item by item. The batch dim is
//! `batch_size` when the dataset's size is known and holds a full batch (the first iteration
//! has one, so an error on it is certain; a smaller last batch is not modelled), the size itself
//! when it is smaller than one batch, and otherwise a symbol `B` shared by every tensor of the
//! batch, so `model(x)` and `loss(out, y)` are still checked on every size but the batch. With a
//! known size, a loop over the loader runs every batch in order, the last one smaller unless
//! `drop_last` (100 samples by 32: three of 32, one of 4), so a batch size hard-coded in the loop
//! (`x.view(32, -1)`) fails where PyTorch fails, on the last batch:
//!
//! ```python
//! loader = DataLoader(TensorDataset(torch.randn(100, 784), torch.randint(0, 10, (100,))), batch_size=32)
//! for x, y in loader:          # x: (32, 784), y: (32,)
//!     out = nn.Linear(28 * 28 * 3, 10)(x)  # W520 mat1 and mat2 shapes cannot be multiplied (32x784 and 2352x10)
//! ```
//!
//! Why: the input shapes of a training loop come from its loader; without them the model's
//! forward runs on unknown tensors and nothing in it can be checked. A sample the analysis
//! cannot follow (a `collate_fn`, a sampler of batches, an unknown dataset) makes batches
//! unknown, never an error.

use std::sync::Arc;

use ruff_text_size::TextRange;

use super::layers::Layer;
use super::ops::int;
use crate::interp::Interp;
use crate::interp::call::Args;
use crate::interp::state::State;
use crate::interp::value::{Int, Seq, Value};
use crate::{Dim, Shape};

/// The classes of `torch.utils.data` modelled (a subclass of `Dataset` is the program's own).
pub const CLASSES: &[&str] = &[
    "torch.utils.data.DataLoader",
    "torch.utils.data.TensorDataset",
    "torch.utils.data.Dataset",
    "torch.utils.data.IterableDataset",
];

pub fn class(full: &str) -> Option<&'static str> {
    CLASSES.iter().copied().find(|c| *c == full)
}

/// `default_collate` of one sample into a batch of `b`.
fn collate(sample: &Value, b: &Dim) -> Value {
    let batched = |d: &[Dim]| {
        let mut out = Vec::with_capacity(d.len() + 1);
        out.push(b.clone());
        out.extend(d.iter().cloned());
        Value::Tensor(Shape::Known(out))
    };
    match sample {
        Value::Tensor(s) | Value::Array(s) => match s.dims() {
            Some(d) => batched(d),
            None => Value::Tensor(Shape::AnyRank),
        },
        Value::Int(_) | Value::Float(_) | Value::Bool(_) => batched(&[]),
        Value::Tuple(Seq::Exact(items)) => {
            Value::Tuple(Seq::Exact(items.iter().map(|v| collate(v, b)).collect()))
        }
        _ => Value::Top,
    }
}

impl<'a> Interp<'a> {
    /// A call of one of [`CLASSES`].
    pub(crate) fn call_torch_data(
        &mut self,
        name: &'static str,
        args: &Args,
        range: TextRange,
        st: &mut State,
    ) -> Value {
        if args.unknown {
            return Value::Top;
        }
        match name {
            "torch.utils.data.TensorDataset" => {
                // Every tensor indexed by one sample index: each loses its first dim.
                let mut item = Vec::with_capacity(args.pos.len());
                let mut len = None;
                for t in &args.pos {
                    let Some(d) = super::dims(t).filter(|d| !d.is_empty()) else {
                        return Value::Top;
                    };
                    len.get_or_insert_with(|| d[0].clone());
                    item.push(Value::Tensor(Shape::Known(d[1..].to_vec())));
                }
                Value::Layer(Arc::new(Layer::Dataset {
                    item: Value::Tuple(Seq::Exact(item.into())),
                    len: len.unwrap_or(Dim::Unknown),
                }))
            }
            "torch.utils.data.DataLoader" => {
                let Some(dataset) = args.get(0, "dataset") else {
                    return Value::Top;
                };
                // A `collate_fn` or a batch sampler decides what a batch is.
                if ["collate_fn", "batch_sampler"]
                    .iter()
                    .any(|k| !matches!(args.kw(k), None | Some(Value::None)))
                {
                    return Value::Top;
                }
                let (sample, len) = match dataset {
                    Value::Layer(l) => match &**l {
                        Layer::Dataset { item, len } => (item.clone(), len.clone()),
                        _ => return Value::Top,
                    },
                    // A program's dataset: its `__getitem__` at some index.
                    Value::Instance(addr) => {
                        let i = Value::Int(Int::Range(Some(0), None));
                        let item = self.get_item(dataset, &i, range, st);
                        let class = match st.heap.get(addr).map(|o| &**o) {
                            Some(crate::interp::state::Obj::Instance { class, .. }) => Some(*class),
                            _ => None,
                        };
                        let len = match class.and_then(|c| self.class_attr(c, "__len__", 0)) {
                            Some(Value::Func(id)) => {
                                match self.call_function(
                                    id,
                                    Some(dataset.clone()),
                                    Args::default(),
                                    range,
                                    st,
                                ) {
                                    Value::Int(n) => n.as_dim(),
                                    _ => Dim::Unknown,
                                }
                            }
                            _ => Dim::Unknown,
                        };
                        (item, len)
                    }
                    _ => return Value::Top,
                };
                let batch_size = match args.get(1, "batch_size") {
                    None => Some(1),
                    Some(Value::None) => {
                        return Value::Layer(Arc::new(Layer::Loader {
                            batch: sample,
                            batches: None,
                        }));
                    }
                    Some(v) => int(v).filter(|b| *b > 0),
                };
                // Every batch has `batch_size` samples when none is left over; otherwise the
                // first batch still has (the errors of a full batch are certain: the first
                // iteration raises), and a dataset smaller than one batch is one batch.
                let drop_last = match args.kw("drop_last") {
                    None => Some(false),
                    Some(v) => v.truth(),
                };
                let b = match (batch_size, len.known(), drop_last) {
                    (Some(b), _, Some(true)) => Dim::Known(b as u64),
                    (Some(b), Some(n), _) if n >= b as u64 => Dim::Known(b as u64),
                    (Some(_), Some(n), _) if n > 0 => Dim::Known(n),
                    _ => Dim::Sym(format!("B#loader{}", u32::from(range.start())).into()),
                };
                // A known size: every batch, the last one smaller unless `drop_last` (a batch
                // size hard-coded in the loop fails there: `x.view(32, -1)` on the last 4).
                let batches = match (batch_size, len.known(), drop_last) {
                    (Some(bs), Some(n), last) if n > 0 => {
                        let bs = bs as u64;
                        let (count, rest) = (n / bs, n % bs);
                        match (rest, last) {
                            (0, _) | (_, Some(true)) => Some((count, collate(&sample, &b))),
                            (r, Some(false)) if count > 0 => {
                                Some((count + 1, collate(&sample, &Dim::Known(r))))
                            }
                            _ => None,
                        }
                    }
                    _ => None,
                };
                Value::Layer(Arc::new(Layer::Loader {
                    batch: collate(&sample, &b),
                    batches,
                }))
            }
            _ => Value::Top,
        }
    }
}
