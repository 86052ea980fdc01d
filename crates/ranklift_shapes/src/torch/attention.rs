//! Attention: `F.scaled_dot_product_attention`, `nn.MultiheadAttention`, and the transformer
//! layers built on it (`TransformerEncoderLayer`, `TransformerDecoderLayer`,
//! `TransformerEncoder`, `TransformerDecoder`, and `nn.Transformer`: an encoder stack and a
//! decoder stack, `encoder`/`decoder` as attributes).
//!
//! **Trigger:** a call of one of them. **Result:** `sdpa(q, k, v)` is `q`'s shape with `v`'s
//! last dim; `MultiheadAttention` returns `(output, weights)`: the output has the query's
//! shape, the weights are `(N, L, S)` (`(N, heads, L, S)` when not averaged, `None` when
//! `need_weights=False`); the transformer layers keep their input's shape. **Finding:** the
//! errors PyTorch raises: a query whose last dim is not `embed_dim`/`d_model` (W521, torch's
//! `AssertionError`), key and value of different shapes (W521), a query and key whose last
//! dims differ in `sdpa` (W520, the batched matmul's words), an `embed_dim` that `num_heads`
//! does not divide (W521, at the constructor); `nn.Transformer`'s own checks of `src` and
//! `tgt` before the encoder runs:
//!
//! ```python
//! attn = nn.MultiheadAttention(16, 4)
//! attn(torch.randn(5, 2, 12), k, v)  # W521 was expecting embedding dimension of 16, but got 12
//! nn.MultiheadAttention(10, 3)       # W521 embed_dim must be divisible by num_heads
//! model = nn.Transformer(d_model=32, nhead=4)
//! model(torch.randn(9, 2, 32), torch.randn(7, 3, 32))  # W521 the batch number of src and tgt must be equal
//! model(torch.randn(9, 2, 32), torch.randn(7, 2, 31))  # W521 the feature number of src and tgt must be equal to d_model
//! ```
//!
//! Why: transformer blocks are where a `d_model` or a head split goes wrong, and the error
//! shows only when the first batch reaches the layer. An unknown size makes the result's
//! corresponding dim unknown, never an error.

use ruff_text_size::TextRange;

use super::layers::{Layer, dim};
use super::ops::int;
use super::{dims, list, tensor};
use crate::interp::call::Args;
use crate::interp::state::State;
use crate::interp::value::{Seq, Value};
use crate::interp::{Exc, Interp};
use crate::{Dim, Shape, Tri};

/// `nn.MultiheadAttention(embed_dim, num_heads, ..., batch_first=False)`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Attention {
    pub embed: Dim,
    pub heads: Option<u64>,
    /// `kdim`/`vdim` left to `embed_dim`: key and value must have one shape.
    pub same_kv: bool,
    pub batch_first: Option<bool>,
}

/// The error a constructor raises before any input: `embed_dim` not divisible by the heads,
/// GroupNorm's channels not divisible by its groups.
pub fn construct_error(name: &str, args: &Args) -> Option<(Exc, String)> {
    let short = name.strip_prefix("torch.nn.")?;
    let known = |v: Option<&Value>| v.and_then(int).filter(|i| *i > 0);
    match short {
        "MultiheadAttention"
        | "TransformerEncoderLayer"
        | "TransformerDecoderLayer"
        | "Transformer" => {
            let (embed, heads) = match short {
                "MultiheadAttention" => (args.get(0, "embed_dim"), args.get(1, "num_heads")),
                _ => (args.get(0, "d_model"), args.get(1, "nhead")),
            };
            // `nn.Transformer()` defaults to `d_model=512, nhead=8`.
            let (e, h) = match short {
                "Transformer" => (
                    embed.map_or(Some(512), |v| known(Some(v)))?,
                    heads.map_or(Some(8), |v| known(Some(v)))?,
                ),
                _ => (known(embed)?, known(heads)?),
            };
            (e % h != 0).then(|| {
                (
                    Exc::Assertion,
                    "embed_dim must be divisible by num_heads".to_owned(),
                )
            })
        }
        "GroupNorm" => {
            let (g, c) = (
                known(args.get(0, "num_groups"))?,
                known(args.get(1, "num_channels"))?,
            );
            (c % g != 0).then(|| {
                (
                    Exc::Value,
                    format!("num_channels ({c}) must be divisible by num_groups ({g})"),
                )
            })
        }
        _ => None,
    }
}

