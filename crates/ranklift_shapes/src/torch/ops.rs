//! Tensor functions and methods: `torch.f(x, ...)`, `x.f(...)` and `F.f(x, ...)`, as a table
//! from each name to the rule its result follows ([`Rule`]), and one small model per rule.
//!
//! **Trigger:** a call of a modelled function or tensor method. **Finding:** the error PyTorch
//! raises, in its words, when every size involved is known and the call certainly fails:
//!
//! ```python
//! a = torch.randn(2, 3)
//! a + torch.randn(2, 4)  # W522 The size of tensor a (3) must match the size of tensor b (4) at non-singleton dimension 1
//! a @ torch.randn(4, 5)  # W520 mm: mat1 and mat2 shapes cannot be multiplied (2x3 and 4x5)
//! a.view(-1, 4)          # W523 shape '[-1, 4]' is invalid for input of size 6
//! torch.cat([a, torch.randn(2, 4)])  # W524 Sizes of tensors must match except in dimension 0. ...
//! a.sum(2)               # W525 Dimension out of range (expected to be in range of [-2, 1], but got 2)
//! ```
//!
//! A size or dim the analysis does not know makes the result unknown where it matters, never
//! an error.

use std::sync::{Arc, LazyLock};

use ruff_text_size::TextRange;

use super::{dims, list, tensor, wrap_dim};
use crate::interp::call::Args;
use crate::interp::state::{FxMap, State};
use crate::interp::value::{Int, Seq, Value};
use crate::interp::{Exc, Interp};
use crate::models::reshape::NewDim;
use crate::{Certainty, Dim, Shape, Tri};

mod shapes;

/// How a function's result follows from its arguments.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Rule {
    /// Sizes as `*size` or one sequence (`torch.zeros(2, 3)`, `torch.zeros((2, 3))`).
    Create,
    /// `torch.full(size, value)`.
    Full,
    /// `torch.randint([low,] high, size)`.
    RandInt,
    /// `torch.arange([start,] end[, step])`.
    Arange,
    /// `torch.linspace(start, end, steps)`.
    Linspace,
    /// `torch.eye(n[, m])`.
    Eye,
    /// `torch.tensor(data)`: the nested sequence's (or array's) shape.
    FromData,
    /// `torch.zeros_like(x)`: `x`'s shape.
    Like,
    /// Element-wise on one tensor.
    Same,
    /// Element-wise, with a `dim` that must exist (`softmax(x, dim=1)`).
    SameDim,
    /// `F.dropout2d`: zeroes whole channels, so the input needs at least 2 dims.
    FeatureDropout,
    /// Element-wise on two operands, broadcasting.
    Broadcast2,
    /// `torch.where(cond, a, b)`.
    Where,
    Matmul,
    Mm,
    Bmm,
    Cat,
    Stack,
    Flatten,
    Reshape,
    Permute,
    Transpose,
    Unsqueeze,
    Squeeze,
    /// `sum`, `mean`, ... over `dim` with `keepdim`.
    Reduce,
    /// `max` / `min` / `median`: with a `dim`, a pair (values, indices).
    ReduceWithIndices,
    /// `argmax` / `argmin`: without `dim`, a 0-d tensor.
    ArgReduce,
    /// `F.max_pool2d` and friends (the dimensionality and whether it is a max pool).
    Pool(usize, bool),
    AdaptivePool(usize),
    Interpolate,
    /// `F.mse_loss`, `F.l1_loss`: broadcasting (with a warning) and a scalar.
    PointwiseLoss,
    /// `F.binary_cross_entropy`: the target's size must be the input's.
    Bce,
    BceLogits,
    /// `F.cross_entropy` / `F.nll_loss`: the batch sizes must agree.
    CrossEntropy,
    /// `split` / `chunk` / `unbind` (`torch/split.rs`).
    Pieces(super::split::Split),
    /// `torch.einsum` (`torch/einsum.rs`).
    Einsum,
    /// `F.scaled_dot_product_attention` (`torch/attention.rs`).
    Sdpa,
    GridSample,
    AffineGrid,
    /// `F.layer_norm(x, normalized_shape, ...)`: `nn.LayerNorm`'s rule.
    LayerNormF,
    /// `F.linear(x, weight, bias)`: `nn.Linear`'s rule with the weight's `(out, in)`.
    LinearF,
    /// `F.conv2d(x, weight, ...)` and the other functional convolutions
    /// (`torch/conv_functional.rs`).
    ConvF,
    /// `x.unflatten(dim, sizes)`: one dim split into several (one may be -1).
    Unflatten,
    /// `sort` / `argsort` / `msort` / `topk` (`torch/sort.rs`).
    Sorting(super::sort::Sort),
    /// `repeat_interleave` (`torch/repeat_interleave.rs`).
    RepeatInterleave,
    /// `_pair(x)` and the other normalisers of `torch.nn.modules.utils` (`torch/ntuple.rs`).
    NTuple,
    /// `_ntuple(n)`: the normaliser of arity `n`.
    NTupleOf,
    /// The first argument, whatever it is (`nn.init.zeros_(b)`, `torch.jit.script(f)`;
    /// `torch/runtime.rs`).
    PassThrough,
    /// `False`: the program runs eagerly (`torch.jit.is_scripting()`).
    Eager,
    /// `None`: no tracer is running (`torch._C._get_tracing_state()`).
    NotTracing,
    /// A bool of unknown value (`torch.cuda.is_available()`).
    AnyBool,
    /// A known object of no shape (`torch.device("cuda")`).
    Opaque,
    /// `F.multi_head_attention_forward` (`torch/attention.rs`).
    MhaForward,
    /// `norm(x, p, dim, keepdim)` (`torch.norm`, `x.norm`, `torch.linalg.norm`,
    /// `vector_norm`): a reduction whose `dim` comes after the order.
    Norm,
    /// `F.pad`, `index_select`, `F.one_hot`, `F.embedding` (`torch/resize.rs`).
    Pad,
    IndexSelect,
    OneHot,
    Embedding,
    /// `torch.meshgrid` (`torch/meshgrid.rs`).
    Meshgrid,
}

