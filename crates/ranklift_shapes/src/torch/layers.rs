//! `torch.nn` layers: the constructor's arguments kept in a [`Layer`], the forward rule applied
//! when the program calls the layer.
//!
//! **Trigger:** `layer(x)` of a layer the program built (`self.fc1 = nn.Linear(320, 50)`, then
//! `self.fc1(x)` in `forward`). **Finding:** PyTorch's error when the input cannot fit the
//! layer, at the line of the call (the program's innermost frame when torch raises):
//!
//! ```python
//! fc = nn.Linear(321, 50)
//! fc(torch.randn(4, 320))     # W520 addmm: mat1 and mat2 shapes cannot be multiplied (4x320 and 321x50)
//! conv = nn.Conv2d(4, 8, 3)
//! conv(torch.randn(2, 3, 10, 10))  # W521 Given groups=1, weight of size [8, 4, 3, 3], expected input[2, 3, 10, 10] to have 4 channels, but got 3 channels instead
//! nn.BatchNorm2d(5)(torch.randn(2, 4, 3, 3))  # W521 running_mean should contain 4 elements not 5
//! nn.MaxPool2d(2)(torch.randn(2, 3, 1, 1))    # W526 Given input size: (3x1x1). Calculated output size: (3x0x0). Output size is too small
//! ```
//!
//! Why: these are the errors of model code (a layer's size that does not follow its input's),
//! and PyTorch reports them only when the forward pass runs, after data loading. A layer whose
//! arguments are unknown makes its output unknown, never an error; so does a layer not modelled.

use std::sync::Arc;

use ruff_text_size::TextRange;

use super::ops::{Rule, int};
use super::{list, tensor};
use crate::interp::call::Args;
use crate::interp::state::State;
use crate::interp::value::{Addr, Seq, Value};
use crate::interp::{Exc, Interp};
use crate::{Dim, Shape, Tri};

