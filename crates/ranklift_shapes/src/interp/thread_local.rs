//! Library model: `threading.local()`.
//!
//! **Trigger:** `threading.local()` (the module imported as `threading`), then its attributes
//! set, read and tested with `hasattr`.
//!
//! **Result:** a namespace that starts with no attributes: an attribute set on it is read back,
//! and `hasattr` of one never set is `False`. The analysis runs one thread, so the values a
//! thread-local holds are those its own thread set.
//!
//! **Why:** libraries keep their configuration per thread (scikit-learn's `get_config()` copies
//! a module-level dict into a `threading.local` on first use). Left unknown, every setting read
//! from it was unknown and both sides of every test on one ran — scikit-learn's array-API
//! dispatch, off by default, parsed two version strings on each `check_array`, more than half
//! the package's analysis.
//!
//! ```python
//! _local = threading.local()
//! if not hasattr(_local, "config"):
//!     _local.config = {"dispatch": False}
//! if _local.config["dispatch"]:  # never taken
//!     ...
//! ```
use super::value::{Builtin, Value};

/// Attribute `attr` of the module `threading`.
pub(crate) fn attribute(attr: &str) -> Value {
    match attr {
        // `argparse.Namespace()`'s model: a namespace whose attributes are all known.
        "local" => Value::Builtin(Builtin::Namespace),
        _ => Value::Top,
    }
}
