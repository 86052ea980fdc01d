//! Library model: a grouped convolution's constructor checks.
//!
//! **Trigger:** `nn.Conv{1,2,3}d(...)` / `nn.ConvTranspose{1,2,3}d(...)` with known channels
//! and `groups`.
//!
//! **Finding:** the `ValueError` torch's `_ConvNd.__init__` raises before any input, in its
//! order: `groups must be a positive integer`, `in_channels must be divisible by groups`,
//! `out_channels must be divisible by groups` (W521, at the constructor).
//!
//! **Why:** depthwise and grouped convolutions (pooling of attention tokens, MobileNet blocks)
//! take `groups` from a channel count computed elsewhere; a count that does not divide fails
//! when the model is built, before the first batch.
//!
//! ```python
//! nn.Conv3d(48, 48, 3, groups=16)   # fine: 48 = 3 * 16
//! nn.Conv3d(48, 40, 3, groups=16)   # W521 out_channels must be divisible by groups
//! ```
use super::ops::int;
use crate::interp::Exc;
use crate::interp::call::Args;

/// The constructor's error, when the channels and groups are known and torch raises one.
pub fn construct_error(short: &str, args: &Args) -> Option<(Exc, String)> {
    let conv = [
        "Conv1d",
        "Conv2d",
        "Conv3d",
        "ConvTranspose1d",
        "ConvTranspose2d",
        "ConvTranspose3d",
    ];
    if !conv.contains(&short) {
        return None;
    }
    // `groups` is the seventh parameter of both: (in, out, kernel, stride, padding, dilation
    // or output_padding, groups).
    let groups = match args.get(6, "groups") {
        None => 1,
        Some(v) => int(v)?,
    };
    let msg = if groups <= 0 {
        "groups must be a positive integer"
    } else if int(args.get(0, "in_channels")?)? % groups != 0 {
        "in_channels must be divisible by groups"
    } else if int(args.get(1, "out_channels")?)? % groups != 0 {
        "out_channels must be divisible by groups"
    } else {
        return None;
    };
    Some((Exc::Value, msg.to_owned()))
}