/// Per-dimension integers of a layer (`kernel_size=3` is `[3, 3]` for a 2-d layer); `None` is
/// unknown.
type Ints = Vec<Option<u64>>;

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Padding {
    Ints(Ints),
    Same,
    Valid,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Layer {
    Linear {
        inp: Dim,
        out: Dim,
        bias: bool,
    },
    Conv {
        nd: usize,
        inp: Dim,
        out: Dim,
        kernel: Ints,
        stride: Ints,
        padding: Padding,
        dilation: Ints,
        groups: Option<u64>,
        transposed: bool,
        output_padding: Ints,
    },
    /// `BatchNorm{1,2,3}d`: the ranks it accepts and the features it normalises.
    BatchNorm {
        nd: usize,
        n: Dim,
        tracks: bool,
    },
    LayerNorm {
        shape: Vec<Dim>,
    },
    Embedding {
        num: Dim,
        dim: Dim,
    },
    Rnn {
        lstm: bool,
        input: Dim,
        hidden: Dim,
        layers: Option<u64>,
        batch_first: Option<bool>,
        bidirectional: Option<bool>,
    },
    Pool {
        nd: usize,
        max: bool,
        kernel: Ints,
        stride: Ints,
        padding: Ints,
        dilation: Ints,
        ceil: Option<bool>,
    },
    Adaptive {
        nd: usize,
        out: Vec<Option<Dim>>,
    },
    Flatten {
        start: i64,
        end: i64,
    },
    /// `Upsample` / `F.interpolate`: a size, or a scale factor (its bits).
    Upsample {
        size: Option<Vec<Dim>>,
        scale: Option<Vec<Option<u64>>>,
    },
    /// `ZeroPad2d` and friends: amounts as (left, right, top, bottom, front, back).
    Pad {
        nd: usize,
        amounts: Ints,
    },
    PixelShuffle(Option<u64>),
    /// Shape-preserving layers: activations, dropout, `Identity`.
    Same,
    /// `Dropout2d` and friends: at least 2 dims.
    FeatureDropout,
    /// Loss modules (`nn.MSELoss()`): the rule of the functional loss, and whether it reduces.
    Loss(Rule, Option<bool>),
    /// `nn.Sequential(a, b, c)`: the children, called in order, and their names (`"0"`, `"1"`,
    /// ... or the keys of the `OrderedDict` it was built from, or `add_module`'s): a child is
    /// also an attribute (`features.conv0`).
    Sequential(Arc<[Value]>, Arc<[Arc<str>]>),
    /// One of these modules, the analysis cannot tell which (a join: `DropPath(p) if p > 0.0
    /// else nn.Identity()` with `p` unknown): calling it calls each and joins the results
    /// (`torch/either.rs`).
    Either(Arc<[Value]>),
    /// `nn.ModuleList(layers)`: the list of modules on the heap; indexed, iterated, measured
    /// and appended to as that list, with `nn.Module`'s methods besides.
    ModuleList(Addr),
    /// `nn.ModuleDict(dict(wte=..., h=...))`: the dict of modules on the heap; its keys are
    /// also attributes (`self.transformer.wte`).
    ModuleDict(Addr),
    /// `nn.RNNCell`, `nn.LSTMCell`, `nn.GRUCell`: one time step.
    Cell(super::cells::Cell),
    /// `nn.GroupNorm(num_groups, num_channels)`: the channels it normalises.
    GroupNorm(Dim),
    /// `nn.InstanceNorm{1,2,3}d` (`torch/instance_norm.rs`).
    InstanceNorm(super::instance_norm::InstanceNorm),
    /// `nn.MultiheadAttention`, and the attention of the transformer layers.
    Attention(super::attention::Attention),
    /// `nn.TransformerEncoderLayer` / `nn.TransformerDecoderLayer(d_model, nhead)`: the input
    /// keeps its shape, and its last dim must be `d_model`.
    TransformerLayer {
        d_model: Dim,
    },
    /// `nn.Transformer(d_model, nhead, ...)`: an encoder stack and a decoder stack.
    Transformer(Box<super::attention::Transformer>),
    /// `nn.TransformerEncoder(layer, num_layers, norm)` (and the decoder): the layer called
    /// `num_layers` times with the call's other arguments, then `norm`.
    Stack {
        layer: Value,
        times: u64,
        norm: Option<Value>,
    },
    /// `nn.Unflatten(dim, unflattened_size)`.
    Unflatten {
        dim: i64,
        sizes: Vec<crate::interp::value::Int>,
    },
    /// Not a layer: a `torch.utils.data` dataset (`torch/data.rs`), one sample and the size.
    Dataset {
        item: Value,
        len: Dim,
    },
    /// Not a layer: a `DataLoader` (`torch/data.rs`), the batch each iteration yields; with a
    /// dataset of known size, the number of batches and the last (smaller) one.
    Loader {
        batch: Value,
        batches: Option<(u64, Value)>,
    },
}

/// `layer.weight` / `layer.bias` of the layers whose parameters have a known shape (`F.linear(h,
/// emb.weight)` ties an output projection to an embedding; a `Linear(..., bias=False)` has
/// `bias is None`); anything else is unknown.
pub fn attribute(layer: &Layer, attr: &str) -> Value {
    match (layer, attr) {
        (Layer::Linear { inp, out, .. }, "weight") => tensor(vec![out.clone(), inp.clone()]),
        (
            Layer::Linear {
                out, bias: true, ..
            },
            "bias",
        ) => tensor(vec![out.clone()]),
        (Layer::Linear { bias: false, .. }, "bias") => Value::None,
        (Layer::Embedding { num, dim }, "weight") => tensor(vec![num.clone(), dim.clone()]),
        (Layer::LayerNorm { shape }, "weight" | "bias") => tensor(shape.clone()),
        (Layer::Transformer(t), "encoder") => t.encoder.clone(),
        (Layer::Transformer(t), "decoder") => t.decoder.clone(),
        (Layer::Sequential(children, names), _) => names
            .iter()
            .position(|n| &**n == attr)
            .map_or(Value::Top, |i| children[i].clone()),
        // Settings kept as attributes (`conv.stride`): `torch/layer_attrs.rs`.
        _ => super::layer_attrs::config(layer, attr).unwrap_or(Value::Top),
    }
}

impl Value {
    /// The list a `ModuleList` holds, or the dict a `ModuleDict` holds: indexing, iterating,
    /// `len` and the container's methods act on it.
    pub fn held_modules(&self) -> Option<Value> {
        match self {
            Value::Layer(l) => match &**l {
                Layer::ModuleList(a) => Some(Value::List(*a)),
                Layer::ModuleDict(a) => Some(Value::Dict(*a)),
                _ => None,
            },
            _ => None,
        }
    }
}

/// The layer classes (and `Module`, for subclasses) of `torch.nn`.
const CLASSES: &[&str] = &[
    "torch.nn.Module",
    "torch.nn.Linear",
    "torch.nn.Conv1d",
    "torch.nn.Conv2d",
    "torch.nn.Conv3d",
    "torch.nn.ConvTranspose1d",
    "torch.nn.ConvTranspose2d",
    "torch.nn.ConvTranspose3d",
    "torch.nn.BatchNorm1d",
    "torch.nn.BatchNorm2d",
    "torch.nn.BatchNorm3d",
    "torch.nn.LayerNorm",
    "torch.nn.GroupNorm",
    "torch.nn.InstanceNorm1d",
    "torch.nn.InstanceNorm2d",
    "torch.nn.InstanceNorm3d",
    "torch.nn.Embedding",
    "torch.nn.LSTM",
    "torch.nn.GRU",
    "torch.nn.RNN",
    "torch.nn.MaxPool1d",
    "torch.nn.MaxPool2d",
    "torch.nn.MaxPool3d",
    "torch.nn.AvgPool1d",
    "torch.nn.AvgPool2d",
    "torch.nn.AvgPool3d",
    "torch.nn.AdaptiveAvgPool1d",
    "torch.nn.AdaptiveAvgPool2d",
    "torch.nn.AdaptiveAvgPool3d",
    "torch.nn.AdaptiveMaxPool1d",
    "torch.nn.AdaptiveMaxPool2d",
    "torch.nn.AdaptiveMaxPool3d",
    "torch.nn.Flatten",
    "torch.nn.Upsample",
    "torch.nn.UpsamplingNearest2d",
    "torch.nn.UpsamplingBilinear2d",
    "torch.nn.ZeroPad2d",
    "torch.nn.ReflectionPad2d",
    "torch.nn.ReplicationPad2d",
    "torch.nn.ConstantPad2d",
    "torch.nn.PixelShuffle",
    "torch.nn.Sequential",
    "torch.nn.ModuleList",
    "torch.nn.ModuleDict",
    "torch.nn.Parameter",
    "torch.nn.MultiheadAttention",
    "torch.nn.TransformerEncoderLayer",
    "torch.nn.TransformerDecoderLayer",
    "torch.nn.TransformerEncoder",
    "torch.nn.TransformerDecoder",
    "torch.nn.Identity",
    "torch.nn.Dropout",
    "torch.nn.Dropout1d",
    "torch.nn.Dropout2d",
    "torch.nn.Dropout3d",
    "torch.nn.AlphaDropout",
    "torch.nn.ReLU",
    "torch.nn.ReLU6",
    "torch.nn.LeakyReLU",
    "torch.nn.PReLU",
    "torch.nn.ELU",
    "torch.nn.SELU",
    "torch.nn.CELU",
    "torch.nn.GELU",
    "torch.nn.SiLU",
    "torch.nn.Mish",
    "torch.nn.Sigmoid",
    "torch.nn.Tanh",
    "torch.nn.Hardtanh",
    "torch.nn.Hardswish",
    "torch.nn.Hardsigmoid",
    "torch.nn.Softplus",
    "torch.nn.Softmax",
    "torch.nn.LogSoftmax",
    "torch.nn.MSELoss",
    "torch.nn.L1Loss",
    "torch.nn.SmoothL1Loss",
    "torch.nn.BCELoss",
    "torch.nn.BCEWithLogitsLoss",
    "torch.nn.CrossEntropyLoss",
    "torch.nn.NLLLoss",
    // Module classes whose forward is not modelled (or keeps the shape): calling one is
    // unknown, but a program's subclass of one is a module (`class TransformerModel(
    // nn.Transformer)`: calling an instance runs its `forward`).
    "torch.nn.RMSNorm",
    "torch.nn.Softmax2d",
    "torch.nn.Softsign",
    "torch.nn.Tanhshrink",
    "torch.nn.Threshold",
    "torch.nn.LogSigmoid",
    "torch.nn.Softmin",
    "torch.nn.Hardshrink",
    "torch.nn.Softshrink",
    "torch.nn.RReLU",
    "torch.nn.SyncBatchNorm",
    "torch.nn.LocalResponseNorm",
    "torch.nn.Transformer",
    "torch.nn.RNNCell",
    "torch.nn.LSTMCell",
    "torch.nn.GRUCell",
    "torch.nn.Bilinear",
    "torch.nn.Unfold",
    "torch.nn.Fold",
    "torch.nn.CosineSimilarity",
    "torch.nn.PairwiseDistance",
    "torch.nn.EmbeddingBag",
    "torch.nn.LazyLinear",
    "torch.nn.LazyConv1d",
    "torch.nn.LazyConv2d",
    "torch.nn.LazyConv3d",
    "torch.nn.ChannelShuffle",
    "torch.nn.GLU",
    "torch.nn.KLDivLoss",
    "torch.nn.HuberLoss",
    "torch.nn.MarginRankingLoss",
    "torch.nn.TripletMarginLoss",
    "torch.nn.CosineEmbeddingLoss",
    "torch.nn.CTCLoss",
    "torch.nn.PoissonNLLLoss",
    "torch.nn.GaussianNLLLoss",
    "torch.nn.ReflectionPad1d",
    "torch.nn.ReplicationPad1d",
    "torch.nn.ConstantPad1d",
    "torch.nn.ZeroPad1d",
    "torch.nn.ReflectionPad3d",
    "torch.nn.ReplicationPad3d",
    "torch.nn.ConstantPad3d",
    "torch.nn.CircularPad2d",
    "torch.nn.PixelUnshuffle",
    "torch.nn.Unflatten",
    "torch.nn.FractionalMaxPool2d",
    "torch.nn.LPPool1d",
    "torch.nn.LPPool2d",
    "torch.nn.MaxUnpool1d",
    "torch.nn.MaxUnpool2d",
    "torch.nn.AdaptiveLogSoftmaxWithLoss",
    "torch.nn.ParameterList",
    "torch.nn.ParameterDict",
    "torch.nn.MultiLabelSoftMarginLoss",
    "torch.nn.MultiMarginLoss",
    "torch.nn.SoftMarginLoss",
    "torch.nn.HingeEmbeddingLoss",
];

pub fn class(full: &str) -> Option<&'static str> {
    CLASSES.iter().copied().find(|c| *c == full)
}