/// The layer of one of this file's classes (`None`: not one of them, or unknown arguments).
pub fn construct(short: &str, args: &Args) -> Option<Layer> {
    let flag = |name: &str| match args.kw(name) {
        None => Some(false),
        Some(v) => v.truth(),
    };
    Some(match short {
        "MultiheadAttention" => Layer::Attention(Attention {
            embed: dim(args.get(0, "embed_dim")),
            heads: args
                .get(1, "num_heads")
                .and_then(int)
                .and_then(|h| u64::try_from(h).ok()),
            same_kv: [(5, "kdim"), (6, "vdim")].iter().all(|(i, n)| {
                matches!(args.get(*i, n), None | Some(Value::None))
                    || args.get(*i, n).and_then(int).map(|d| d.max(0) as u64)
                        == dim(args.get(0, "embed_dim")).known()
            }),
            batch_first: flag("batch_first"),
        }),
        "TransformerEncoderLayer" | "TransformerDecoderLayer" => Layer::TransformerLayer {
            d_model: dim(args.get(0, "d_model")),
        },
        "TransformerEncoder" | "TransformerDecoder" => {
            let layer = args
                .get(0, "encoder_layer")
                .or_else(|| args.kw("decoder_layer"))?;
            let times = args.get(1, "num_layers").and_then(int)?;
            Layer::Stack {
                layer: layer.clone(),
                // Each layer keeps its input's shape: a few calls show what all of them do.
                times: u64::try_from(times).ok()?.min(4),
                norm: match args.get(2, "norm") {
                    None | Some(Value::None) => None,
                    Some(v) => Some(v.clone()),
                },
            }
        }
        "Transformer" => {
            let d_model = args
                .get(0, "d_model")
                .map_or(Dim::Known(512), |v| dim(Some(v)));
            let depth = |i: usize, name: &str| match args.get(i, name) {
                None => Some(6),
                Some(v) => int(v).and_then(|n| u64::try_from(n).ok()),
            };
            // A custom encoder or decoder (positions 7 and 8) replaces the stack.
            let stack = |custom: Option<&Value>, times: Option<u64>| match custom {
                Some(Value::None) | None => match times {
                    Some(times) => Value::Layer(std::sync::Arc::new(Layer::Stack {
                        layer: Value::Layer(std::sync::Arc::new(Layer::TransformerLayer {
                            d_model: d_model.clone(),
                        })),
                        times: times.min(4),
                        norm: Some(Value::Layer(std::sync::Arc::new(Layer::LayerNorm {
                            shape: vec![d_model.clone()],
                        }))),
                    })),
                    None => Value::Top,
                },
                Some(v) => v.clone(),
            };
            Layer::Transformer(Box::new(Transformer {
                encoder: stack(
                    args.get(7, "custom_encoder"),
                    depth(2, "num_encoder_layers"),
                ),
                decoder: stack(
                    args.get(8, "custom_decoder"),
                    depth(3, "num_decoder_layers"),
                ),
                batch_first: match args.get(10, "batch_first") {
                    None => Some(false),
                    Some(v) => v.truth(),
                },
                d_model,
            }))
        }
        _ => return None,
    })
}

/// `nn.Transformer(d_model, nhead, ...)`: its encoder and decoder stacks (or the custom ones).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Transformer {
    pub d_model: Dim,
    pub batch_first: Option<bool>,
    pub encoder: Value,
    pub decoder: Value,
}

fn tuple(items: Vec<Value>) -> Value {
    Value::Tuple(Seq::Exact(items.into()))
}

impl<'a> Interp<'a> {
    /// A query's last dim must be the layer's embedding dim.
    fn check_embed(&mut self, q: &[Dim], embed: &Dim, range: TextRange) -> bool {
        let e = &q[q.len() - 1];
        if let (Some(want), Some(got)) = (embed.known(), e.known())
            && want != got
        {
            self.torch_error(
                range,
                "W521",
                Exc::Assertion,
                format!("was expecting embedding dimension of {want}, but got {got}"),
            );
            return false;
        }
        true
    }

