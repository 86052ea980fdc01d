//! Language model: what an uncalled function finds in the libraries it uses.
//!
//! **Trigger:** a function nobody calls (a test, a callback) analysed with unknown arguments;
//! it reads objects the modules it imports built when they were imported (a configuration
//! dict, a registry, a `threading.local()`).
//!
//! **Result:** those objects start as the imports left them: the objects of other modules from
//! the heap of the function's module at its end, as the frozen base of the function's heap (a
//! write copies one object out of it, never the thousands a package's imports made). The function's own module's objects stay
//! unknown — the module's other functions (the tests around it, in any order) may have changed
//! them before it runs.
//!
//! **Why:** every call a test made into a library met the library's own state as unknown:
//! scikit-learn's `get_config()` reads a dict kept in a `threading.local`, and with it unknown
//! each `check_array` took the array-API branch the configuration turns off, parsing two version
//! strings — more than half the steps spent on the package's tests.
//!
//! ```python
//! from sklearn.utils._array_api import get_namespace
//!
//! def test_namespace():
//!     xp, is_array_api = get_namespace(np.zeros(3))  # is_array_api: False (dispatch is off)
//! ```
use std::sync::Arc;

use super::Interp;
use super::state::{FxMap, Heap};

impl Interp<'_> {
    /// The objects of modules other than `module` in `module`'s heap at its end (see the
    /// module's doc); `cache` keeps the last module's, as uncalled functions come in module
    /// order.
    pub(crate) fn library_heap(
        &self,
        module: u32,
        cache: &mut Option<(u32, Arc<Heap>)>,
    ) -> Arc<Heap> {
        if let Some((m, heap)) = cache
            && *m == module
        {
            return heap.clone();
        }
        // The base of the function's heap: never copied, a write copies one object out of it
        // (`interp/sharded.rs`).
        let base: FxMap<_, _> = self.module_heaps[module as usize]
            .iter()
            .flat_map(|end| end.iter())
            .filter(|(a, _)| a.module != module)
            .map(|(a, o)| (*a, o.clone()))
            .collect();
        let heap = Arc::new(Heap::with_base(Arc::new(base)));
        *cache = Some((module, heap.clone()));
        heap
    }
}