/// Methods of `nn.Module` that return the module itself (`model = Net().to(device)`).
pub const RETURNS_SELF: &[&str] = &[
    "to",
    "cuda",
    "cpu",
    "train",
    "eval",
    "float",
    "double",
    "half",
    "requires_grad_",
    "type",
    "apply",
    "share_memory",
];

/// Methods of `nn.Module` that change nothing the analysis tracks (they are not escapes).
pub const HARMLESS: &[&str] = &[
    "parameters",
    "named_parameters",
    "buffers",
    "named_buffers",
    "children",
    "named_children",
    "modules",
    "named_modules",
    "state_dict",
    "load_state_dict",
    "zero_grad",
    "register_forward_hook",
    "register_forward_pre_hook",
    "register_full_backward_hook",
    "extra_repr",
];

fn ints(v: Option<&Value>, nd: usize, default: Option<u64>) -> Ints {
    let one = |v: &Value| int(v).and_then(|i| u64::try_from(i).ok());
    match v {
        None | Some(Value::None) => vec![default; nd],
        Some(Value::Tuple(Seq::Exact(items))) if items.len() == nd => {
            items.iter().map(one).collect()
        }
        // One size for every dim (`stride=[2]`): the convolution expands it, as an int.
        Some(Value::Tuple(Seq::Exact(items))) if items.len() == 1 && default.is_some() => {
            vec![one(&items[0]); nd]
        }
        Some(v @ Value::Int(_)) => vec![one(v); nd],
        Some(_) => vec![None; nd],
    }
}

/// A layer's size argument: its value, or unknown.
pub(crate) fn dim(v: Option<&Value>) -> Dim {
    match v.and_then(Value::as_int) {
        Some(i) => i.as_dim(),
        None => Dim::Unknown,
    }
}

fn flag(args: &Args, name: &str, default: bool) -> Option<bool> {
    match args.kw(name) {
        None => Some(default),
        Some(v) => v.truth(),
    }
}

/// `MaxPool2d(kernel_size, stride=None, padding=0, dilation=1, return_indices=False, ...)` /
/// `AvgPool2d(kernel_size, stride=None, padding=0, ceil_mode=False, ...)`, with the arguments
/// from position `from` (1 for `F.max_pool2d(x, ...)`). A max pool that may return its
/// indices too (`return_indices=True`, SegNet's encoder: `out, idx = pool(x)`) returns a pair,
/// not a tensor: `None` (unknown) here.
pub fn pool_from_args(nd: usize, max: bool, args: &Args, from: usize) -> Option<Layer> {
    if max
        && args
            .get(from + 4, "return_indices")
            .is_some_and(|v| v.truth() != Some(false))
    {
        return None;
    }
    let kernel = ints(args.get(from, "kernel_size"), nd, None);
    let stride = match args.get(from + 1, "stride") {
        None | Some(Value::None) => kernel.clone(),
        v => ints(v, nd, None),
    };
    let padding = ints(args.get(from + 2, "padding"), nd, Some(0));
    let (dilation, ceil) = if max {
        let ceil = match args.get(from + 5, "ceil_mode") {
            None => Some(false),
            Some(v) => v.truth(),
        };
        (ints(args.get(from + 3, "dilation"), nd, Some(1)), ceil)
    } else {
        let ceil = match args.get(from + 3, "ceil_mode") {
            None => Some(false),
            Some(v) => v.truth(),
        };
        (vec![Some(1); nd], ceil)
    };
    Some(Layer::Pool {
        nd,
        max,
        kernel,
        stride,
        padding,
        dilation,
        ceil,
    })
}