    /// `attn(query, key, value, need_weights=True, ..., average_attn_weights=True)`.
    pub(crate) fn attention_forward(
        &mut self,
        a: &Attention,
        args: &Args,
        range: TextRange,
    ) -> Value {
        let [q, k, v] = [(0, "query"), (1, "key"), (2, "value")]
            .map(|(i, n)| args.get(i, n).and_then(dims).map(<[Dim]>::to_vec));
        let Some(q) = q.filter(|q| q.len() == 2 || q.len() == 3) else {
            return Value::Top;
        };
        if !self.check_embed(&q, &a.embed, range) {
            return Value::Top;
        }
        if a.same_kv
            && let (Some(k), Some(v)) = (&k, &v)
            && (k.len() != v.len() || k.iter().zip(v).any(|(x, y)| x.same(y) == Tri::No))
        {
            let size = |d: &[Dim]| format!("torch.Size({})", list(d));
            return self.torch_error(
                range,
                "W521",
                Exc::Assertion,
                format!(
                    "key shape {} does not match value shape {}",
                    size(k),
                    size(v)
                ),
            );
        }
        let out = tensor(q.clone());
        let need = match args.get(4, "need_weights") {
            None => Some(true),
            Some(v) => v.truth(),
        };
        let weights = match need {
            Some(false) => Value::None,
            None => Value::Top,
            Some(true) => {
                let batched = q.len() == 3;
                let (seq, batch) = match (batched, a.batch_first) {
                    (false, _) => (0, None),
                    (true, Some(true)) => (1, Some(0)),
                    (true, Some(false)) => (0, Some(1)),
                    (true, None) => return tuple(vec![out, Value::Top]),
                };
                let l = q[seq].clone();
                let s = k
                    .as_ref()
                    .filter(|k| k.len() == q.len())
                    .map_or(Dim::Unknown, |k| k[seq].clone());
                let average = match args.kw("average_attn_weights") {
                    None => Some(true),
                    Some(v) => v.truth(),
                };
                let heads = a.heads.map_or(Dim::Unknown, Dim::Known);
                let mut w: Vec<Dim> = batch.map(|b| q[b].clone()).into_iter().collect();
                match average {
                    Some(true) => {}
                    Some(false) => w.push(heads),
                    None => return tuple(vec![out, Value::Top]),
                }
                w.extend([l, s]);
                tensor(w)
            }
        };
        tuple(vec![out, weights])
    }

    /// A transformer layer: `layer(src)` / `layer(tgt, memory)`.
    pub(crate) fn transformer_layer_forward(
        &mut self,
        d_model: &Dim,
        args: &Args,
        range: TextRange,
    ) -> Value {
        match args.pos.first().and_then(dims) {
            Some(x) if !x.is_empty() => {
                let x = x.to_vec();
                if self.check_embed(&x, d_model, range) {
                    tensor(x)
                } else {
                    Value::Top
                }
            }
            _ => Value::Top,
        }
    }

    /// `nn.Transformer(...)(src, tgt, ...)`: torch's checks of the two inputs, then
    /// `decoder(tgt, encoder(src))`.
    pub(crate) fn transformer_forward(
        &mut self,
        t: &Transformer,
        args: &Args,
        range: TextRange,
        st: &mut State,
    ) -> Value {
        let (Some(src), Some(tgt)) = (args.get(0, "src"), args.get(1, "tgt")) else {
            return Value::Top;
        };
        let (Some(s), Some(g)) = (dims(src), dims(tgt)) else {
            return Value::Top;
        };
        if s.is_empty() || g.len() < 2 {
            return Value::Top;
        }
        if s.len() == 3 {
            let at = match t.batch_first {
                Some(true) => Some(0),
                Some(false) => Some(1),
                None => None,
            };
            if let Some(i) = at
                && s[i].same(&g[i]) == Tri::No
            {
                return self.torch_error(
                    range,
                    "W521",
                    Exc::Runtime,
                    "the batch number of src and tgt must be equal".to_owned(),
                );
            }
        }
        if s[s.len() - 1].same(&t.d_model) == Tri::No || g[g.len() - 1].same(&t.d_model) == Tri::No
        {
            return self.torch_error(
                range,
                "W521",
                Exc::Runtime,
                "the feature number of src and tgt must be equal to d_model".to_owned(),
            );
        }
        let (src, tgt) = (src.clone(), tgt.clone());
        let memory = self.call_value(
            &t.encoder,
            Args {
                pos: vec![src],
                ..Args::default()
            },
            range,
            st,
        );
        if self.raised {
            return Value::Top;
        }
        self.call_value(
            &t.decoder,
            Args {
                pos: vec![tgt, memory],
                ..Args::default()
            },
            range,
            st,
        )
    }

