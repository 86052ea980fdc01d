//! `F.conv1d/2d/3d` and `F.conv_transpose1d/2d/3d`: a convolution with the weight given.
//!
//! **Trigger:** `torch.nn.functional.conv2d(input, weight, bias=None, stride=1, padding=0,
//! dilation=1, groups=1)` (and its 1-d and 3-d forms); `conv_transpose2d(input, weight,
//! bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1)`, each argument by
//! position or by name.
//!
//! **Result:** the layer `nn.Conv2d` (`nn.ConvTranspose2d`) would be with that weight —
//! `(out, in / groups, *kernel)` (`(in, out / groups, *kernel)` when transposed) — applied to
//! the input: the same output sizes and the same errors, in torch's words (the module calls
//! the function). Unknown when the weight's shape or an argument is unknown.
//!
//! **Why:** models that compute their own padding call the function from a `Conv2d`
//! subclass's `forward` (EfficientNet's "same" padding: `F.conv2d(x, self.weight,
//! self.bias, self.stride, self.padding, self.dilation, self.groups)`), and weight-standardised
//! or dynamic convolutions do too; left unknown, everything after the first such layer was.
//!
//! ```python
//! w = torch.randn(8, 4, 3, 3)
//! F.conv2d(torch.randn(2, 4, 16, 16), w, padding=1)  # (2, 8, 16, 16)
//! F.conv2d(torch.randn(2, 3, 16, 16), w)  # W521 ... expected input[2, 3, 16, 16] to have 4 channels, but got 3 channels instead
//! ```
use std::sync::Arc;

use ruff_text_size::TextRange;

use crate::interp::Interp;
use crate::interp::call::Args;
use crate::interp::value::{Seq, Value};
use crate::{Dim, Shape};

/// The functional convolutions: name, the layer class it is, transposed.
pub(crate) const CONVOLUTIONS: &[(&str, &str, bool)] = &[
    ("conv1d", "torch.nn.Conv1d", false),
    ("conv2d", "torch.nn.Conv2d", false),
    ("conv3d", "torch.nn.Conv3d", false),
    ("conv_transpose1d", "torch.nn.ConvTranspose1d", true),
    ("conv_transpose2d", "torch.nn.ConvTranspose2d", true),
    ("conv_transpose3d", "torch.nn.ConvTranspose3d", true),
];

impl Interp<'_> {
    /// `F.<name>(input, weight, ...)` for a name of `CONVOLUTIONS`.
    pub(crate) fn conv_functional(&mut self, name: &str, args: &Args, range: TextRange) -> Value {
        let Some(&(_, class, transposed)) = CONVOLUTIONS.iter().find(|(n, ..)| *n == name) else {
            return Value::Top;
        };
        let (Some(Value::Tensor(input)), Some(Value::Tensor(weight))) =
            (args.get(0, "input"), args.get(1, "weight"))
        else {
            return Value::Top;
        };
        let Some(w) = weight.dims() else {
            return Value::Top;
        };
        let nd = class
            .chars()
            .rev()
            .nth(1)
            .and_then(|c| c.to_digit(10))
            .unwrap_or(2) as usize;
        if args.unknown || w.len() != nd + 2 {
            return Value::Top;
        }
        let groups = match args.get(6, "groups") {
            None => Some(1),
            Some(v) => v.as_int().and_then(|i| i.constant()),
        };
        let Some(groups) = groups.filter(|g| *g > 0) else {
            return Value::Top;
        };
        // The layer's channels from the weight: `(out, in / groups, *k)`, transposed
        // `(in, out / groups, *k)`.
        let times = |d: &Dim| match d.known() {
            Some(n) => Dim::Known(n * groups as u64),
            None if groups == 1 => d.clone(),
            None => Dim::Unknown,
        };
        let (inp, out) = if transposed {
            (w[0].clone(), times(&w[1]))
        } else {
            (times(&w[1]), w[0].clone())
        };
        let dim = |d: Dim| match d.known() {
            Some(n) => Value::int(n as i64),
            None => Value::Top,
        };
        let kernel = Value::Tuple(Seq::Exact(
            w[2..].iter().cloned().map(dim).collect::<Vec<_>>().into(),
        ));
        let mut kw: Vec<(Arc<str>, Value)> = vec![
            ("in_channels".into(), dim(inp)),
            ("out_channels".into(), dim(out)),
            ("kernel_size".into(), kernel),
            ("groups".into(), Value::int(groups)),
        ];
        // Positions after `(input, weight, bias)`.
        let named: &[(usize, &str)] = if transposed {
            &[
                (3, "stride"),
                (4, "padding"),
                (5, "output_padding"),
                (7, "dilation"),
            ]
        } else {
            &[(3, "stride"), (4, "padding"), (5, "dilation")]
        };
        for &(i, n) in named {
            if let Some(v) = args.get(i, n) {
                kw.push((n.into(), v.clone()));
            }
        }
        let layer_args = Args {
            pos: Vec::new(),
            kw,
            unknown: false,
        };
        match crate::torch::layers::construct(class, &layer_args) {
            Value::Layer(layer) => self.layer_forward_shape(&layer, &input.clone(), range),
            _ => Value::Tensor(Shape::AnyRank),
        }
    }
}