pub fn adaptive_from_args(nd: usize, args: &Args, from: usize) -> Option<Layer> {
    let out = match args.get(from, "output_size")? {
        Value::Tuple(Seq::Exact(items)) if items.len() == nd => items
            .iter()
            .map(|v| match v {
                Value::None => None,
                v => Some(dim(Some(v))),
            })
            .collect(),
        v @ Value::Int(_) => vec![Some(dim(Some(v))); nd],
        _ => return None,
    };
    Some(Layer::Adaptive { nd, out })
}

pub fn upsample_from_args(args: &Args, from: usize) -> Option<Layer> {
    let size = match args.get(from, "size") {
        None | Some(Value::None) => None,
        Some(Value::Tuple(Seq::Exact(items))) => Some(items.iter().map(|v| dim(Some(v))).collect()),
        Some(v @ Value::Int(_)) => Some(vec![dim(Some(v))]),
        Some(_) => return None,
    };
    let scale = match args.get(from + 1, "scale_factor") {
        None | Some(Value::None) => None,
        Some(Value::Tuple(Seq::Exact(items))) => {
            Some(items.iter().map(|v| v.as_f64().map(f64::to_bits)).collect())
        }
        Some(v) => Some(vec![v.as_f64().map(f64::to_bits)]),
    };
    if size.is_none() && scale.is_none() {
        return None;
    }
    Some(Layer::Upsample { size, scale })
}