    /// `TransformerEncoder(layer, n)(src, ...)`: the layer `n` times, the other arguments
    /// passed to each call, then the final norm.
    pub(crate) fn stack_forward(
        &mut self,
        layer: &Value,
        times: u64,
        norm: Option<&Value>,
        args: Args,
        range: TextRange,
        st: &mut State,
    ) -> Value {
        let mut args = args;
        if args.pos.is_empty() {
            return Value::Top;
        }
        for _ in 0..times {
            let x = self.call_value(layer, args.clone(), range, st);
            if matches!(x, Value::Top) || self.raised {
                return Value::Top;
            }
            args.pos[0] = x;
        }
        let x = args.pos.swap_remove(0);
        match norm {
            Some(n) => {
                let a = Args {
                    pos: vec![x],
                    ..Args::default()
                };
                self.call_value(n, a, range, st)
            }
            None => x,
        }
    }

    /// `F.scaled_dot_product_attention(q, k, v)`: `(..., L, E) x (..., S, E) x (..., S, Ev)` to
    /// `(..., L, Ev)`. The sizes are checked as PyTorch's math kernel does (a batched matmul
    /// over the flattened leading dims) when the leading dims are all known and equal.
    pub(crate) fn sdpa(&mut self, args: &Args, range: TextRange) -> Value {
        let [q, k, v] = [(0, "query"), (1, "key"), (2, "value")]
            .map(|(i, n)| args.get(i, n).and_then(dims).map(<[Dim]>::to_vec));
        let (Some(q), Some(k), Some(v)) = (q, k, v) else {
            return match args.pos.first() {
                Some(Value::Tensor(_)) => Value::Tensor(Shape::AnyRank),
                _ => Value::Top,
            };
        };
        let n = q.len();
        if n < 3 || k.len() != n || v.len() != n {
            return Value::Top;
        }
        let lead = &q[..n - 2];
        let batch: Option<u64> = lead.iter().map(Dim::known).product();
        let same_lead = [&k, &v].iter().all(|t| {
            t[..n - 2]
                .iter()
                .zip(lead)
                .all(|(a, b)| a.same(b) == Tri::Yes)
        });
        if let Some(b) = batch
            && same_lead
        {
            let bad = |want: &Dim, got: &Dim| matches!((want.known(), got.known()), (Some(x), Some(y)) if x != y);
            // q @ k^T: k's last dim must be q's; then attn @ v: v's rows must be k's.
            let (e, ek) = (&q[n - 1], &k[n - 1]);
            let (s, sv) = (&k[n - 2], &v[n - 2]);
            let pair = if bad(e, ek) {
                Some((e, ek))
            } else if bad(s, sv) {
                Some((s, sv))
            } else {
                None
            };
            if let Some((want, got)) = pair {
                return self.torch_error(
                    range,
                    "W520",
                    Exc::Runtime,
                    format!(
                        "Expected size for first two dimensions of batch2 tensor to be: [{b}, {want}] but got: [{b}, {got}]."
                    ),
                );
            }
        }
        let mut out = q.clone();
        out[n - 1] = v[n - 1].clone();
        tensor(out)
    }
}

/// `F.multi_head_attention_forward(query, key, value, embed_dim_to_check, num_heads, ...,
/// out_proj_weight, ..., need_weights=True, ...)`, the function `nn.MultiheadAttention` runs
/// (called directly by attention pooling heads): sequence-first `(L, N, E)` queries give an
/// `(L, N, E_out)` output, `E_out` the rows of `out_proj_weight`; the weights are `(N, L, S)`
/// (averaged over heads), `None` with `need_weights=False`. Its checks are not modelled.
pub(crate) fn mha_forward(args: &Args) -> Value {
    let q = args.get(0, "query").and_then(dims).map(<[Dim]>::to_vec);
    let k = args.get(1, "key").and_then(dims).map(<[Dim]>::to_vec);
    let out_dim = args
        .get(11, "out_proj_weight")
        .and_then(dims)
        .and_then(|w| w.first().cloned())
        .unwrap_or(Dim::Unknown);
    let (Some(q), Some(k)) = (q, k) else {
        return Value::Top;
    };
    if q.len() != 3 || k.len() != 3 {
        return Value::Top;
    }
    let out = Value::Tensor(Shape::Known(vec![q[0].clone(), q[1].clone(), out_dim]));
    let weights = match args.get(15, "need_weights") {
        Some(Value::Bool(Some(false))) => Value::None,
        Some(Value::Bool(Some(true))) | None => {
            Value::Tensor(Shape::Known(vec![q[1].clone(), q[0].clone(), k[0].clone()]))
        }
        Some(_) => Value::Top,
    };
    Value::Tuple(Seq::Exact(vec![out, weights].into()))
}
