//! Rule `keras_load_model`: a model the program saves loads again, on Horovod.
//!
//! **Trigger:** on the Horovod engine, a Keras `fit` program whose `compile` optimizers
//! `keras_distributed_optimizer` wrapped, and a reached `load_model(...)`
//! (`tf.keras.models.load_model`, `keras.saving.load_model`) without `custom_objects`.
//!
//! **Rewrite:** `custom_objects={"Adam": tf.keras.optimizers.Adam}` is added, one entry for
//! each optimizer class the program compiles with.
//!
//! **Why:** Horovod's `DistributedOptimizer` is a subclass made at run time in module
//! `horovod._keras` under the optimizer's own name. A model saved with it in Keras' `.keras`
//! format records that module, and Keras 2 (TensorFlow ≤ 2.15) then refuses to load the file:
//! `TypeError: Could not locate class 'Adam'` — on every rank, after training (`hvd.load_model`
//! looks the classes up by lower-case name and fails the same way). Naming the plain class loads
//! the model with the optimizer's configuration and state, as the original program does. The
//! HDF5 format and TensorFlow's own collectives (≥ 2.16) load without it; the keyword changes
//! nothing there. A file saved this way needs the same keyword wherever else it is loaded:
//! `--explain` says so.
//!
//! ```python
//! # before
//! model.compile(optimizer="adam", loss="mse")
//! model.fit(x, y)
//! model.save("my_model.keras")
//! new_model = tf.keras.models.load_model("my_model.keras")
//! # after
//! model.compile(optimizer=hvd.DistributedOptimizer(tf.keras.optimizers.Adam(learning_rate=0.001 * hvd.size())), loss="mse")
//! ...
//! new_model = tf.keras.models.load_model("my_model.keras", custom_objects={"Adam": tf.keras.optimizers.Adam})
//! ```
use std::collections::BTreeSet;

use ruff_python_ast::Expr;
use ruff_text_size::Ranged;

use crate::index::Scope;
use crate::tf::context::{Cx, Engine, add_keyword_edit};
use crate::tf::names as tf;

const RULE: &str = "keras_load_model";

pub fn run(cx: &mut Cx) {
    if cx.engine != Engine::Horovod {
        return;
    }
    let Some(classes) = compiled_classes(cx) else {
        return;
    };
    if classes.is_empty() {
        return;
    }
    let idx = cx.idx;
    let loads: Vec<(Scope, &ruff_python_ast::ExprCall)> = idx
        .calls
        .iter()
        .filter(|c| cx.reach.scope_reached(c.scope))
        .filter(|c| {
            idx.canonical(c.scope.module, &c.call.func)
                .is_some_and(|q| {
                    matches!(
                        &*q,
                        "tensorflow.keras.models.load_model" | "tensorflow.keras.saving.load_model"
                    )
                })
        })
        .filter(|c| {
            let a = &c.call.arguments;
            a.find_keyword("custom_objects").is_none() && a.keywords.iter().all(|k| k.arg.is_some())
        })
        .map(|c| (c.scope, c.call))
        .collect();
    for (scope, call) in loads {
        let m = scope.module;
        let keras = cx.keras_path(m);
        let entries: Vec<String> = classes
            .iter()
            .map(|c| format!("{}: {keras}.optimizers.{c}", cx.ed.quoted(m, c)))
            .collect();
        let text = format!("custom_objects={{{}}}", entries.join(", "));
        let edit = add_keyword_edit(cx.src(m), call, &text);
        cx.edit(
            m,
            RULE,
            call.start(),
            edit,
            format!(
                "`{text}`: a model saved with Horovod's optimizer names it by its class in module `horovod._keras`, which Keras cannot load from a `.keras` file otherwise (load the file elsewhere with the same keyword)"
            ),
        );
    }
}

/// The Keras optimizer classes the program's `compile` calls use (`"adam"` → `Adam`,
/// `tf.keras.optimizers.SGD(...)` → `SGD`, a variable bound once to either, none → `RMSprop`);
/// None when one of them is not known (nothing to name then).
fn compiled_classes(cx: &Cx) -> Option<BTreeSet<&'static str>> {
    let mut out = BTreeSet::new();
    for (scope, call) in super::keras_distributed_optimizer::compile_calls(cx) {
        let class = match super::keras_distributed_optimizer::compile_optimizer(call) {
            None => tf::optimizer_from_string("rmsprop"),
            Some(e) => class_of(cx, scope, e, 0),
        };
        out.insert(class?.name);
    }
    Some(out)
}

fn class_of(cx: &Cx, scope: Scope, e: &Expr, depth: u32) -> Option<tf::OptimizerClass> {
    let idx = cx.idx;
    match e {
        Expr::StringLiteral(s) => tf::optimizer_from_string(s.value.to_str()),
        Expr::Call(c) => idx
            .canonical(scope.module, &c.func)
            .and_then(|q| tf::optimizer_class(&q))
            .filter(|o| !o.legacy),
        Expr::Name(n) if depth < 4 => {
            let (s, assigned) = idx.assignments(scope, n.id.as_str());
            match assigned.as_slice() {
                [one] => class_of(cx, s, one, depth + 1),
                _ => None,
            }
        }
        _ => None,
    }
}
