//! Library model: `a.tolist()` of a NumPy array or a torch tensor.
//!
//! **Trigger:** `.tolist()` with no argument on an array or a tensor whose first size is known.
//!
//! **Result:** a new list with one entry per row: its length is the first size (exact entries,
//! up to 64 of them; beyond, a list of that length). The entries of a 1-d array or tensor are
//! its elements (a number to arithmetic and comparisons, [`Value::Elem`]); those of more
//! dimensions, lists the analysis does not follow. A 0-d array or tensor gives its element.
//!
//! **Why:** models build per-layer settings from a schedule (`dpr = torch.linspace(0, p,
//! depth).tolist()`, `np.linspace(...).tolist()`, then `dpr[i : i + n]` per stage): with an
//! unknown list, the loops over its slices ran on a summary, every layer's stride or index was
//! unknown, and everything after the first stage went dark (torchvision's MaxViT).
//!
//! ```python
//! dpr = np.linspace(0, 0.1, 4).tolist()   # a list of 4 entries
//! for i, p in enumerate(dpr[0:2]):       # unrolled: i is 0, then 1
//!     ...
//! ```
use ruff_text_size::TextRange;

use super::Interp;
use super::state::State;
use super::value::{Int, Seq, Value};

/// Rows up to this many are listed one by one.
const EXACT: u64 = 64;

impl Interp<'_> {
    /// `recv.tolist()`, when the first size of `recv` is known.
    pub(crate) fn tolist(
        &mut self,
        recv: &Value,
        range: TextRange,
        st: &mut State,
    ) -> Option<Value> {
        let dims = match recv {
            Value::Array(s) | Value::Tensor(s) => s.dims()?,
            _ => return None,
        };
        let Some(first) = dims.first() else {
            return Some(Value::Elem);
        };
        let n = first.known()?;
        let entry = if dims.len() == 1 {
            Value::Elem
        } else {
            Value::Top
        };
        let seq = if n <= EXACT {
            Seq::Exact(vec![entry; n as usize].into())
        } else {
            Seq::Summary(Box::new(entry), Int::Const(n as i64))
        };
        Some(self.alloc_list(seq, range.start(), st))
    }
}