/// `nn.X(...)`: the layer, or unknown for a class whose forward is not modelled.
pub fn construct(name: &'static str, args: &Args) -> Value {
    if args.unknown {
        return Value::Top;
    }
    let short = &name["torch.nn.".len()..];
    let conv_nd = |s: &str| {
        s.chars()
            .rev()
            .nth(1)
            .and_then(|c| c.to_digit(10))
            .unwrap_or(2) as usize
    };
    let layer = match short {
        "Linear" => Layer::Linear {
            inp: dim(args.get(0, "in_features")),
            out: dim(args.get(1, "out_features")),
            bias: args.get(2, "bias").is_none_or(|b| b.truth() != Some(false)),
        },
        "Conv1d" | "Conv2d" | "Conv3d" | "ConvTranspose1d" | "ConvTranspose2d"
        | "ConvTranspose3d" => {
            let nd = conv_nd(short);
            let transposed = short.starts_with("ConvTranspose");
            let padding = match args.get(4, "padding") {
                Some(Value::Str(Some(s))) if &**s == "same" => Padding::Same,
                Some(Value::Str(Some(s))) if &**s == "valid" => Padding::Valid,
                v => Padding::Ints(ints(v, nd, Some(0))),
            };
            // ConvTranspose: (..., padding, output_padding, groups, bias, dilation).
            let (groups, dilation, output_padding) = if transposed {
                (
                    args.get(6, "groups"),
                    args.get(8, "dilation"),
                    ints(args.get(5, "output_padding"), nd, Some(0)),
                )
            } else {
                (
                    args.get(6, "groups"),
                    args.get(5, "dilation"),
                    vec![Some(0); nd],
                )
            };
            Layer::Conv {
                nd,
                inp: dim(args.get(0, "in_channels")),
                out: dim(args.get(1, "out_channels")),
                kernel: ints(args.get(2, "kernel_size"), nd, None),
                stride: ints(args.get(3, "stride"), nd, Some(1)),
                padding,
                dilation: ints(dilation, nd, Some(1)),
                groups: match groups {
                    None => Some(1),
                    Some(v) => int(v).and_then(|g| u64::try_from(g).ok()),
                },
                transposed,
                output_padding,
            }
        }
        "BatchNorm1d" | "BatchNorm2d" | "BatchNorm3d" => Layer::BatchNorm {
            nd: conv_nd(short),
            n: dim(args.get(0, "num_features")),
            tracks: args
                .get(4, "track_running_stats")
                .is_none_or(|v| v.truth() == Some(true)),
        },
        "LayerNorm" => match args.get(0, "normalized_shape") {
            Some(Value::Tuple(Seq::Exact(items))) => Layer::LayerNorm {
                shape: items.iter().map(|v| dim(Some(v))).collect(),
            },
            Some(v @ Value::Int(_)) => Layer::LayerNorm {
                shape: vec![dim(Some(v))],
            },
            _ => return Value::Top,
        },
        "Embedding" => Layer::Embedding {
            num: dim(args.get(0, "num_embeddings")),
            dim: dim(args.get(1, "embedding_dim")),
        },
        "LSTM" | "GRU" | "RNN" => Layer::Rnn {
            lstm: short == "LSTM",
            input: dim(args.get(0, "input_size")),
            hidden: dim(args.get(1, "hidden_size")),
            layers: match args.get(2, "num_layers") {
                None => Some(1),
                Some(v) => int(v).and_then(|n| u64::try_from(n).ok()),
            },
            batch_first: flag(args, "batch_first", false),
            bidirectional: flag(args, "bidirectional", false),
        },
        "MaxPool1d" | "MaxPool2d" | "MaxPool3d" | "AvgPool1d" | "AvgPool2d" | "AvgPool3d" => {
            match pool_from_args(conv_nd(short), short.starts_with("Max"), args, 0) {
                Some(l) => l,
                None => return Value::Top,
            }
        }
        "AdaptiveAvgPool1d" | "AdaptiveAvgPool2d" | "AdaptiveAvgPool3d" | "AdaptiveMaxPool1d"
        | "AdaptiveMaxPool2d" | "AdaptiveMaxPool3d" => {
            match adaptive_from_args(conv_nd(short), args, 0) {
                Some(l) => l,
                None => return Value::Top,
            }
        }
        "Flatten" => match (
            args.get(0, "start_dim").map_or(Some(1), int),
            args.get(1, "end_dim").map_or(Some(-1), int),
        ) {
            (Some(start), Some(end)) => Layer::Flatten { start, end },
            _ => return Value::Top,
        },
        "Upsample" | "UpsamplingNearest2d" | "UpsamplingBilinear2d" => {
            match upsample_from_args(args, 0) {
                Some(l) => l,
                None => return Value::Top,
            }
        }
        "ZeroPad2d" | "ReflectionPad2d" | "ReplicationPad2d" | "ConstantPad2d" => Layer::Pad {
            nd: 2,
            amounts: match args.get(0, "padding") {
                Some(v @ Value::Int(_)) => vec![int(v).and_then(|i| u64::try_from(i).ok()); 4],
                Some(Value::Tuple(Seq::Exact(items))) if items.len() == 4 => items
                    .iter()
                    .map(|v| int(v).and_then(|i| u64::try_from(i).ok()))
                    .collect(),
                _ => return Value::Top,
            },
        },
        "PixelShuffle" => Layer::PixelShuffle(
            args.get(0, "upscale_factor")
                .and_then(int)
                .and_then(|r| u64::try_from(r).ok()),
        ),
        "Sequential" => {
            if args.pos.is_empty() {
                // `nn.Sequential()`: the identity, until children are added.
                return Value::Layer(Arc::new(Layer::Sequential(Arc::new([]), Arc::new([]))));
            }
            if args.pos.iter().any(|v| !callable(v)) {
                return Value::Top;
            }
            let names = (0..args.pos.len()).map(|i| i.to_string().into()).collect();
            Layer::Sequential(args.pos.clone().into(), names)
        }
        // `nn.Parameter(torch.zeros(1, n, d))`: a tensor of its data's shape.
        "Parameter" => {
            return match args.get(0, "data") {
                Some(t @ Value::Tensor(_)) => t.clone(),
                _ => Value::Top,
            };
        }
        // `interp/call.rs` makes a `ModuleList` the list it is given (a `ModuleDict` its dict).
        "ModuleList" | "ModuleDict" => return Value::Top,
        "Dropout1d" | "Dropout2d" | "Dropout3d" => Layer::FeatureDropout,
        "Identity" | "Dropout" | "AlphaDropout" | "ReLU" | "ReLU6" | "LeakyReLU" | "PReLU"
        | "ELU" | "SELU" | "CELU" | "GELU" | "SiLU" | "Mish" | "Sigmoid" | "Tanh" | "Hardtanh"
        | "Hardswish" | "Hardsigmoid" | "Softplus" | "Softmax" | "LogSoftmax" | "RMSNorm"
        | "Softmax2d" | "Softsign" | "Tanhshrink" | "Threshold" | "LogSigmoid" | "Softmin"
        | "Hardshrink" | "Softshrink" | "RReLU" | "SyncBatchNorm" | "LocalResponseNorm" => {
            Layer::Same
        }
        "GroupNorm" => Layer::GroupNorm(dim(args.get(1, "num_channels"))),
        "InstanceNorm1d" | "InstanceNorm2d" | "InstanceNorm3d" => {
            Layer::InstanceNorm(super::instance_norm::construct(conv_nd(short), args))
        }
        "Unflatten" => match (
            args.get(0, "dim").and_then(int),
            args.get(1, "unflattened_size")
                .and_then(super::ops::seq_ints),
        ) {
            (Some(dim), Some(sizes)) => Layer::Unflatten { dim, sizes },
            _ => return Value::Top,
        },
        "RNNCell" | "LSTMCell" | "GRUCell" => match super::cells::construct(short, args) {
            Some(l) => l,
            None => return Value::Top,
        },
        "MultiheadAttention"
        | "TransformerEncoderLayer"
        | "TransformerDecoderLayer"
        | "TransformerEncoder"
        | "TransformerDecoder"
        | "Transformer" => match super::attention::construct(short, args) {
            Some(l) => l,
            None => return Value::Top,
        },
        "MSELoss" | "L1Loss" | "SmoothL1Loss" | "BCELoss" | "BCEWithLogitsLoss"
        | "CrossEntropyLoss" | "NLLLoss" => {
            let rule = match short {
                "BCELoss" => Rule::Bce,
                "BCEWithLogitsLoss" => Rule::BceLogits,
                "CrossEntropyLoss" | "NLLLoss" => Rule::CrossEntropy,
                _ => Rule::PointwiseLoss,
            };
            let reduced = match args.kw("reduction") {
                None => Some(true),
                Some(Value::Str(Some(s))) => Some(&**s != "none"),
                Some(_) => None,
            };
            Layer::Loss(rule, reduced)
        }
        _ => return Value::Top,
    };
    Value::Layer(Arc::new(layer))
}

/// Can `v` be a child of `nn.Sequential` whose call the analysis follows?
fn callable(v: &Value) -> bool {
    matches!(v, Value::Layer(_) | Value::Instance(_) | Value::Top)
}