use Rule::*;

const TORCH_FUNCTIONS: &[(&[&str], Rule)] = &[
    (&["randn", "rand", "zeros", "ones", "empty"], Create),
    (&["full"], Full),
    (&["randint"], RandInt),
    (&["arange"], Arange),
    (&["linspace", "logspace"], Linspace),
    (&["eye"], Eye),
    (&["tensor", "as_tensor", "from_numpy"], FromData),
    (super::legacy::CONSTRUCTORS, FromData),
    (
        &[
            "zeros_like",
            "ones_like",
            "rand_like",
            "randn_like",
            "empty_like",
            "full_like",
        ],
        Like,
    ),
    (
        &[
            "exp",
            "log",
            "sqrt",
            "rsqrt",
            "abs",
            "sin",
            "cos",
            "tan",
            "tanh",
            "sigmoid",
            "relu",
            "neg",
            "exp2",
            "log1p",
            "expm1",
            "log2",
            "log10",
            "sign",
            "round",
            "floor",
            "ceil",
            "clamp",
            "clip",
            "erf",
            "square",
            "reciprocal",
            "isnan",
            "isinf",
            "isfinite",
            "logical_not",
            "tril",
            "triu",
            "detach",
            "clone",
            "dropout",
            "nan_to_num",
            // Reorderings: the same shape (`flip(x, [0])`, `roll(x, 1, 0)`).
            "flip",
            "fliplr",
            "flipud",
            "roll",
        ],
        Same,
    ),
    (&["softmax", "log_softmax", "cumsum", "cumprod"], SameDim),
    (
        &[
            "add",
            "sub",
            "subtract",
            "mul",
            "multiply",
            "div",
            "divide",
            "true_divide",
            "pow",
            "maximum",
            "minimum",
            "atan2",
            "fmod",
            "remainder",
            "eq",
            "ne",
            "lt",
            "le",
            "gt",
            "ge",
            "logical_and",
            "logical_or",
            "logical_xor",
        ],
        Broadcast2,
    ),
    (&["where"], Where),
    (&["matmul"], Matmul),
    (&["mm"], Mm),
    (&["bmm"], Bmm),
    (&["cat", "concat", "concatenate"], Cat),
    (&["stack"], Stack),
    (&["flatten"], Flatten),
    (&["reshape"], Reshape),
    (&["permute"], Permute),
    (&["transpose", "swapaxes"], Transpose),
    (&["unsqueeze"], Unsqueeze),
    (&["squeeze"], Squeeze),
    (
        &[
            "sum",
            "mean",
            "prod",
            "std",
            "var",
            "amax",
            "amin",
            "logsumexp",
            "all",
            "any",
            "nansum",
            "nanmean",
        ],
        Reduce,
    ),
    (&["max", "min", "median"], ReduceWithIndices),
    (&["argmax", "argmin"], ArgReduce),
    (&["meshgrid"], Meshgrid),
    (&["split"], Pieces(super::split::Split::Split)),
    (&["chunk"], Pieces(super::split::Split::Chunk)),
    (&["tensor_split"], Pieces(super::split::Split::TensorSplit)),
    (&["unbind"], Pieces(super::split::Split::Unbind)),
    (&["einsum"], Einsum),
    (&["unflatten"], Unflatten),
    (&["sort"], Sorting(super::sort::Sort::Sort)),
    (&["argsort"], Sorting(super::sort::Sort::ArgSort)),
    (&["msort"], Sorting(super::sort::Sort::MSort)),
    (&["topk"], Sorting(super::sort::Sort::TopK)),
];

