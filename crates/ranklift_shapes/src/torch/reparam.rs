//! Library model: weight reparametrisations, which wrap a layer's weight and return the layer.
//!
//! **Trigger:** `torch.nn.utils.weight_norm(module)`, `spectral_norm(module)`,
//! `remove_weight_norm(module)`, `remove_spectral_norm(module)`, and the newer spellings in
//! `torch.nn.utils.parametrizations` (`weight_norm`, `spectral_norm`, `orthogonal`).
//!
//! **Result:** the module given, unchanged for the analysis: torch recomputes the weight from
//! its new parameters before each forward, with the shape the weight had, so every shape the
//! layer produces or checks stays the same.
//!
//! **Why:** audio and GAN models build every convolution as `weight_norm(Conv1d(...))` (a
//! vocoder's generator and discriminators, `norm_f = weight_norm if ... else spectral_norm`);
//! left unknown, each such layer's output was unknown, and the whole model with it.
//!
//! ```python
//! conv = weight_norm(nn.Conv1d(80, 32, 7, padding=3))
//! conv(torch.randn(2, 80, 16))   # (2, 32, 16)
//! conv(torch.randn(2, 64, 16))   # W521 expected input[2, 64, 16] to have 80 channels, but got 64 channels instead
//! ```
use super::ops::Rule;

/// `torch.nn.utils`: the hook-based reparametrisations and their removal.
pub const UTILS: &[(&[&str], Rule)] = &[(
    &[
        "weight_norm",
        "spectral_norm",
        "remove_weight_norm",
        "remove_spectral_norm",
    ],
    Rule::PassThrough,
)];

/// `torch.nn.utils.parametrizations`: the parametrisation-based ones.
pub const PARAMETRIZATIONS: &[(&[&str], Rule)] = &[(
    &["weight_norm", "spectral_norm", "orthogonal"],
    Rule::PassThrough,
)];