impl<'a> Interp<'a> {
    /// `layer(args)`.
    pub(crate) fn call_layer(
        &mut self,
        layer: &Layer,
        args: Args,
        range: TextRange,
        st: &mut State,
    ) -> Value {
        match layer {
            Layer::Either(alternatives) => self.call_either(alternatives, args, range, st),
            Layer::Sequential(children, _) => {
                let mut x = match args.pos.as_slice() {
                    [x] if args.kw.is_empty() => x.clone(),
                    _ => return Value::Top,
                };
                for c in children.iter() {
                    if matches!(x, Value::Top) || self.raised {
                        return Value::Top;
                    }
                    let a = Args {
                        pos: vec![x],
                        ..Args::default()
                    };
                    x = self.call_value(c, a, range, st);
                }
                x
            }
            Layer::Attention(a) => self.attention_forward(a, &args, range),
            Layer::Cell(c) => self.cell_forward(c, &args, range),
            Layer::Transformer(t) => self.transformer_forward(t, &args, range, st),
            Layer::Unflatten { dim, sizes } => match args.pos.first().and_then(super::dims) {
                Some(d) => {
                    let d = d.to_vec();
                    self.torch_unflatten(&d, *dim, sizes, range)
                }
                None => Value::Top,
            },
            Layer::TransformerLayer { d_model } => {
                self.transformer_layer_forward(d_model, &args, range)
            }
            Layer::Stack { layer, times, norm } => {
                self.stack_forward(layer, *times, norm.as_ref(), args, range, st)
            }
            Layer::GroupNorm(c) => match args.pos.first() {
                Some(Value::Tensor(s)) => match s.dims() {
                    Some(d) if d.len() >= 2 => {
                        if let (Some(want), Some(got)) = (c.known(), d[1].known())
                            && want != got
                        {
                            return self.torch_error(
                                range,
                                "W521",
                                Exc::Runtime,
                                format!(
                                    "Expected weight to be a vector of size equal to the number of channels in input, but got weight of shape [{want}] and input of shape {}",
                                    list(d)
                                ),
                            );
                        }
                        Value::Tensor(s.clone())
                    }
                    _ => Value::Tensor(s.clone()),
                },
                _ => Value::Top,
            },
            Layer::Loss(rule, reduced) => match (args.pos.first(), args.get(1, "target")) {
                (Some(a), Some(b)) => self.torch_loss(*rule, a, b, *reduced, range),
                _ => Value::Top,
            },
            Layer::Rnn { lstm, .. } => match args.pos.first() {
                Some(Value::Tensor(s)) => {
                    let out = self.rnn_forward(layer, s, range);
                    // The initial state, when given, must be the state the layer returns.
                    let given = match args.get(1, "hx") {
                        Some(Value::Tuple(Seq::Exact(hc))) if *lstm => hc.first().cloned(),
                        Some(h @ Value::Tensor(_)) if !*lstm => Some(h.clone()),
                        _ => None,
                    };
                    let want = match &out {
                        Value::Tuple(Seq::Exact(o)) => match o.get(1) {
                            Some(Value::Tuple(Seq::Exact(hc))) => hc.first().cloned(),
                            h => h.cloned(),
                        },
                        _ => None,
                    };
                    if let (Some(Value::Tensor(g)), Some(Value::Tensor(w))) = (&given, &want)
                        && let (Some(g), Some(w)) = (g.dims(), w.dims())
                        && (g.len() != w.len()
                            || g.iter().zip(w).any(|(a, b)| a.same(b) == Tri::No))
                        && w.iter().all(|d| d.known().is_some())
                    {
                        let ws: Vec<String> = w.iter().map(ToString::to_string).collect();
                        let which = if *lstm { "hidden[0]" } else { "hidden" };
                        return self.torch_error(
                            range,
                            "W521",
                            Exc::Runtime,
                            format!("Expected {which} size ({}), got {}", ws.join(", "), list(g)),
                        );
                    }
                    out
                }
                _ => Value::Top,
            },
            _ => match args.pos.first() {
                Some(Value::Tensor(s)) => self.layer_forward_shape(layer, s, range),
                _ => Value::Top,
            },
        }
    }

    fn rnn_forward(&mut self, layer: &Layer, s: &Shape, range: TextRange) -> Value {
        let Layer::Rnn {
            lstm,
            input,
            hidden,
            layers,
            batch_first,
            bidirectional,
        } = layer
        else {
            return Value::Top;
        };
        let Some(d) = s.dims() else {
            return Value::Top;
        };
        if !(d.len() == 2 || d.len() == 3) {
            return Value::Top;
        }
        let last = &d[d.len() - 1];
        if last.same(input) == Tri::No {
            return self.torch_error(
                range,
                "W521",
                Exc::Runtime,
                format!("input.size(-1) must be equal to input_size. Expected {input}, got {last}"),
            );
        }
        let (Some(layers), Some(batch_first), Some(bi)) = (layers, batch_first, bidirectional)
        else {
            return Value::Top;
        };
        let dirs = if *bi { 2 } else { 1 };
        let feat = match hidden.known() {
            Some(h) => Dim::Known(h * dirs),
            None => Dim::Unknown,
        };
        let (out, h) = if d.len() == 3 {
            let (n, l) = if *batch_first {
                (&d[0], &d[1])
            } else {
                (&d[1], &d[0])
            };
            let out = if *batch_first {
                vec![n.clone(), l.clone(), feat]
            } else {
                vec![l.clone(), n.clone(), feat]
            };
            (
                out,
                vec![Dim::Known(dirs * layers), n.clone(), hidden.clone()],
            )
        } else {
            (
                vec![d[0].clone(), feat],
                vec![Dim::Known(dirs * layers), hidden.clone()],
            )
        };
        let state = if *lstm {
            Value::Tuple(Seq::Exact(vec![tensor(h.clone()), tensor(h)].into()))
        } else {
            tensor(h)
        };
        Value::Tuple(Seq::Exact(vec![tensor(out), state].into()))
    }

