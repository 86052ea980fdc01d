//! An array converted to a Python number: `float(a)`, `int(a)`, `complex(a)`, and every
//! function of the `math` module (`math.sqrt(a)`, `math.atan2(a, b)`, ...).
//!
//! **Trigger:** an array whose every dimension is known is passed where Python needs one
//! number. **Finding:** W515 (certain) unless it has exactly one element. **Why:** `math`
//! functions are scalar functions; an index that lost an axis (`math.atan2(M[i], M[k])` for
//! `M[i, j]`) hands them a row. NumPy's wording differs by version: NumPy 1 says "size-1"
//! (but "length-1" for `complex`), NumPy 2 says "length-1".
//!
//! ```python
//! math.sqrt(np.ones(1))        # fine (a 1-element array converts)
//! math.sqrt(np.ones(3))        # W515 only length-1 arrays can be converted to Python scalars
//! float(np.zeros((2, 2)))      # W515 only length-1 arrays can be converted to Python scalars
//! ```
use crate::numpy::NumpyVersion;
use crate::{Outcome, Shape};

/// `complex`: whether the conversion is `complex(a)` (NumPy 1 words it differently).
pub fn to_scalar(a: &Shape, version: NumpyVersion, complex: bool) -> Option<Outcome> {
    match a.size() {
        Some(n) if n != 1 => {
            let size = if complex || version == NumpyVersion::V2 {
                "length-1"
            } else {
                "size-1"
            };
            Some(Outcome::certain(
                "W515",
                format!("only {size} arrays can be converted to Python scalars"),
            ))
        }
        _ => None,
    }
}