const FUNCTIONAL: &[(&[&str], Rule)] = &[
    (
        &[
            "relu",
            "relu6",
            "elu",
            "selu",
            "celu",
            "gelu",
            "silu",
            "mish",
            "leaky_relu",
            "sigmoid",
            "tanh",
            "softplus",
            "hardtanh",
            "hardswish",
            "hardsigmoid",
            "logsigmoid",
            "dropout",
            "alpha_dropout",
            "normalize",
        ],
        Same,
    ),
    (&["dropout1d", "dropout2d", "dropout3d"], FeatureDropout),
    (&["softmax", "log_softmax", "softmin"], SameDim),
    (&["max_pool1d"], Pool(1, true)),
    (&["max_pool2d"], Pool(2, true)),
    (&["max_pool3d"], Pool(3, true)),
    (&["avg_pool1d"], Pool(1, false)),
    (&["avg_pool2d"], Pool(2, false)),
    (&["avg_pool3d"], Pool(3, false)),
    (
        &["adaptive_avg_pool1d", "adaptive_max_pool1d"],
        AdaptivePool(1),
    ),
    (
        &["adaptive_avg_pool2d", "adaptive_max_pool2d"],
        AdaptivePool(2),
    ),
    (
        &["adaptive_avg_pool3d", "adaptive_max_pool3d"],
        AdaptivePool(3),
    ),
    (&["interpolate", "upsample"], Interpolate),
    (
        &["mse_loss", "l1_loss", "smooth_l1_loss", "huber_loss"],
        PointwiseLoss,
    ),
    (&["binary_cross_entropy"], Bce),
    (&["binary_cross_entropy_with_logits"], BceLogits),
    (&["cross_entropy", "nll_loss"], CrossEntropy),
    (&["scaled_dot_product_attention"], Sdpa),
    (&["grid_sample"], GridSample),
    (&["affine_grid"], AffineGrid),
    (&["multi_head_attention_forward"], MhaForward),
    (&["layer_norm"], LayerNormF),
    (&["linear"], LinearF),
    (
        &[
            "conv1d",
            "conv2d",
            "conv3d",
            "conv_transpose1d",
            "conv_transpose2d",
            "conv_transpose3d",
        ],
        ConvF,
    ),
];

/// Qualified name -> (the same name, interned, and its rule).
static TABLE: LazyLock<FxMap<&'static str, Rule>> = LazyLock::new(|| {
    let mut t = FxMap::default();
    for (prefix, groups) in [
        ("torch", TORCH_FUNCTIONS),
        ("torch.nn.functional", FUNCTIONAL),
        ("torch.autograd", super::legacy::AUTOGRAD),
        ("torch.autograd.variable", super::legacy::AUTOGRAD),
        ("torch.nn.init", super::runtime::INIT),
        ("torch.nn.utils", super::reparam::UTILS),
        (
            "torch.nn.utils.parametrizations",
            super::reparam::PARAMETRIZATIONS,
        ),
        ("torch.jit", super::runtime::JIT),
        ("torch._C", super::runtime::TRACING),
        ("torch.cuda", super::runtime::AVAILABILITY),
        ("torch.cuda", super::runtime::DEVICE_QUERIES),
        ("torch.accelerator", super::runtime::AVAILABILITY),
        ("torch.accelerator", super::runtime::DEVICE_QUERIES),
        ("torch", super::runtime::TORCH),
        ("torch", super::resize::TORCH),
        ("torch", super::repeat_interleave::TORCH),
        ("torch.nn.functional", super::resize::FUNCTIONAL),
        ("torch.linalg", super::resize::LINALG),
        (super::ntuple::MODULE, super::ntuple::UTILS),
    ] {
        for (names, rule) in groups {
            for n in *names {
                // Interned once for the process: the table is fixed.
                let full: &'static str = Box::leak(format!("{prefix}.{n}").into_boxed_str());
                t.insert(full, *rule);
            }
        }
    }
    t
});

/// Tensor methods: the torch functions of the same name (`x.view` is [`Reshape`]).
static METHODS: LazyLock<FxMap<&'static str, Rule>> = LazyLock::new(|| {
    let mut t = FxMap::default();
    for (names, rule) in TORCH_FUNCTIONS
        .iter()
        .chain(super::resize::TORCH)
        .chain(super::repeat_interleave::TORCH)
    {
        for n in *names {
            t.insert(*n, *rule);
        }
    }
    for (n, rule) in [
        ("view", Reshape),
        ("contiguous", Same),
        ("to", Same),
        ("cuda", Same),
        ("cpu", Same),
        ("float", Same),
        ("double", Same),
        ("half", Same),
        ("long", Same),
        ("int", Same),
        ("bool", Same),
        ("type", Same),
        ("type_as", Same),
        ("requires_grad_", Same),
        ("masked_fill", Same),
        ("masked_fill_", Same),
        ("fill_", Same),
        ("zero_", Same),
        ("normal_", Same),
        ("uniform_", Same),
        ("clamp_", Same),
        ("add_", Same),
        ("mul_", Same),
        ("sub_", Same),
        ("div_", Same),
        ("exp_", Same),
        ("sigmoid_", Same),
        ("relu_", Same),
        ("pin_memory", Same),
        ("t", Transpose),
    ] {
        t.insert(n, rule);
    }
    t
});

/// The interned qualified name of a modelled function.
pub fn function(full: &str) -> Option<&'static str> {
    TABLE.get_key_value(full).map(|(k, _)| *k)
}

fn rule(name: &str) -> Option<Rule> {
    TABLE.get(name).copied()
}

/// `x.attr` of a tensor.
pub fn attribute(recv: &Value, attr: &str) -> Value {
    let Value::Tensor(s) = recv else {
        return Value::Top;
    };
    match attr {
        "shape" => crate::interp::shape_tuple(s),
        "ndim" => s.rank().map_or(Value::Top, |r| Value::int(r as i64)),
        "T" | "mT" => match s.dims() {
            Some(d) if attr == "T" => tensor(d.iter().rev().cloned().collect()),
            Some(d) if d.len() >= 2 => {
                let mut d = d.to_vec();
                let n = d.len();
                d.swap(n - 1, n - 2);
                tensor(d)
            }
            _ => Value::Tensor(Shape::AnyRank),
        },
        "data" | "real" | "imag" => recv.clone(),
        "grad" | "device" | "dtype" | "requires_grad" | "is_cuda" | "layout" => Value::Top,
        _ => Value::Method(Box::new(recv.clone()), attr.into()),
    }
}

