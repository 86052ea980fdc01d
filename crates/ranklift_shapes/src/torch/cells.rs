//! `nn.RNNCell`, `nn.LSTMCell`, `nn.GRUCell`: one time step of a recurrent layer, the loop over
//! time written by the program (a decoder, a char-RNN sampler).
//!
//! **Trigger:** `cell(x)` or `cell(x, hx)` of a cell the program built (`nn.LSTMCell(10, 20)`),
//! with `hx` a tensor (RNN, GRU) or an `(h, c)` pair (LSTM). **Result:** the next state,
//! `(batch, hidden_size)` (`(hidden_size,)` for an unbatched 1-D input); an `(h, c)` pair of them
//! for an LSTM cell. **Findings**, in the order PyTorch checks (recorded from torch 2.15 in
//! `tests/torch_programs`):
//!
//! ```python
//! cell = nn.LSTMCell(10, 20)
//! cell(torch.randn(3, 11))                 # W521 input has inconsistent input_size: got 11 expected 10
//! cell(torch.randn(2, 3, 10))              # W521 LSTMCell: Expected input to be 1D or 2D, got 3D instead
//! h = torch.zeros(4, 20)
//! cell(torch.randn(3, 10), (h, h))         # W521 Input batch size 3 doesn't match hidden0 batch size 4
//! h = torch.zeros(3, 21)
//! cell(torch.randn(3, 10), (h, h))         # W521 hidden0 has inconsistent hidden_size: got 21, expected 20
//! nn.GRUCell(10, 20)(torch.randn(3, 10), torch.zeros(20))
//!                                          # W521 Expected 2D hidden0 (batch x hidden_size), but got 1D tensor
//! ```
//!
//! Why: the state a cell is handed is built by the program (`torch.zeros(batch, hidden)` before
//! the loop), so its size drifts from the cell's when one of them changes; torch reports it at the
//! first step of the loop. A state of unknown shape, or an `hx` that is neither a tensor nor a
//! pair, leaves what it decides unknown, never an error.

use ruff_text_size::TextRange;

use super::layers::{Layer, dim};
use super::tensor;
use crate::interp::call::Args;
use crate::interp::value::{Seq, Value};
use crate::interp::{Exc, Interp};
use crate::{Dim, Tri};

/// Which cell.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Kind {
    Rnn,
    Lstm,
    Gru,
}

impl Kind {
    fn name(self) -> &'static str {
        match self {
            Kind::Rnn => "RNNCell",
            Kind::Lstm => "LSTMCell",
            Kind::Gru => "GRUCell",
        }
    }
}

/// A cell's constructor arguments that shapes depend on.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Cell {
    pub kind: Kind,
    pub input: Dim,
    pub hidden: Dim,
}

/// The layer of one of this file's classes (`None`: not one of them).
pub fn construct(short: &str, args: &Args) -> Option<Layer> {
    let kind = match short {
        "RNNCell" => Kind::Rnn,
        "LSTMCell" => Kind::Lstm,
        "GRUCell" => Kind::Gru,
        _ => return None,
    };
    Some(Layer::Cell(Cell {
        kind,
        input: dim(args.get(0, "input_size")),
        hidden: dim(args.get(1, "hidden_size")),
    }))
}

impl<'a> Interp<'a> {
    /// `cell(input, hx)`.
    pub(crate) fn cell_forward(&mut self, cell: &Cell, args: &Args, range: TextRange) -> Value {
        let Some(Value::Tensor(s)) = args.pos.first() else {
            return Value::Top;
        };
        let Some(d) = s.dims() else {
            return Value::Top;
        };
        if !(d.len() == 1 || d.len() == 2) {
            return self.torch_error(
                range,
                "W521",
                Exc::Value,
                format!(
                    "{}: Expected input to be 1D or 2D, got {}D instead",
                    cell.kind.name(),
                    d.len()
                ),
            );
        }
        let last = &d[d.len() - 1];
        if last.same(&cell.input) == Tri::No {
            return self.torch_error(
                range,
                "W521",
                Exc::Runtime,
                format!(
                    "input has inconsistent input_size: got {last} expected {}",
                    cell.input
                ),
            );
        }
        let batched = d.len() == 2;
        // The states given, in torch's order (`h`, then `c` for an LSTM cell); unknown ones skipped.
        let given: Vec<Value> = match args.get(1, "hx") {
            None | Some(Value::None) => Vec::new(),
            Some(Value::Tuple(Seq::Exact(hc))) if cell.kind == Kind::Lstm => hc.to_vec(),
            Some(h @ Value::Tensor(_)) if cell.kind != Kind::Lstm => vec![h.clone()],
            Some(_) => return self.cell_state(cell, d, batched),
        };
        for (i, h) in given.iter().enumerate() {
            let Value::Tensor(hs) = h else { continue };
            let Some(hd) = hs.dims() else { continue };
            // An unbatched input's state is unsqueezed with it.
            let rank = hd.len() + usize::from(!batched);
            if rank != 2 {
                return self.torch_error(
                    range,
                    "W521",
                    Exc::Runtime,
                    format!("Expected 2D hidden{i} (batch x hidden_size), but got {rank}D tensor"),
                );
            }
            let (hb, hh) = if batched {
                (&hd[0], &hd[1])
            } else {
                (&Dim::Known(1), &hd[0])
            };
            let b = if batched { &d[0] } else { &Dim::Known(1) };
            if hb.same(b) == Tri::No {
                return self.torch_error(
                    range,
                    "W521",
                    Exc::Runtime,
                    format!("Input batch size {b} doesn't match hidden{i} batch size {hb}"),
                );
            }
            if hh.same(&cell.hidden) == Tri::No {
                return self.torch_error(
                    range,
                    "W521",
                    Exc::Runtime,
                    format!(
                        "hidden{i} has inconsistent hidden_size: got {hh}, expected {}",
                        cell.hidden
                    ),
                );
            }
        }
        self.cell_state(cell, d, batched)
    }

    /// The state a cell returns for input dims `d`.
    fn cell_state(&self, cell: &Cell, d: &[Dim], batched: bool) -> Value {
        let h = if batched {
            tensor(vec![d[0].clone(), cell.hidden.clone()])
        } else {
            tensor(vec![cell.hidden.clone()])
        };
        match cell.kind {
            Kind::Lstm => Value::Tuple(Seq::Exact(vec![h.clone(), h].into())),
            _ => h,
        }
    }
}
