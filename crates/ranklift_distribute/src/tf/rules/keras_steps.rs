//! Rule `keras_steps`: divide `fit`'s step counts among the processes.
//!
//! **Trigger:** `steps_per_epoch=` and `validation_steps=` of `model.fit(...)`.
//!
//! **Rewrite:** `n` becomes `n // hvd.size()` (parenthesised when needed), so N processes together
//! run as many steps per epoch as one did (Horovod's Keras example). `epochs` is left alone.
//!
//! ```python
//! # before
//! model.fit(ds, epochs=5, steps_per_epoch=500)
//! # after
//! model.fit(ds, epochs=5, steps_per_epoch=500 // hvd.size())
//! ```
use ruff_python_ast::Expr;
use ruff_text_size::Ranged;

use crate::tf::context::Cx;

const RULE: &str = "keras_steps";

pub fn run(cx: &mut Cx) {
    let idx = cx.idx;
    for &f in &cx.reach.fits.clone() {
        let c = &idx.calls[f];
        let m = c.scope.module;
        for kw in ["steps_per_epoch", "validation_steps"] {
            let Some(k) = c.call.arguments.find_keyword(kw) else {
                continue;
            };
            if matches!(k.value, Expr::NoneLiteral(_)) {
                continue;
            }
            cx.suffix(m, RULE, &k.value, "// hvd.size()");
            cx.note(
                m,
                RULE,
                k.start(),
                format!("`{kw}={}` divided by hvd.size()", cx.text(m, &k.value)),
            );
            cx.use_hvd(c.scope);
        }
    }
}