impl<'a> Interp<'a> {
    /// Report a certain PyTorch error; the result is unknown.
    pub(crate) fn torch_error(
        &mut self,
        range: TextRange,
        code: &'static str,
        exc: Exc,
        msg: String,
    ) -> Value {
        self.report(range, code, exc, msg, Certainty::Certain);
        Value::Top
    }

    /// A call of the modelled function `name` (qualified).
    pub(crate) fn call_torch(
        &mut self,
        name: &'static str,
        args: &Args,
        range: TextRange,
        st: &mut State,
    ) -> Value {
        if name.starts_with("torch.nn.") && name[9..].starts_with(|c: char| c.is_uppercase()) {
            // `nn.Conv2d(4, 8, 3, stride=[2])`: a list of sizes reads as a tuple.
            let args = &self.lists_as_tuples(args.clone(), st);
            if !args.unknown
                && let Some((exc, m)) =
                    super::attention::construct_error(name, args).or_else(|| {
                        super::conv_groups::construct_error(&name["torch.nn.".len()..], args)
                    })
            {
                return self.torch_error(range, "W521", exc, m);
            }
            if name == "torch.nn.Module"
                && args.pos.is_empty()
                && args.kw.is_empty()
                && !args.unknown
            {
                return self.bare_module(range, st);
            }
            return super::layers::construct(name, args);
        }
        match rule(name) {
            Some(r) => self.torch_rule(r, name.rsplit('.').next().unwrap_or(name), args, range, st),
            None => Value::Top,
        }
    }

    /// `x.name(...)` on a tensor.
    pub(crate) fn call_tensor_method(
        &mut self,
        recv: &Value,
        name: &str,
        args: Args,
        range: TextRange,
        st: &mut State,
    ) -> Value {
        let Value::Tensor(s) = recv else {
            return Value::Top;
        };
        let rank = s.rank();
        match name {
            "size" => {
                return match args.get(0, "dim") {
                    None => crate::interp::shape_tuple(s),
                    Some(d) => match (int(d), s.dims()) {
                        (Some(d), Some(dims)) => match wrap_dim(d, dims.len()) {
                            Ok(i) => Value::Int(Int::from_dim(&dims[i])),
                            Err(m) => self.torch_error(range, "W525", Exc::Index, m),
                        },
                        _ => Value::Int(Int::Range(Some(0), None)),
                    },
                };
            }
            "dim" | "ndimension" => return rank.map_or(Value::Top, |r| Value::int(r as i64)),
            "numel" | "nelement" => {
                return s.size().map_or(Value::Int(Int::Range(Some(0), None)), |n| {
                    Value::int(n as i64)
                });
            }
            // A Python number of the tensor's (untracked) dtype: a scalar to arithmetic and
            // comparisons (`drop_path(x, p.item())`, `keep_prob + torch.rand(shape)`).
            "item" => return Value::Elem,
            "tolist" | "backward" | "register_hook" | "data_ptr" | "storage" => {
                return Value::Top;
            }
            "numpy" => return Value::Array(s.clone()),
            "view_as" | "reshape_as" | "expand_as" => {
                return match args.pos.first() {
                    Some(Value::Tensor(t)) if name == "view_as" || name == "reshape_as" => {
                        let want: Vec<NewDim> = match t.dims() {
                            Some(d) => d.iter().cloned().map(NewDim::Size).collect(),
                            None => return Value::Tensor(Shape::AnyRank),
                        };
                        self.torch_reshape(s, &want, range)
                    }
                    Some(Value::Tensor(t)) => {
                        self.torch_expand(s, t.dims().map(<[Dim]>::to_vec), range)
                    }
                    _ => Value::Top,
                };
            }
            "expand" => {
                let sizes = sizes(&args, 0).map(|v| {
                    v.into_iter()
                        .map(|i| match i {
                            Int::Const(-1) => Dim::Sym(Arc::from("-1")),
                            i => i.as_dim(),
                        })
                        .collect()
                });
                return self.torch_expand(s, sizes, range);
            }
            "repeat" => {
                let Some(reps) = sizes(&args, 0) else {
                    return Value::Tensor(Shape::AnyRank);
                };
                let Some(d) = s.dims() else {
                    return Value::Tensor(Shape::AnyRank);
                };
                if reps.len() < d.len() {
                    return Value::Top;
                }
                let pad = reps.len() - d.len();
                let out = reps
                    .iter()
                    .enumerate()
                    .map(|(i, r)| {
                        let base = if i < pad {
                            Dim::Known(1)
                        } else {
                            d[i - pad].clone()
                        };
                        match (base.known(), r.constant()) {
                            (Some(b), Some(r)) if r >= 0 => Dim::Known(b * r as u64),
                            _ => Dim::Unknown,
                        }
                    })
                    .collect();
                return tensor(out);
            }
            "nonzero" | "unique" => {
                return Value::Top;
            }
            // `x.new_full(size, fill)`, `x.new_zeros(2, 3)`, `x.new_tensor(data)`: a new tensor
            // as the torch function of the same kind makes it (the receiver gives only its
            // dtype and device).
            "new_zeros" | "new_ones" | "new_empty" | "new_full" | "new_tensor" => {
                let r = match name {
                    "new_full" => Full,
                    "new_tensor" => FromData,
                    _ => Create,
                };
                return self.torch_rule(r, name, &args, range, st);
            }
            _ => {}
        }
        // An in-place method (`noise.bernoulli_(p)`, `x.div_(s)`, `w.uniform_()`) is its
        // out-of-place rule where torch has one (`unsqueeze_` changes the shape), else the
        // receiver's shape: it writes into the receiver.
        let rule = METHODS.get(name).copied().or_else(|| {
            let base = name
                .strip_suffix('_')
                .filter(|b| !b.is_empty() && !b.ends_with('_'))?;
            // These replace the receiver's shape.
            if matches!(base, "resize" | "resize_as" | "set" | "as_strided") {
                return None;
            }
            Some(METHODS.get(base).copied().unwrap_or(Same))
        });
        let Some(r) = rule else {
            return Value::Top;
        };
        let mut full = args;
        full.pos.insert(0, recv.clone());
        // `x.t()`: transpose of the last two (a 2-d tensor's only) dims.
        if name == "t" {
            full.pos.extend([Value::int(0), Value::int(1)]);
        }
        // `x.flatten()` flattens everything, as `torch.flatten(x)`.
        self.torch_rule(r, name, &full, range, st)
    }