    /// The output of a single-input layer on a tensor of shape `s`.
    pub(crate) fn layer_forward_shape(
        &mut self,
        layer: &Layer,
        s: &Shape,
        range: TextRange,
    ) -> Value {
        let Some(d) = s.dims() else {
            return Value::Tensor(Shape::AnyRank);
        };
        let rank = d.len();
        match layer {
            Layer::Same => Value::Tensor(s.clone()),
            Layer::FeatureDropout if rank < 2 => self.torch_error(
                range,
                "W521",
                Exc::Runtime,
                "Feature dropout requires at least 2 dimensions in the input".to_owned(),
            ),
            Layer::FeatureDropout => Value::Tensor(s.clone()),
            Layer::Linear { inp, out, bias } => {
                let Some(last) = d.last() else {
                    return Value::Top;
                };
                if last.same(inp) == Tri::No {
                    let rows = d[..rank - 1]
                        .iter()
                        .try_fold(1u64, |acc, x| x.known().map(|k| acc * k))
                        .map_or("?".to_owned(), |r| r.to_string());
                    let op = if *bias { "addmm" } else { "mm" };
                    return self.torch_error(
                        range,
                        "W520",
                        Exc::Runtime,
                        format!("{op}: mat1 and mat2 shapes cannot be multiplied ({rows}x{last} and {inp}x{out})"),
                    );
                }
                let mut o = d[..rank - 1].to_vec();
                o.push(out.clone());
                tensor(o)
            }
            Layer::Conv {
                nd,
                inp,
                out,
                kernel,
                stride,
                padding,
                dilation,
                groups,
                transposed,
                output_padding,
            } => {
                let nd = *nd;
                if rank != nd + 1 && rank != nd + 2 {
                    let msg = format!(
                        "Expected {}D (unbatched) or {}D (batched) input to conv{}{nd}d, but got input of size: {}",
                        nd + 1,
                        nd + 2,
                        if *transposed { "_transpose" } else { "" },
                        list(d)
                    );
                    return self.torch_error(range, "W521", Exc::Runtime, msg);
                }
                let c = &d[rank - nd - 1];
                if c.same(inp) == Tri::No {
                    let show = |x: &Option<u64>| x.map_or("?".to_owned(), |k| k.to_string());
                    let g = groups.map_or("?".to_owned(), |g| g.to_string());
                    let per_group = |x: &Dim| match (x.known(), groups) {
                        (Some(x), Some(g)) if *g > 0 => (x / g).to_string(),
                        _ => "?".to_owned(),
                    };
                    let ks: Vec<String> = kernel.iter().map(show).collect();
                    let weight = if *transposed {
                        format!("[{inp}, {}, {}]", per_group(out), ks.join(", "))
                    } else {
                        format!("[{out}, {}, {}]", per_group(inp), ks.join(", "))
                    };
                    let mut shown = d.to_vec();
                    if rank == nd + 1 {
                        shown.insert(0, Dim::Known(1));
                    }
                    let head = if *transposed {
                        "Given transposed=1".to_owned()
                    } else {
                        format!("Given groups={g}")
                    };
                    return self.torch_error(
                        range,
                        "W521",
                        Exc::Runtime,
                        format!(
                            "{head}, weight of size {weight}, expected input{} to have {inp} channels, but got {c} channels instead",
                            list(&shown)
                        ),
                    );
                }
                let spatial = &d[rank - nd..];
                let mut o = d[..rank - nd].to_vec();
                let last = o.len() - 1;
                o[last] = out.clone();
                let pads: Ints = match padding {
                    Padding::Ints(p) => p.clone(),
                    Padding::Valid => vec![Some(0); nd],
                    Padding::Same => {
                        o.extend(spatial.iter().cloned());
                        return tensor(o);
                    }
                };
                let mut padded_all = Vec::new();
                let mut eff_all = Vec::new();
                let mut too_small = false;
                for i in 0..nd {
                    let (Some(l), Some(k), Some(s), Some(p), Some(dl)) = (
                        spatial[i].known(),
                        kernel[i],
                        stride[i],
                        pads[i],
                        dilation[i],
                    ) else {
                        o.push(Dim::Unknown);
                        continue;
                    };
                    let eff = dl * (k.max(1) - 1) + 1;
                    if *transposed {
                        let op = output_padding[i].unwrap_or(0);
                        let n = (l as i64 - 1) * s as i64 - 2 * p as i64 + eff as i64 + op as i64;
                        o.push(if n > 0 {
                            Dim::Known(n as u64)
                        } else {
                            Dim::Unknown
                        });
                        continue;
                    }
                    let padded = l + 2 * p;
                    padded_all.push(padded);
                    eff_all.push(eff);
                    if padded < eff {
                        too_small = true;
                    }
                    o.push(
                        match (padded.checked_sub(eff)).and_then(|n| n.checked_div(s)) {
                            Some(n) => Dim::Known(n + 1),
                            None => Dim::Unknown,
                        },
                    );
                }
                if too_small && padded_all.len() == nd {
                    let j =
                        |v: &[u64]| v.iter().map(u64::to_string).collect::<Vec<_>>().join(" x ");
                    return self.torch_error(
                        range,
                        "W526",
                        Exc::Runtime,
                        format!(
                            "Calculated padded input size per channel: ({}). Kernel size: ({}). Kernel size can't be greater than actual input size",
                            j(&padded_all),
                            j(&eff_all)
                        ),
                    );
                }
                tensor(o)
            }
            Layer::BatchNorm { nd, n, tracks } => {
                let ok = match nd {
                    1 => rank == 2 || rank == 3,
                    k => rank == k + 2,
                };
                if !ok {
                    let want = match nd {
                        1 => "2D or 3D".to_owned(),
                        k => format!("{}D", k + 2),
                    };
                    return self.torch_error(
                        range,
                        "W521",
                        Exc::Value,
                        format!("expected {want} input (got {rank}D input)"),
                    );
                }
                if *tracks && d[1].same(n) == Tri::No {
                    return self.torch_error(
                        range,
                        "W521",
                        Exc::Runtime,
                        format!("running_mean should contain {} elements not {n}", d[1]),
                    );
                }
                Value::Tensor(s.clone())
            }
            Layer::InstanceNorm(l) => self.instance_norm_forward(l, s, d, range),
            Layer::LayerNorm { shape } => {
                let k = shape.len();
                let bad = rank < k
                    || d[rank - k..]
                        .iter()
                        .zip(shape)
                        .any(|(a, b)| a.same(b) == Tri::No);
                if bad
                    && (rank < k
                        || d[rank - k..]
                            .iter()
                            .zip(shape)
                            .all(|(a, b)| a.same(b) != Tri::Maybe))
                {
                    let parts: Vec<String> = shape.iter().map(ToString::to_string).collect();
                    return self.torch_error(
                        range,
                        "W521",
                        Exc::Runtime,
                        format!(
                            "Given normalized_shape={}, expected input with shape [*, {}], but got input of size{}",
                            list(shape),
                            parts.join(", "),
                            list(d)
                        ),
                    );
                }
                Value::Tensor(s.clone())
            }
            Layer::Embedding { dim, .. } => {
                let mut o = d.to_vec();
                o.push(dim.clone());
                tensor(o)
            }
            Layer::Pool {
                nd,
                max,
                kernel,
                stride,
                padding,
                dilation,
                ceil,
            } => {
                let nd = *nd;
                if rank != nd + 1 && rank != nd + 2 {
                    if nd == 2 && *max {
                        return self.torch_error(
                            range,
                            "W521",
                            Exc::Runtime,
                            "non-empty 3D or 4D (batch mode) tensor expected for input".to_owned(),
                        );
                    }
                    return Value::Top;
                }
                // Padding may be at most half the (dilated) kernel.
                for i in 0..nd {
                    if let (Some(k), Some(p), Some(dl)) = (kernel[i], padding[i], dilation[i])
                        && k >= 1
                        && p > ((k - 1) * dl).div_ceil(2)
                    {
                        return self.torch_error(
                            range,
                            "W521",
                            Exc::Runtime,
                            format!(
                                "pad should be at most half of effective kernel size, but got pad={p}, kernel_size={k} and dilation={dl}"
                            ),
                        );
                    }
                }
                let spatial = &d[rank - nd..];
                let mut o = d[..rank - nd].to_vec();
                let mut outs: Vec<i64> = Vec::new();
                for i in 0..nd {
                    let (Some(l), Some(k), Some(s), Some(p), Some(dl), Some(ceil)) = (
                        spatial[i].known(),
                        kernel[i],
                        stride[i],
                        padding[i],
                        dilation[i],
                        ceil,
                    ) else {
                        o.push(Dim::Unknown);
                        continue;
                    };
                    if s == 0 {
                        o.push(Dim::Unknown);
                        continue;
                    }
                    let num = l as i64 + 2 * p as i64 - dl as i64 * (k as i64 - 1) - 1;
                    let s = s as i64;
                    let mut n = if *ceil {
                        num.div_euclid(s) + i64::from(num.rem_euclid(s) != 0) + 1
                    } else {
                        num.div_euclid(s) + 1
                    };
                    if *ceil && (n - 1) * s >= l as i64 + p as i64 {
                        n -= 1;
                    }
                    outs.push(n);
                    o.push(if n > 0 {
                        Dim::Known(n as u64)
                    } else {
                        Dim::Unknown
                    });
                }
                if outs.len() == nd && outs.iter().any(|n| *n <= 0) {
                    let c = d[rank - nd - 1].clone();
                    let ins: Vec<String> = std::iter::once(c.to_string())
                        .chain(spatial.iter().map(ToString::to_string))
                        .collect();
                    let outs: Vec<String> = std::iter::once(c.to_string())
                        .chain(outs.iter().map(ToString::to_string))
                        .collect();
                    return self.torch_error(
                        range,
                        "W526",
                        Exc::Runtime,
                        format!(
                            "Given input size: ({}). Calculated output size: ({}). Output size is too small",
                            ins.join("x"),
                            outs.join("x")
                        ),
                    );
                }
                tensor(o)
            }
            Layer::Adaptive { nd, out } => {
                if rank != nd + 1 && rank != nd + 2 {
                    return Value::Top;
                }
                let mut o = d[..rank - nd].to_vec();
                for (i, x) in out.iter().enumerate() {
                    o.push(x.clone().unwrap_or_else(|| d[rank - nd + i].clone()));
                }
                tensor(o)
            }
            Layer::Flatten { start, end } => self.flatten_shape(s, *start, *end, range),
            Layer::Upsample { size, scale } => {
                if rank < 3 {
                    return Value::Top;
                }
                let nd = rank - 2;
                let mut o = d[..2].to_vec();
                for i in 0..nd {
                    let x = match (size, scale) {
                        (Some(sz), _) if sz.len() == nd => sz[i].clone(),
                        (Some(sz), _) if sz.len() == 1 => sz[0].clone(),
                        (None, Some(sc)) => {
                            let f = if sc.len() == 1 {
                                sc[0]
                            } else {
                                sc.get(i).copied().flatten()
                            };
                            match (d[2 + i].known(), f.map(f64::from_bits)) {
                                (Some(l), Some(f)) if f > 0.0 => {
                                    Dim::Known((l as f64 * f).floor() as u64)
                                }
                                _ => Dim::Unknown,
                            }
                        }
                        _ => Dim::Unknown,
                    };
                    o.push(x);
                }
                tensor(o)
            }
            Layer::Pad { nd, amounts } => {
                if rank < *nd {
                    return Value::Top;
                }
                let mut o = d.to_vec();
                // (left, right) pad the last dim, (top, bottom) the one before.
                for (i, pair) in amounts.chunks(2).enumerate() {
                    let j = rank - 1 - i;
                    o[j] = match (d[j].known(), pair[0], pair.get(1).copied().flatten()) {
                        (Some(l), Some(a), Some(b)) => Dim::Known(l + a + b),
                        _ => Dim::Unknown,
                    };
                }
                tensor(o)
            }
            Layer::PixelShuffle(r) => {
                if rank < 3 {
                    return Value::Top;
                }
                let mut o = d.to_vec();
                let (c, h, w) = (rank - 3, rank - 2, rank - 1);
                o[c] = match (d[c].known(), r) {
                    (Some(c), Some(r)) if *r > 0 && c % (r * r) == 0 => Dim::Known(c / (r * r)),
                    _ => return Value::Top,
                };
                for j in [h, w] {
                    o[j] = match (d[j].known(), r) {
                        (Some(l), Some(r)) => Dim::Known(l * r),
                        _ => Dim::Unknown,
                    };
                }
                tensor(o)
            }
            Layer::Loss(..)
            | Layer::Sequential(..)
            | Layer::Either(_)
            | Layer::Rnn { .. }
            | Layer::ModuleList(_)
            | Layer::ModuleDict(_)
            | Layer::GroupNorm(_)
            | Layer::Attention(_)
            | Layer::Cell(_)
            | Layer::Transformer(_)
            | Layer::TransformerLayer { .. }
            | Layer::Stack { .. }
            | Layer::Dataset { .. }
            | Layer::Unflatten { .. }
            | Layer::Loader { .. } => Value::Top,
        }
    }
}
