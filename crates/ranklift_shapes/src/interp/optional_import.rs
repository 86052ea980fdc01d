//! Semantics: an optional import that succeeds does not run its `except` branch.
//!
//! **Trigger:** `try:` whose body only imports (and binds constants), with handlers —
//! Python's optional-import idiom — when every name the body imports is one the analysis
//! knows (a modelled library function or module, or one of the program's).
//!
//! **Effect:** the handlers are not run, so what the body bound is what the program has:
//! `SDPA_AVAILABLE` is `True` and `scaled_dot_product_attention` the modelled function, not a
//! join with the fallback's `False` and `None`. When a name stays unknown (a library the
//! analysis does not model: the import may fail), the handlers run as before.
//!
//! **Why:** a speech model picks its attention kernel with `if SDPA_AVAILABLE and ...:`;
//! joined with the fallback, the flag was an unknown bool, the kernel unknown, and every
//! attention block's output unknown.
//!
//! ```python
//! try:
//!     from torch.nn.functional import scaled_dot_product_attention
//!     SDPA_AVAILABLE = True
//! except ImportError:
//!     scaled_dot_product_attention = None
//!     SDPA_AVAILABLE = False
//! # here: SDPA_AVAILABLE is True, scaled_dot_product_attention is torch's
//! ```
use ruff_python_ast::{Expr, Stmt};

use super::Interp;
use super::state::State;
use super::value::Value;

impl Interp<'_> {
    /// Did `body` (a `try:` body that ended normally in `after`, raising nothing the analysis
    /// saw) only import names it knows, and bind constants?
    pub(crate) fn imports_succeeded(&self, body: &[Stmt], after: &State) -> bool {
        let known = |name: &str| {
            after
                .lookup_value(name)
                .is_some_and(|v| !matches!(v, Value::Top))
        };
        !body.is_empty()
            && body.iter().all(|s| match s {
                Stmt::Import(i) => i.names.iter().all(|a| {
                    let bound = a.asname.as_ref().map_or_else(
                        || a.name.as_str().split('.').next().unwrap_or_default(),
                        |n| n.as_str(),
                    );
                    known(bound)
                }),
                Stmt::ImportFrom(i) => i.names.iter().all(|a| {
                    a.name.as_str() != "*" && known(a.asname.as_ref().unwrap_or(&a.name).as_str())
                }),
                Stmt::Assign(a) => {
                    a.targets.iter().all(|t| matches!(t, Expr::Name(_)))
                        && a.value.is_literal_expr()
                }
                Stmt::Pass(_) => true,
                _ => false,
            })
    }
}
