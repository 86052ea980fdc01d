//! Library model: `nn.InstanceNorm{1,2,3}d`, which checks its channels only when it keeps
//! per-channel state.
//!
//! **Trigger:** calling an `nn.InstanceNorm1d/2d/3d(num_features, eps, momentum, affine,
//! track_running_stats)` the program built.
//!
//! **Result:** the input's shape. Batched or not: an `InstanceNorm2d` takes 3 or 4 dims, the
//! channels at dim 0 or 1.
//!
//! **Findings:** another rank (W521, `ValueError`: "expected 3D or 4D input (got 2D input)");
//! with `affine=True`, channels other than `num_features` (W521, `ValueError`: "expected
//! input's size at dim=1 to match num_features (64), but got: 65."); with
//! `track_running_stats=True` alone, the running statistics (one per channel and sample) of the
//! wrong length (W521, `RuntimeError`, in training and evaluation mode alike). Without either
//! torch only warns and normalises whatever it gets: nothing is reported.
//!
//! **Why:** image-to-image GANs build every block as conv → `InstanceNorm2d(c, affine=True,
//! track_running_stats=True)` → ReLU; treated as shape-preserving with no check, a wrong
//! channel count there was reported one layer later, in the next convolution's words, or not
//! at all when the block ended the model.
//!
//! ```python
//! norm = nn.InstanceNorm2d(65, affine=True, track_running_stats=True)
//! norm(torch.randn(2, 64, 16, 16))  # W521 expected input's size at dim=1 to match num_features (65), but got: 64.
//! nn.InstanceNorm2d(65)(torch.randn(2, 64, 16, 16))  # (2, 64, 16, 16): torch warns only
//! ```
use ruff_text_size::TextRange;

use super::layers::dim;
use crate::interp::call::Args;
use crate::interp::value::Value;
use crate::interp::{Exc, Interp};
use crate::{Dim, Shape, Tri};

/// An `InstanceNorm{nd}d` layer: its features and the flags that make torch check them
/// (`None`: the flag's value is unknown).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct InstanceNorm {
    pub nd: usize,
    pub n: Dim,
    pub affine: Option<bool>,
    pub tracks: Option<bool>,
}

/// `nn.InstanceNorm{nd}d(...)` from its arguments.
pub fn construct(nd: usize, args: &Args) -> InstanceNorm {
    let flag = |i, name| match args.get(i, name) {
        None => Some(false),
        Some(v) => v.truth(),
    };
    InstanceNorm {
        nd,
        n: dim(args.get(0, "num_features")),
        affine: flag(3, "affine"),
        tracks: flag(4, "track_running_stats"),
    }
}

impl Interp<'_> {
    /// The layer applied to an input of shape `s` (its dims `d`).
    pub(crate) fn instance_norm_forward(
        &mut self,
        l: &InstanceNorm,
        s: &Shape,
        d: &[Dim],
        range: TextRange,
    ) -> Value {
        let rank = d.len();
        if rank != l.nd + 1 && rank != l.nd + 2 {
            return self.torch_error(
                range,
                "W521",
                Exc::Value,
                format!(
                    "expected {}D or {}D input (got {rank}D input)",
                    l.nd + 1,
                    l.nd + 2
                ),
            );
        }
        let at = rank - l.nd - 1;
        if d[at].same(&l.n) == Tri::No {
            if l.affine == Some(true) {
                return self.torch_error(
                    range,
                    "W521",
                    Exc::Value,
                    format!(
                        "expected input's size at dim={at} to match num_features ({}), but got: {}.",
                        l.n, d[at]
                    ),
                );
            }
            // The running statistics are repeated once per sample.
            let batch = if at == 1 { d[0].known() } else { Some(1) };
            if l.affine == Some(false)
                && l.tracks == Some(true)
                && let (Some(b), Some(got), Some(want)) = (batch, d[at].known(), l.n.known())
            {
                return self.torch_error(
                    range,
                    "W521",
                    Exc::Runtime,
                    format!(
                        "running_mean should contain {} elements not {}",
                        b * got,
                        b * want
                    ),
                );
            }
        }
        Value::Tensor(s.clone())
    }
}
