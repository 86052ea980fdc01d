//! Library model: the configuration a `torch.nn` layer keeps as attributes.
//!
//! **Trigger:** reading `conv.stride`, `conv.kernel_size`, `conv.padding`, `conv.dilation`,
//! `conv.output_padding`, `conv.groups`, `conv.in_channels`, `conv.out_channels`,
//! `conv.weight`, `linear.in_features` / `out_features`, `bn.num_features`,
//! `emb.num_embeddings` / `embedding_dim`, `norm.normalized_shape` of a layer the program
//! built.
//!
//! **Result:** what torch stores: per-dimension settings as tuples (`Conv3d(..., stride=2)`
//! has `stride == (2, 2, 2)`), `padding="same"` as the string, sizes as ints, a convolution's
//! weight as `(out, in // groups, *kernel)` (a transposed one's as `(in, out // groups,
//! *kernel)`). A setting the analysis does not know is unknown.
//!
//! **Why:** models size what follows a layer from its settings — MViT computes its token grid
//! as `[size // stride for size, stride in zip(input_size, self.conv_proj.stride)]` — and
//! left unknown, the positional encoding and every block after it were unknown.
//!
//! ```python
//! proj = nn.Conv3d(3, 16, (3, 7, 7), stride=(2, 4, 4), padding=(1, 3, 3))
//! grid = [s // k for s, k in zip((4, 32, 32), proj.stride)]   # [2, 8, 8]
//! ```
use super::layers::{Layer, Padding};
use super::tensor;
use crate::Dim;
use crate::interp::value::{Int, Seq, Value};

/// `layer.attr` for the settings of `layer`, or `None` when it keeps no such setting here.
pub fn config(layer: &Layer, attr: &str) -> Option<Value> {
    let size = |d: &Dim| Value::Int(Int::from_dim(d));
    let ints = |xs: &[Option<u64>]| {
        Value::Tuple(Seq::Exact(
            xs.iter()
                .map(|x| {
                    x.map_or(Value::Int(Int::Range(Some(0), None)), |v| {
                        Value::int(v as i64)
                    })
                })
                .collect(),
        ))
    };
    Some(match (layer, attr) {
        (Layer::Linear { inp, .. }, "in_features") => size(inp),
        (Layer::Linear { out, .. }, "out_features") => size(out),
        (Layer::Conv { inp, .. }, "in_channels") => size(inp),
        (Layer::Conv { out, .. }, "out_channels") => size(out),
        (Layer::Conv { kernel, .. }, "kernel_size") => ints(kernel),
        (Layer::Conv { stride, .. }, "stride") => ints(stride),
        (Layer::Conv { dilation, .. }, "dilation") => ints(dilation),
        (Layer::Conv { output_padding, .. }, "output_padding") => ints(output_padding),
        (Layer::Conv { padding, .. }, "padding") => match padding {
            Padding::Ints(p) => ints(p),
            Padding::Same => Value::Str(Some("same".into())),
            Padding::Valid => Value::Str(Some("valid".into())),
        },
        (Layer::Conv { groups, .. }, "groups") => groups
            .map_or(Value::Int(Int::Range(Some(1), None)), |g| {
                Value::int(g as i64)
            }),
        (
            Layer::Conv {
                inp,
                out,
                kernel,
                groups,
                transposed,
                ..
            },
            "weight",
        ) => {
            let (first, split) = if *transposed { (inp, out) } else { (out, inp) };
            let per_group = match (split.known(), groups) {
                (Some(c), Some(g)) if *g > 0 && c % g == 0 => Dim::Known(c / g),
                (_, Some(1)) => split.clone(),
                _ => Dim::Unknown,
            };
            let mut dims = vec![first.clone(), per_group];
            dims.extend(kernel.iter().map(|k| k.map_or(Dim::Unknown, Dim::Known)));
            tensor(dims)
        }
        (Layer::BatchNorm { n, .. }, "num_features") => size(n),
        (Layer::InstanceNorm(l), "num_features") => size(&l.n),
        (Layer::Embedding { num, .. }, "num_embeddings") => size(num),
        (Layer::Embedding { dim, .. }, "embedding_dim") => size(dim),
        (Layer::LayerNorm { shape }, "normalized_shape") => {
            Value::Tuple(Seq::Exact(shape.iter().map(size).collect()))
        }
        _ => return None,
    })
}
