//! The truth value of an array: `if a:`, `while a:`, `not a`, `a and b`, `assert a`, `bool(a)`.
//!
//! **Trigger:** an array whose every dimension is known is used as a condition. **Finding:**
//! W514 (certain) when it has more than one element: NumPy refuses to choose between "any" and
//! "all". **Why:** a comparison that was meant for scalars (`if M[i] > M[j]:` after the index
//! lost an axis) fails here. An empty array is left alone (NumPy 1 warns and says `False`;
//! NumPy 2 raises with another message), and so is a dimension the analysis does not know.
//!
//! ```python
//! if np.ones(1) > 0: ...     # fine: one element
//! if np.ones(3) > 0: ...     # W514 The truth value of an array with more than one element is ambiguous. Use a.any() or a.all()
//! ```
use crate::{Outcome, Shape};

pub fn truth(a: &Shape) -> Option<Outcome> {
    match a.size() {
        Some(n) if n > 1 => Some(Outcome::certain(
            "W514",
            "The truth value of an array with more than one element is ambiguous. Use a.any() or a.all()"
                .to_owned(),
        )),
        _ => None,
    }
}
