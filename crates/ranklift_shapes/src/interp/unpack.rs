//! Check: unpacking into more or fewer names than the value has items (E018).
//!
//! **Trigger:** `a, b, c = v` (or `for a, b in ...`, `a, *rest = v`) where the number of
//! items of `v` is known: an exact tuple or list, or a tensor or array whose first dim is
//! known — a tensor unpacks along its first dim, each item the rest of its shape.
//!
//! **Finding:** Python's `ValueError`, in its words (`too many values to unpack (expected
//! 3)`, `not enough values to unpack (expected 3, got 2)`, `... (expected at least 3, got
//! 1)` with a starred name).
//!
//! ```python
//! qkv = torch.randn(4, 8, 16, 12)
//! q, k, v = qkv.unbind(0)  # E018 ValueError: too many values to unpack (expected 3)
//! q, k, v, g = qkv         # each (8, 16, 12)
//! ```
//!
//! **Why:** attention code reshapes a fused projection to `(3, ...)` and unpacks query, key
//! and value from it; a wrong leading size is the bug, and the unpacking is where Python
//! stops. A tensor's items were unknown before, so the names bound from it were too.
use ruff_python_ast::Expr;
use ruff_text_size::TextRange;

use super::state::State;
use super::value::{Seq, Value};
use super::{Certainty, Exc, Interp};
use crate::Shape;

/// A tensor or array of more rows than this unpacks into unknown items (no finding).
const MAX_ITEMS: u64 = 64;

impl<'a> Interp<'a> {
    /// The items `v` unpacks into, when their number is known.
    pub(crate) fn unpacked_items(&self, v: &Value, st: &State) -> Option<Vec<Value>> {
        let rows = |d: &[crate::Dim]| {
            let n = d.first()?.known().filter(|n| *n <= MAX_ITEMS)?;
            Some((n as usize, Shape::Known(d[1..].to_vec())))
        };
        match v {
            Value::Tuple(Seq::Exact(items)) => Some(items.to_vec()),
            Value::List(a) => match st.list(*a) {
                Some(Seq::Exact(items)) => Some(items.to_vec()),
                _ => None,
            },
            Value::Instance(_) => match self.named_tuple_items(v, st) {
                Some(Value::Tuple(Seq::Exact(items))) => Some(items.to_vec()),
                _ => None,
            },
            Value::Tensor(s) => {
                let (n, item) = rows(s.dims()?)?;
                Some(vec![Value::Tensor(item); n])
            }
            Value::Array(s) => {
                let (n, item) = rows(s.dims()?)?;
                Some(vec![Value::Array(item); n])
            }
            _ => None,
        }
    }

    /// Report the `ValueError` of unpacking `got` items into `targets` (`star`: the index of
    /// the starred one); true when it raises.
    pub(crate) fn unpack_count_error(
        &mut self,
        targets: &[Expr],
        star: Option<usize>,
        got: usize,
        range: TextRange,
    ) -> bool {
        let expected = targets.len();
        let message = match star {
            None if got > expected => format!("too many values to unpack (expected {expected})"),
            None if got < expected => {
                format!("not enough values to unpack (expected {expected}, got {got})")
            }
            Some(_) if got + 1 < expected => format!(
                "not enough values to unpack (expected at least {}, got {got})",
                expected - 1
            ),
            _ => return false,
        };
        self.report(range, "E018", Exc::Value, message, Certainty::Certain);
        true
    }
}
