//! The PyTorch library model: what `torch`, `torch.nn` and `torch.nn.functional` do to shapes,
//! and the errors PyTorch raises, in PyTorch's own words (recorded from torch 2.15 in
//! `tests/torch_programs`).
//!
//! - [`ops`]: tensor functions and methods (constructors, element-wise, `matmul`, `view`,
//!   `cat`, reductions, ...), one small model per family;
//! - [`layers`]: `torch.nn` layers: the constructor's arguments kept in a [`layers::Layer`],
//!   the forward rule applied when the program calls it (`self.fc1(x)`);
//! - [`split`] (`split`/`chunk`/`unbind`), [`sort`] (`sort`/`argsort`/`msort`/`topk`),
//!   [`einsum`], [`attention`] (`scaled_dot_product_attention`, `MultiheadAttention`, the
//!   transformer layers, `nn.Transformer`), [`cells`] (`RNNCell`, `LSTMCell`, `GRUCell`),
//!   [`data`] (datasets and `DataLoader` batches), [`setitem`] (`x[idx] = value`): one family
//!   each.
//!
//! A program's own `nn.Module` subclass is a class like any other: `__init__` runs, and calling
//! an instance runs its `forward` (`interp/call.rs`). Everything of torch not modelled here is
//! unknown (never an error): an attribute the table lacks is not reported, since the table is
//! not torch's whole namespace.

pub mod attention;
pub mod autograd_function;
pub mod bare_module;
pub mod cells;
pub mod container_subclass;
pub mod containers;
pub mod conv_functional;
pub mod conv_groups;
pub mod data;
pub mod einsum;
pub mod either;
pub mod grid_sample;
pub mod instance_norm;
pub mod layer_attrs;
pub mod layer_setattr;
pub mod layers;
pub mod legacy;
pub mod meshgrid;
pub mod named_children;
pub mod ntuple;
pub mod ops;
pub mod reparam;
pub mod repeat_interleave;
pub mod resize;
pub mod runtime;
pub mod setitem;
pub mod sort;
pub mod split;
pub mod train_mode;

use crate::interp::value::{ModRef, Value};
use crate::{Dim, Shape};

/// The modules modelled (others under `torch.` are unknown).
const MODULES: &[&str] = &[
    "torch",
    "torch.nn",
    "torch.nn.functional",
    "torch.linalg",
    "torch.utils",
    "torch.utils.data",
    "torch.cuda",
    "torch.autograd",
    "torch.autograd.variable",
    "torch.nn.init",
    // Only the weight reparametrisations (`torch/reparam.rs`); the rest is unknown.
    "torch.nn.utils",
    "torch.nn.utils.parametrizations",
    // Where `torch.nn`'s classes are defined; `torch.nn` re-exports them.
    "torch.nn.parameter",
    "torch.nn.modules",
    // Only the size normalisers (`torch/ntuple.rs`); the rest is unknown.
    ntuple::MODULE,
    "torch.jit",
    "torch.accelerator",
    // Only `torch._C._get_tracing_state()` (`torch/runtime.rs`); the rest is unknown.
    "torch._C",
];

/// `torch.*` module names the interpreter models.
pub fn module(name: &str) -> Option<&'static str> {
    MODULES.iter().copied().find(|m| *m == name).or_else(|| {
        // The files `torch.nn`'s layers and `torch.utils.data`'s classes are defined in
        // (`from torch.nn.modules.batchnorm import BatchNorm2d`, torchvision's spelling): the
        // package that re-exports them.
        ["torch.nn.modules", "torch.utils.data"]
            .into_iter()
            .find(|p| {
                name.strip_prefix(p)
                    .and_then(|r| r.strip_prefix('.'))
                    .is_some_and(|file| {
                        !file.is_empty()
                            && file
                                .bytes()
                                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_')
                    })
            })
    })
}

/// `module.attr` for a modelled torch module: a submodule, a modelled function or class, or
/// unknown.
pub fn module_attr(module: &str, attr: &str) -> Value {
    let full = format!("{module}.{attr}");
    if let Some(m) = self::module(&full) {
        return Value::Module(ModRef::Torch(m));
    }
    if let Some(name) = layers::class(&full).or_else(|| data::class(&full)) {
        return Value::TorchFunc(name);
    }
    // `nn.parameter.Parameter`, `nn.modules.Linear`: the class `torch.nn` re-exports.
    if matches!(module, "torch.nn.parameter" | "torch.nn.modules")
        && let Some(name) = layers::class(&format!("torch.nn.{attr}"))
    {
        return Value::TorchFunc(name);
    }
    if let Some(name) = ops::function(&full) {
        return Value::TorchFunc(name);
    }
    if full == autograd_function::FUNCTION {
        return Value::TorchFunc(autograd_function::FUNCTION);
    }
    if module == "torch" && runtime::DTYPES.contains(&attr) {
        return Value::TorchFunc("torch.dtype");
    }
    // A `torch.jit.ScriptModule` subclass is a module like any other: its scripted methods
    // (`@torch.jit.script_method`, followed as written) compute what eager code would.
    if full == "torch.jit.ScriptModule" {
        return Value::TorchFunc("torch.nn.Module");
    }
    // `torch.cuda.FloatTensor` is `torch.FloatTensor` (on the GPU: same sizes, same rule).
    if module == "torch.cuda"
        && legacy::CONSTRUCTORS.contains(&attr)
        && let Some(name) = ops::function(&format!("torch.{attr}"))
    {
        return Value::TorchFunc(name);
    }
    Value::Top
}

/// PyTorch's list format for sizes: `[2, 3]`.
pub fn list(dims: &[Dim]) -> String {
    let parts: Vec<String> = dims.iter().map(ToString::to_string).collect();
    format!("[{}]", parts.join(", "))
}

/// A tensor's dims when its rank is known.
pub fn dims(v: &Value) -> Option<&[Dim]> {
    match v {
        Value::Tensor(s) => s.dims(),
        _ => None,
    }
}

/// A tensor of the given dims.
pub fn tensor(dims: Vec<Dim>) -> Value {
    Value::Tensor(Shape::Known(dims))
}

/// The one error of `dim` arguments: `Dimension out of range (expected to be in range of
/// [-2, 1], but got 2)`; a 0-d tensor takes dims as if it had one.
pub fn wrap_dim(d: i64, rank: usize) -> Result<usize, String> {
    let r = rank.max(1) as i64;
    if d < -r || d >= r {
        return Err(format!(
            "Dimension out of range (expected to be in range of [{}, {}], but got {d})",
            -r,
            r - 1
        ));
    }
    Ok(if d < 0 { (d + r) as usize } else { d as usize })
}
