//! `F.grid_sample` and `F.affine_grid`: sample an image at the points of a grid.
//!
//! **Trigger:** `torch.nn.functional.grid_sample(input, grid, ...)`, and
//! `torch.nn.functional.affine_grid(theta, size, ...)` which makes such a grid.
//!
//! **Result (`affine_grid`):** for `size = [N, C, H, W]`, a grid `(N, H, W, 2)`; for
//! `[N, C, D, H, W]`, `(N, D, H, W, 3)` (the sizes as given; theta is not checked).
//!
//! **Result:** for a 4-d input `(N, C, H, W)` and grid `(N, Ho, Wo, 2)`, the output is
//! `(N, C, Ho, Wo)`; for a 5-d input `(N, C, D, H, W)` and grid `(N, Do, Ho, Wo, 3)`,
//! `(N, C, Do, Ho, Wo)`. The input's rank chooses which (torch's order of checks): a grid of
//! the other rank, or whose last size is not 2 (3), raises "expected grid to have size 2 in last
//! dimension"; different batch sizes raise "expected grid and input to have same batch size"
//! (W522, torch's words, checked with torch 2). Unknown when either shape is unknown.
//!
//! **Why:** optical-flow models (RAFT's correlation lookup), spatial transformers and deformable
//! sampling read features through it; without it every layer after the lookup was unknown.
//!
//! ```python
//! F.grid_sample(torch.randn(2, 3, 8, 8), torch.randn(1, 5, 6, 2))   # W522 ... same batch size ...
//! ```
use ruff_text_size::TextRange;

use super::list;
use crate::interp::call::Args;
use crate::interp::state::State;
use crate::interp::value::{Seq, Value};
use crate::interp::{Exc, Interp};
use crate::{Dim, Shape};

impl Interp<'_> {
    pub(crate) fn affine_grid(&mut self, args: &Args, st: &State) -> Value {
        let size = match args.get(1, "size") {
            Some(Value::List(a)) => st.list(*a),
            Some(Value::Tuple(s)) => Some(s.clone()),
            _ => None,
        };
        let Some(Seq::Exact(items)) = size else {
            return Value::Top;
        };
        let dims: Option<Vec<Dim>> = items
            .iter()
            .map(|v| v.as_int().map(|i| i.as_dim()))
            .collect();
        match dims.as_deref() {
            Some([n, _, h, w]) => Value::Tensor(Shape::Known(vec![
                n.clone(),
                h.clone(),
                w.clone(),
                Dim::Known(2),
            ])),
            Some([n, _, d, h, w]) => Value::Tensor(Shape::Known(vec![
                n.clone(),
                d.clone(),
                h.clone(),
                w.clone(),
                Dim::Known(3),
            ])),
            _ => Value::Top,
        }
    }

    pub(crate) fn grid_sample(&mut self, args: &Args, range: TextRange) -> Value {
        let (Some(Value::Tensor(input)), Some(Value::Tensor(grid))) =
            (args.get(0, "input"), args.get(1, "grid"))
        else {
            return Value::Top;
        };
        let (Some(x), Some(g)) = (input.dims(), grid.dims()) else {
            return Value::Tensor(Shape::AnyRank);
        };
        let spatial = match x.len() {
            4 => 2,
            5 => 3,
            _ => return Value::Top,
        };
        let err = |this: &mut Self, m: String| {
            this.torch_error(range, "W522", Exc::Runtime, format!("grid_sampler(): {m}"))
        };
        let last_ok = g.len() == x.len()
            && match g[g.len() - 1] {
                Dim::Known(k) => k == spatial as u64,
                _ => true,
            };
        if !last_ok {
            // A wrong last size is certain only when it is known (or the rank is wrong).
            if g.len() != x.len() || matches!(g[g.len() - 1], Dim::Known(_)) {
                return err(
                    self,
                    format!(
                        "expected grid to have size {spatial} in last dimension, but got grid with sizes {}",
                        list(g)
                    ),
                );
            }
        }
        if let (Dim::Known(a), Dim::Known(b)) = (&x[0], &g[0])
            && a != b
        {
            return err(
                self,
                format!(
                    "expected grid and input to have same batch size, but got input with sizes {} and grid with sizes {}",
                    list(x),
                    list(g)
                ),
            );
        }
        let mut out = vec![x[0].clone(), x[1].clone()];
        out.extend(g[1..g.len() - 1].iter().cloned());
        Value::Tensor(Shape::Known(out))
    }
}
