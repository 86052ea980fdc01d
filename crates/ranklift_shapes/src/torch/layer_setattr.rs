//! Library model: a program changing a `torch.nn` layer's setting after building it.
//!
//! **Trigger:** `layer.attr = value` on a layer the program built, where `layer` is a name, an
//! attribute, or an item of an `nn.Sequential` (`backbone[i].ceil_mode = True`).
//!
//! **Result:** a pooling layer's `ceil_mode` takes the new bool (unknown if it is); any other
//! setting its forward rule reads (a convolution's `stride`, `padding`, `dilation`, `groups`;
//! a pooling layer's `kernel_size`, `stride`, `padding`, `dilation`; a linear layer's or
//! normalisation's sizes) makes the layer unknown; other attributes (`inplace`, hooks, names
//! of the program's own) change nothing the analysis follows. The changed layer is written
//! back where it was read from — the variable, the attribute, or the Sequential's child.
//!
//! **Why:** SSD patches VGG's third max-pool to round up (`backbone[maxpool3_pos].ceil_mode =
//! True`) so that its first feature map is 38 × 38, not 37 × 37; ignored, every size after it
//! was off by one, and a correct model could have been reported wrong.
//!
//! ```python
//! features = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.MaxPool2d(2))
//! features[1].ceil_mode = True
//! features(torch.zeros(1, 3, 75, 75))   # (1, 8, 38, 38)
//! ```
use std::sync::Arc;

use super::layers::Layer;
use crate::interp::value::Value;

/// What setting `attr` does to a layer.
pub enum Change {
    /// Nothing the analysis follows.
    Unchanged,
    /// The layer with the new setting.
    Changed(Layer),
    /// A setting its forward rule reads, to a value not followed: the layer is unknown.
    Unknown,
}

/// The settings each family's forward rule reads.
const READ_BY_RULE: &[&str] = &[
    "kernel_size",
    "stride",
    "padding",
    "dilation",
    "groups",
    "ceil_mode",
    "output_padding",
    "in_channels",
    "out_channels",
    "in_features",
    "out_features",
    "num_features",
    "normalized_shape",
    "num_embeddings",
    "embedding_dim",
    "output_size",
    "scale_factor",
    "size",
    "start_dim",
    "end_dim",
    "return_indices",
    "batch_first",
];

/// `layer.attr = v`.
pub fn set(layer: &Layer, attr: &str, v: &Value) -> Change {
    match (layer, attr) {
        (Layer::Pool { .. }, "ceil_mode") => match v.truth() {
            Some(b) => {
                let mut new = layer.clone();
                if let Layer::Pool { ceil, .. } = &mut new {
                    *ceil = Some(b);
                }
                Change::Changed(new)
            }
            None => Change::Unknown,
        },
        // A container's child is set through `assign` on the container (`seq.conv = ...`):
        // not followed here.
        (Layer::Sequential(..) | Layer::ModuleList(_) | Layer::ModuleDict(_), _) => Change::Unknown,
        _ if READ_BY_RULE.contains(&attr) => Change::Unknown,
        _ => Change::Unchanged,
    }
}

/// `seq[i] = child` on an `nn.Sequential` with a constant index: the new Sequential.
pub fn with_child(layer: &Layer, index: i64, child: Value) -> Option<Value> {
    let Layer::Sequential(children, names) = layer else {
        return None;
    };
    let n = children.len() as i64;
    let i = usize::try_from(if index < 0 { index + n } else { index }).ok()?;
    if i >= children.len() {
        return None;
    }
    let mut new = children.to_vec();
    new[i] = child;
    Some(Value::Layer(Arc::new(Layer::Sequential(
        new.into(),
        names.clone(),
    ))))
}
