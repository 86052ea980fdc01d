//! Library model: torch's runtime services around the tensors — in-place initialisers,
//! TorchScript markers, device and accelerator queries, dtypes — which decide no shape but,
//! left unknown, hid every value that flowed through them.
//!
//! **Trigger:** `torch.nn.init.*` (`nn.init.zeros_(m.bias)`), `torch.jit.*`
//! (`@torch.jit.ignore`, `if torch.jit.is_scripting():`, `torch.jit.script(fn)`),
//! `torch._C._get_tracing_state()` (torchvision's `_is_tracing()`),
//! `torch.cuda.is_available()`, `torch.accelerator.is_available()` /
//! `current_accelerator()`, `torch.device(...)`, and the dtypes (`torch.float32`, `torch.long`).
//!
//! **Result:** an initialiser returns the tensor it filled; `script` / `ignore` / `unused` /
//! `export` / `trace` return what they were given (a TorchScript marker calls the function with
//! the caller's arguments in eager mode); `is_scripting()` / `is_tracing()` are `False` and
//! `_get_tracing_state()` is `None` (the program runs eagerly — the branch TorchScript or the
//! ONNX tracer takes is not the one it runs); availability
//! queries are a bool of unknown value; a device and a dtype are known objects of no shape.
//!
//! **Why:** `if torch.jit.is_scripting(): ... else: ...` at the top of a `forward` joined an
//! unknown branch into every value after it, and `device = "cuda" if torch.cuda.is_available()
//! else "cpu"` made the device unknown; measured across fetched model repositories, these were
//! the library attributes that left the most expressions unknown.
//!
//! ```python
//! if torch.jit.is_scripting():                 # False: the eager branch is analysed alone
//!     x = self.head_script(x)
//! else:
//!     x = self.head(x)                         # (N, 10)
//! use_accel = torch.accelerator.is_available() # a bool: both branches stay known
//! ```
use super::ops::Rule;

/// `torch.nn.init`: every initialiser fills its first argument in place and returns it.
pub const INIT: &[(&[&str], Rule)] = &[(
    &[
        "uniform_",
        "normal_",
        "trunc_normal_",
        "constant_",
        "ones_",
        "zeros_",
        "eye_",
        "dirac_",
        "xavier_uniform_",
        "xavier_normal_",
        "kaiming_uniform_",
        "kaiming_normal_",
        "orthogonal_",
        "sparse_",
        "uniform",
        "normal",
        "constant",
        "xavier_uniform",
        "xavier_normal",
        "kaiming_uniform",
        "kaiming_normal",
        "orthogonal",
    ],
    Rule::PassThrough,
)];

/// `torch.jit`: markers that hand back what they were given, and the eager-mode queries.
pub const JIT: &[(&[&str], Rule)] = &[
    (
        &[
            "script",
            "ignore",
            "unused",
            "export",
            "trace",
            "script_if_tracing",
        ],
        Rule::PassThrough,
    ),
    (&["is_scripting", "is_tracing"], Rule::Eager),
];

/// `torch._C._get_tracing_state()`: `None` outside the tracer (torchvision's
/// `if torchvision._is_tracing(): return self._onnx_batch_images(...)`).
pub const TRACING: &[(&[&str], Rule)] = &[(&["_get_tracing_state"], Rule::NotTracing)];

/// `torch.cuda` / `torch.accelerator` / `torch.backends.*` availability: a bool.
pub const AVAILABILITY: &[(&[&str], Rule)] = &[(
    &["is_available", "is_bf16_supported", "is_initialized"],
    Rule::AnyBool,
)];

/// `torch.compile(fn)` (eager semantics) and `torch.device(...)`.
pub const TORCH: &[(&[&str], Rule)] = &[
    (&["compile"], Rule::PassThrough),
    (&["device"], Rule::Opaque),
    (
        &["is_grad_enabled", "is_tensor", "is_floating_point"],
        Rule::AnyBool,
    ),
];

/// `torch.accelerator.current_accelerator()` / `torch.cuda.current_device()`: a device.
pub const DEVICE_QUERIES: &[(&[&str], Rule)] =
    &[(&["current_accelerator", "current_device"], Rule::Opaque)];

/// The dtypes: objects of no shape, known (`torch.zeros(3, dtype=torch.long)`).
pub const DTYPES: &[&str] = &[
    "float",
    "float32",
    "float64",
    "double",
    "float16",
    "half",
    "bfloat16",
    "long",
    "int64",
    "int",
    "int32",
    "int16",
    "short",
    "int8",
    "uint8",
    "bool",
    "complex64",
    "complex128",
    "cfloat",
    "cdouble",
    "float8_e4m3fn",
    "float8_e5m2",
];