    /// Arithmetic with a tensor operand (`a + b`, `a @ b`).
    pub(crate) fn tensor_binop(
        &mut self,
        matmul_op: bool,
        l: &Value,
        r: &Value,
        range: TextRange,
    ) -> Value {
        // A NumPy scalar (a 0-d array here: `np.log(1 / 0.07)`) is a number to torch.
        let shape = |v: &Value| match v {
            Value::Tensor(s) => Some(s.clone()),
            Value::Int(_) | Value::Float(_) | Value::Bool(_) | Value::Elem => {
                Some(Shape::Known(Vec::new()))
            }
            Value::Array(s) if s.rank() == Some(0) => Some(Shape::Known(Vec::new())),
            _ => None,
        };
        let (Some(a), Some(b)) = (shape(l), shape(r)) else {
            return Value::Top;
        };
        if matmul_op {
            return self.torch_matmul(&a, &b, range);
        }
        self.torch_broadcast(&a, &b, range)
    }

    fn torch_rule(
        &mut self,
        r: Rule,
        short: &str,
        args: &Args,
        range: TextRange,
        st: &mut State,
    ) -> Value {
        let x = args.pos.first();
        let xs = match x {
            Some(Value::Tensor(s)) => Some(s.clone()),
            _ => None,
        };
        match r {
            PassThrough => x.cloned().unwrap_or(Value::Top),
            Eager => Value::Bool(Some(false)),
            NotTracing => Value::None,
            AnyBool => Value::Bool(None),
            Opaque => Value::TorchFunc("torch.device"),
            Pad => super::resize::pad(args),
            MhaForward => super::attention::mha_forward(args),
            Norm => {
                let mut kw = Vec::new();
                for (i, name) in [(2, "dim"), (3, "keepdim")] {
                    if let Some(v) = args.get(i, name) {
                        kw.push((Arc::from(name), v.clone()));
                    }
                }
                let reduce = Args {
                    pos: x.into_iter().cloned().collect(),
                    kw,
                    unknown: args.unknown,
                };
                self.torch_rule(Reduce, short, &reduce, range, st)
            }
            IndexSelect => super::resize::index_select(args),
            OneHot => super::resize::one_hot(args),
            Embedding => super::resize::embedding(args),
            Meshgrid => super::meshgrid::meshgrid(args),
            Pieces(kind) => self.torch_split(kind, args, range),
            Sorting(kind) => self.torch_sort(kind, args, range),
            RepeatInterleave => self.torch_repeat_interleave(args, range),
            NTuple => super::ntuple::ntuple(short, args, st),
            NTupleOf => super::ntuple::ntuple_of(args),
            Einsum => self.torch_einsum(args, range, st),
            Sdpa => self.sdpa(args, range),
            GridSample => self.grid_sample(args, range),
            ConvF => self.conv_functional(short, args, range),
            AffineGrid => self.affine_grid(args, st),
            Unflatten => {
                let Some(d) = xs.as_ref().and_then(Shape::dims).map(<[Dim]>::to_vec) else {
                    return Value::Top;
                };
                let (Some(dim), Some(sizes)) = (
                    args.get(1, "dim").and_then(int),
                    args.get(2, "sizes").and_then(seq_ints),
                ) else {
                    return Value::Tensor(Shape::AnyRank);
                };
                self.torch_unflatten(&d, dim, &sizes, range)
            }
            LayerNormF | LinearF => {
                let Some(s) = xs else { return Value::Top };
                let layer = if r == LayerNormF {
                    match args.get(1, "normalized_shape") {
                        Some(Value::Tuple(Seq::Exact(items))) => super::layers::Layer::LayerNorm {
                            shape: items
                                .iter()
                                .map(|v| v.as_int().map_or(Dim::Unknown, |i| i.as_dim()))
                                .collect(),
                        },
                        Some(v @ Value::Int(_)) => super::layers::Layer::LayerNorm {
                            shape: vec![v.as_int().map_or(Dim::Unknown, |i| i.as_dim())],
                        },
                        _ => return Value::Tensor(s),
                    }
                } else {
                    match args.get(1, "weight").and_then(dims) {
                        Some([out, inp]) => super::layers::Layer::Linear {
                            inp: inp.clone(),
                            out: out.clone(),
                            bias: !matches!(args.get(2, "bias"), None | Some(Value::None)),
                        },
                        _ => return Value::Top,
                    }
                };
                self.layer_forward_shape(&layer, &s, range)
            }
            Create => match sizes(args, 0) {
                Some(v) => tensor(v.iter().map(Int::as_dim).collect()),
                None => Value::Tensor(Shape::AnyRank),
            },
            Full => match args.get(0, "size").map(seq_ints) {
                Some(Some(v)) => tensor(v.iter().map(Int::as_dim).collect()),
                _ => Value::Tensor(Shape::AnyRank),
            },
            RandInt => {
                let size = args.kw("size").or_else(|| {
                    args.pos
                        .iter()
                        .find(|v| matches!(v, Value::Tuple(_) | Value::List(_)))
                });
                match size.and_then(seq_ints) {
                    Some(v) => tensor(v.iter().map(Int::as_dim).collect()),
                    None => Value::Tensor(Shape::AnyRank),
                }
            }
            Arange => {
                // `arange(end)`, `arange(start, end[, step])`; each also by keyword
                // (`arange(0, d, step=2)`: half the size).
                let one = args.pos.len() == 1 && args.kw("end").is_none();
                let is_int = |v: Option<&Value>| matches!(v, Some(Value::Int(_)));
                let (n, all_ints) = if one {
                    let end = args.pos.first();
                    (end.and_then(int).map(|e| (0, e, 1)), is_int(end))
                } else {
                    let (a, b, c) = (
                        args.get(0, "start"),
                        args.get(1, "end"),
                        args.get(2, "step"),
                    );
                    let ints = (
                        a.map_or(Some(0), int),
                        b.and_then(int),
                        c.map_or(Some(1), int),
                    );
                    let n = match ints {
                        (Some(a), Some(b), Some(c)) => Some((a, b, c)),
                        _ => None,
                    };
                    let ok = (a.is_none() || is_int(a)) && is_int(b) && (c.is_none() || is_int(c));
                    (n, ok)
                };
                match n {
                    Some((a, b, c)) if c != 0 && all_ints => tensor(vec![Dim::Known(
                        crate::interp::stmt::range_len(a, b, c) as u64,
                    )]),
                    _ => tensor(vec![Dim::Unknown]),
                }
            }
            Linspace => match args.get(2, "steps").and_then(int) {
                Some(n) if n >= 0 => tensor(vec![Dim::Known(n as u64)]),
                _ => tensor(vec![Dim::Unknown]),
            },
            Eye => {
                let n = args.get(0, "n").and_then(Value::as_int).map(|i| i.as_dim());
                let m = args.get(1, "m").and_then(Value::as_int).map(|i| i.as_dim());
                match n {
                    Some(n) => tensor(vec![n.clone(), m.unwrap_or(n)]),
                    None => Value::Tensor(Shape::AnyRank),
                }
            }
            FromData => {
                // `torch.Tensor(2, 3)` (the legacy constructor) takes sizes.
                if super::legacy::CONSTRUCTORS.contains(&short)
                    && args.pos.iter().all(|v| matches!(v, Value::Int(_)))
                    && !args.pos.is_empty()
                {
                    return tensor(
                        args.pos
                            .iter()
                            .filter_map(Value::as_int)
                            .map(|i| i.as_dim())
                            .collect(),
                    );
                }
                let heap = |a| st.list(a);
                match x.and_then(|v| v.array_shape(&heap)) {
                    Some(s) => Value::Tensor(s),
                    None => Value::Top,
                }
            }
            FeatureDropout => match xs {
                Some(s) if s.rank().is_some_and(|r| r < 2) => self.torch_error(
                    range,
                    "W521",
                    Exc::Runtime,
                    "Feature dropout requires at least 2 dimensions in the input".to_owned(),
                ),
                Some(s) => Value::Tensor(s),
                None => Value::Top,
            },
            Like | Same => match xs {
                Some(s) => Value::Tensor(s),
                None => Value::Top,
            },
            SameDim => {
                let Some(s) = xs else { return Value::Top };
                if let (Some(d), Some(rank)) = (args.get(1, "dim").and_then(int), s.rank())
                    && let Err(m) = wrap_dim(d, rank)
                {
                    return self.torch_error(range, "W525", Exc::Index, m);
                }
                Value::Tensor(s)
            }
            Broadcast2 => match (args.pos.first(), args.get(1, "other")) {
                (Some(a), Some(b)) => self.tensor_binop(false, a, b, range),
                _ => Value::Top,
            },
            Where => {
                let [c, a, b] = [0, 1, 2].map(|i| args.pos.get(i));
                match (c, a, b) {
                    (Some(c), Some(a), Some(b)) => {
                        let ab = self.tensor_binop(false, a, b, range);
                        self.tensor_binop(false, c, &ab, range)
                    }
                    // `torch.where(cond)` is `nonzero(cond, as_tuple=True)`.
                    _ => Value::Top,
                }
            }
            Matmul | Mm | Bmm => match (xs, args.get(1, "mat2").or_else(|| args.get(1, "other"))) {
                (Some(a), Some(Value::Tensor(b))) => {
                    let b = b.clone();
                    match r {
                        Mm if a.rank() != Some(2) || b.rank() != Some(2) => Value::Top,
                        Bmm if a.rank() != Some(3) || b.rank() != Some(3) => Value::Top,
                        _ => self.torch_matmul(&a, &b, range),
                    }
                }
                _ => Value::Top,
            },
            Cat | Stack => {
                let items = match args.get(0, "tensors") {
                    Some(Value::Tuple(Seq::Exact(v))) => v.to_vec(),
                    Some(Value::List(a)) => match st.list(*a) {
                        Some(Seq::Exact(v)) => v.to_vec(),
                        _ => return Value::Top,
                    },
                    _ => return Value::Top,
                };
                let dim = match args.get(1, "dim").or_else(|| args.kw("axis")) {
                    None => Some(0),
                    Some(v) => int(v),
                };
                let shapes: Option<Vec<Vec<Dim>>> =
                    items.iter().map(|v| dims(v).map(<[Dim]>::to_vec)).collect();
                match (shapes, dim) {
                    (Some(shapes), Some(dim)) if !shapes.is_empty() => {
                        if r == Cat {
                            self.torch_cat(&shapes, dim, range)
                        } else {
                            self.torch_stack(&shapes, dim, range)
                        }
                    }
                    _ => Value::Top,
                }
            }
            Flatten => {
                let Some(s) = xs else { return Value::Top };
                let start = args.get(1, "start_dim").map_or(Some(0), int);
                let end = args.get(2, "end_dim").map_or(Some(-1), int);
                match (start, end) {
                    (Some(a), Some(b)) => self.flatten_shape(&s, a, b, range),
                    _ => Value::Tensor(Shape::AnyRank),
                }
            }
            Reshape => {
                let Some(s) = xs else { return Value::Top };
                let mut rest = args.clone();
                rest.pos.remove(0);
                let Some(v) = sizes(&rest, 0).or_else(|| rest.kw("shape").and_then(seq_ints))
                else {
                    return Value::Tensor(Shape::AnyRank);
                };
                let want: Vec<NewDim> = v
                    .iter()
                    .map(|i| match i {
                        Int::Const(-1) => NewDim::Infer,
                        i => NewDim::Size(i.as_dim()),
                    })
                    .collect();
                self.torch_reshape(&s, &want, range)
            }
            Permute => {
                let Some(s) = xs else { return Value::Top };
                let mut rest = args.clone();
                rest.pos.remove(0);
                let Some(order) = sizes(&rest, 0).or_else(|| rest.kw("dims").and_then(seq_ints))
                else {
                    return Value::Tensor(Shape::AnyRank);
                };
                let Some(d) = s.dims() else {
                    return Value::Tensor(Shape::AnyRank);
                };
                let mut out = Vec::new();
                for o in &order {
                    let Some(o) = o.constant() else {
                        return Value::Tensor(Shape::AnyRank);
                    };
                    match wrap_dim(o, d.len()) {
                        Ok(i) => out.push(d[i].clone()),
                        Err(m) => return self.torch_error(range, "W525", Exc::Index, m),
                    }
                }
                if out.len() != d.len() {
                    return Value::Top;
                }
                tensor(out)
            }
            Transpose => {
                let Some(s) = xs else { return Value::Top };
                let (Some(a), Some(b)) = (
                    args.get(1, "dim0").and_then(int),
                    args.get(2, "dim1").and_then(int),
                ) else {
                    return Value::Tensor(Shape::AnyRank);
                };
                let Some(d) = s.dims() else {
                    return Value::Tensor(Shape::AnyRank);
                };
                // `x.t()` of a 0-d or 1-d tensor is itself.
                if short == "t" && d.len() < 2 {
                    return Value::Tensor(s.clone());
                }
                match (wrap_dim(a, d.len()), wrap_dim(b, d.len())) {
                    (Ok(i), Ok(j)) => {
                        let mut d = d.to_vec();
                        if i < d.len() && j < d.len() {
                            d.swap(i, j);
                        }
                        tensor(d)
                    }
                    (Err(m), _) | (_, Err(m)) => self.torch_error(range, "W525", Exc::Index, m),
                }
            }
            Unsqueeze => {
                let Some(s) = xs else { return Value::Top };
                let (Some(k), Some(d)) = (args.get(1, "dim").and_then(int), s.dims()) else {
                    return Value::Tensor(Shape::AnyRank);
                };
                match wrap_dim(k, d.len() + 1) {
                    Ok(i) => {
                        let mut d = d.to_vec();
                        d.insert(i, Dim::Known(1));
                        tensor(d)
                    }
                    Err(m) => self.torch_error(range, "W525", Exc::Index, m),
                }
            }
            Squeeze => {
                let Some(s) = xs else { return Value::Top };
                let Some(d) = s.dims() else {
                    return Value::Tensor(Shape::AnyRank);
                };
                match args.get(1, "dim") {
                    None => {
                        if d.iter().any(|x| x.is_one() == Tri::Maybe) {
                            return Value::Tensor(Shape::AnyRank);
                        }
                        tensor(
                            d.iter()
                                .filter(|x| x.is_one() == Tri::No)
                                .cloned()
                                .collect(),
                        )
                    }
                    Some(v) => match int(v) {
                        Some(k) => match wrap_dim(k, d.len()) {
                            Ok(i) if i < d.len() => match d[i].is_one() {
                                Tri::Yes => {
                                    let mut d = d.to_vec();
                                    d.remove(i);
                                    tensor(d)
                                }
                                Tri::No => Value::Tensor(s.clone()),
                                Tri::Maybe => Value::Tensor(Shape::AnyRank),
                            },
                            Ok(_) => Value::Tensor(s.clone()),
                            Err(m) => self.torch_error(range, "W525", Exc::Index, m),
                        },
                        None => Value::Tensor(Shape::AnyRank),
                    },
                }
            }
            Reduce | ReduceWithIndices | ArgReduce => {
                let Some(s) = xs else { return Value::Top };
                let keep = args.get(2, "keepdim").and_then(Value::truth);
                let dim = args.get(1, "dim");
                let Some(d) = s.dims() else {
                    return Value::Tensor(Shape::AnyRank);
                };
                let axes: Vec<i64> = match dim {
                    None | Some(Value::None) => {
                        return match keep {
                            Some(true) if r != ArgReduce => tensor(vec![Dim::Known(1); d.len()]),
                            _ => tensor(Vec::new()),
                        };
                    }
                    // `x.max(other)`: element-wise.
                    Some(Value::Tensor(_)) if r == ReduceWithIndices => {
                        return self.tensor_binop(
                            false,
                            x.unwrap_or(&Value::Top),
                            &args.pos[1],
                            range,
                        );
                    }
                    Some(v) => match (int(v), seq_ints(v)) {
                        (Some(k), _) => vec![k],
                        (None, Some(ks)) => match ks.iter().map(Int::constant).collect() {
                            Some(ks) => ks,
                            None => return Value::Tensor(Shape::AnyRank),
                        },
                        _ => return Value::Tensor(Shape::AnyRank),
                    },
                };
                let mut drop = Vec::new();
                for a in axes {
                    match wrap_dim(a, d.len()) {
                        Ok(i) => drop.push(i),
                        Err(m) => return self.torch_error(range, "W525", Exc::Index, m),
                    }
                }
                let Some(keep) = keep.or(if args.get(2, "keepdim").is_none() {
                    Some(false)
                } else {
                    None
                }) else {
                    return Value::Tensor(Shape::AnyRank);
                };
                let out: Vec<Dim> = d
                    .iter()
                    .enumerate()
                    .filter_map(|(i, x)| match (drop.contains(&i), keep) {
                        (true, true) => Some(Dim::Known(1)),
                        (true, false) => None,
                        _ => Some(x.clone()),
                    })
                    .collect();
                if r == ReduceWithIndices && drop.len() == 1 {
                    let t = tensor(out);
                    return Value::Tuple(Seq::Exact(vec![t.clone(), t].into()));
                }
                tensor(out)
            }
            Pool(nd, max) => {
                let Some(s) = xs else { return Value::Top };
                let layer = super::layers::pool_from_args(nd, max, args, 1);
                match layer {
                    Some(l) => self.layer_forward_shape(&l, &s, range),
                    None => Value::Tensor(Shape::AnyRank),
                }
            }
            AdaptivePool(nd) => {
                let Some(s) = xs else { return Value::Top };
                match super::layers::adaptive_from_args(nd, args, 1) {
                    Some(l) => self.layer_forward_shape(&l, &s, range),
                    None => Value::Tensor(Shape::AnyRank),
                }
            }
            Interpolate => {
                let Some(s) = xs else { return Value::Top };
                match super::layers::upsample_from_args(args, 1) {
                    Some(l) => self.layer_forward_shape(&l, &s, range),
                    None => Value::Tensor(Shape::AnyRank),
                }
            }
            PointwiseLoss | Bce | BceLogits | CrossEntropy => {
                let (Some(a), Some(b)) = (x, args.get(1, "target")) else {
                    return Value::Top;
                };
                let reduction = match args.kw("reduction") {
                    None => Some(true),
                    Some(Value::Str(Some(s))) if !matches!(&**s, "none" | "mean" | "sum") => {
                        return self.torch_error(
                            range,
                            "W527",
                            Exc::Value,
                            format!("{s} is not a valid value for reduction"),
                        );
                    }
                    Some(Value::Str(Some(s))) => Some(&**s != "none"),
                    Some(_) => None,
                };
                self.torch_loss(r, a, b, reduction, range)
            }
        }
    }
}

/// An int argument's value, when known.
pub(crate) fn int(v: &Value) -> Option<i64> {
    v.as_int().and_then(|i| i.constant())
}

/// The ints of a tuple or `torch.Size` (not a list: the heap is not at hand; lists pass through
/// [`sizes`] from the call's arguments).
pub(crate) fn seq_ints(v: &Value) -> Option<Vec<Int>> {
    match v {
        Value::Tuple(Seq::Exact(items)) => items.iter().map(Value::as_int).collect(),
        Value::Int(i) => Some(vec![i.clone()]),
        _ => None,
    }
}

/// Sizes given from position `from` on: `f(2, 3)` or `f((2, 3))`.
pub(crate) fn sizes(args: &Args, from: usize) -> Option<Vec<Int>> {
    if args.unknown {
        return None;
    }
    let rest = args.pos.get(from..)?;
    match rest {
        [] => args.kw("size").and_then(seq_ints),
        [one @ Value::Tuple(_)] => seq_ints(one),
        _ => rest.iter().map(Value::as_int).collect(),
    }
}

/// `torch.Size([2, 3])`, as PyTorch prints a size in messages.
fn torch_size(d: &[Dim]) -> String {
    format!("torch.Size({})", list(d))
}
