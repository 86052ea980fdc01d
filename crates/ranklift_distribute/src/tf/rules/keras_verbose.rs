//! Rule `keras_verbose`: Keras progress output from rank 0 only.
//!
//! **Trigger:** `fit`, `evaluate` and `predict` on a Keras model (any statement form, any pattern).
//!
//! **Rewrite:** `verbose=V` (keyword or positional) becomes `verbose=V if hvd.rank() == 0 else 0`;
//! without it, `verbose=1 if hvd.rank() == 0 else 0` is added (Keras's `"auto"` is 1 here).
//! `verbose=0` is left alone. From Horovod's Keras guide.
//!
//! ```python
//! # before
//! model.fit(x, y, epochs=2)
//! # after
//! model.fit(x, y, epochs=2, verbose=1 if hvd.rank() == 0 else 0)
//! ```
use ruff_python_ast::{Expr, Number};
use ruff_text_size::Ranged;

use crate::tf::context::{Cx, add_keyword_edit};

const RULE: &str = "keras_verbose";

pub fn run(cx: &mut Cx) {
    let idx = cx.idx;
    for c in &idx.calls {
        if !cx.reach.scope_reached(c.scope) {
            continue;
        }
        let Expr::Attribute(a) = &*c.call.func else {
            continue;
        };
        let pos = match a.attr.as_str() {
            "fit" => 4,
            "evaluate" => 3,
            "predict" => 2,
            // Keras 2's generator methods (verbose by position in their signatures).
            "fit_generator" => 3,
            "evaluate_generator" | "predict_generator" => 6,
            _ => continue,
        };
        if !idx.is_model_receiver(c.scope, &a.value) {
            continue;
        }
        let m = c.scope.module;
        let v = c
            .call
            .arguments
            .find_keyword("verbose")
            .map(|k| &k.value)
            .or_else(|| c.call.arguments.args.get(pos));
        match v {
            Some(Expr::NumberLiteral(n)) if matches!(&n.value, Number::Int(i) if i.as_u8() == Some(0)) =>
            {
                continue;
            }
            Some(v) => {
                let text = cx.text(m, v).to_owned();
                cx.suffix(m, RULE, v, "if hvd.rank() == 0 else 0");
                cx.note(
                    m,
                    RULE,
                    v.start(),
                    format!("`{}` verbose={text} on rank 0 only", a.attr),
                );
            }
            None => {
                cx.edit(
                    m,
                    RULE,
                    c.call.start(),
                    add_keyword_edit(cx.src(m), c.call, "verbose=1 if hvd.rank() == 0 else 0"),
                    format!("`{}` prints progress on rank 0 only", a.attr),
                );
            }
        }
        cx.use_hvd(c.scope);
    }
}
