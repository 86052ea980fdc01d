//! Rule `keras_distributed_optimizer`: the optimizer given to `compile` averages gradients.
//!
//! **Trigger:** `model.compile(...)` on a Keras model in a `Model.fit` program.
//!
//! **Rewrite:** the `optimizer` argument (keyword or first positional) is wrapped in
//! `hvd.DistributedOptimizer(...)` — a constructor, a variable or any expression; its learning
//! rate is scaled by `scale_learning_rate` where it is created. A string such as `"adam"` becomes
//! the Keras class with its default learning rate scaled; no optimizer at all means Keras's default
//! `"rmsprop"`. Horovod's Keras guide makes the wrapper mandatory: it is what averages the
//! gradients.
//!
//! **Not triggered** for a model whose class defines its own `train_step`: that step applies
//! gradients itself, so the averaging happens on its tape (`distributed_gradient_tape`) and a
//! wrapped optimizer would average them twice. A class's own `compile(self, d_optimizer, ...)`
//! never gets an `optimizer=` keyword it does not accept (the optimizers it is given are scaled
//! by `scale_learning_rate` where they are created).
//!
//! ```python
//! # before
//! model.compile(optimizer="adam", loss="mse")
//! # after
//! model.compile(optimizer=hvd.DistributedOptimizer(tf.keras.optimizers.Adam(learning_rate=0.001 * hvd.size())), loss="mse")
//! ```
use ranklift_python::{Edit, Severity};
use ruff_python_ast::Expr;
use ruff_text_size::Ranged;

use crate::index::{Kind, Scope};
use crate::tf::context::{Cx, add_keyword_edit};
use crate::tf::names as tf;

const RULE: &str = "keras_distributed_optimizer";

/// The optimizer a `compile` call is given: its `optimizer=` keyword, or its first argument.
pub fn compile_optimizer(call: &ruff_python_ast::ExprCall) -> Option<&Expr> {
    call.arguments
        .find_keyword("optimizer")
        .map(|k| &k.value)
        .or_else(|| call.arguments.args.first())
}

/// `compile` calls on models in reached code.
pub fn compile_calls<'a>(cx: &Cx<'a, '_>) -> Vec<(Scope, &'a ruff_python_ast::ExprCall)> {
    let idx = cx.idx;
    idx.calls
        .iter()
        .filter(|c| cx.reach.scope_reached(c.scope))
        .filter(|c| match &*c.call.func {
            Expr::Attribute(a) => {
                a.attr.as_str() == "compile"
                    && (idx.kind_of(c.scope, &a.value) == Kind::Model
                        || (idx.qualify(c.scope.module, &a.value).is_none()
                            && idx.is_model_receiver(c.scope, &a.value)))
            }
            _ => false,
        })
        .map(|c| (c.scope, c.call))
        .collect()
}

pub fn run(cx: &mut Cx) {
    for (scope, call) in compile_calls(cx) {
        let m = scope.module;
        if let Expr::Attribute(a) = &*call.func
            && let Some(cl) = receiver_class(cx.idx, scope, &a.value)
            && let Some(step) = cx.idx.method(cl, "train_step")
            && cx.reach.fit_steps.contains(&step)
        {
            let class = cx.idx.classes[cl].def.name.as_str();
            cx.note(m, RULE, call.start(), format!(
                "`{class}` trains in its own `train_step`: its GradientTape is wrapped instead of the optimizer given to `compile`"));
            continue;
        }
        match compile_optimizer(call) {
            None => {
                let keras = cx.keras_path(m);
                let text = format!(
                    "optimizer=hvd.DistributedOptimizer({keras}.optimizers.RMSprop(learning_rate=0.001 * hvd.size()))"
                );
                cx.edit(m, RULE, call.start(), add_keyword_edit(cx.src(m), call, &text),
                    "compile had no optimizer: Keras's default RMSprop, scaled and wrapped in hvd.DistributedOptimizer");
            }
            Some(Expr::StringLiteral(s)) => {
                let name = s.value.to_str().to_owned();
                match tf::optimizer_from_string(&name) {
                    Some(o) => {
                        let keras = cx.keras_path(m);
                        let text = format!(
                            "hvd.DistributedOptimizer({keras}.optimizers.{}(learning_rate={} * hvd.size()))",
                            o.name, o.default_lr
                        );
                        cx.edit(m, RULE, s.start(), Edit::replace(s.range(), text),
                            format!("optimizer {} became `{keras}.optimizers.{}` (lr {} scaled) in hvd.DistributedOptimizer", cx.text(m, s), o.name, o.default_lr));
                    }
                    None => {
                        cx.diag(
                            m,
                            s.range(),
                            crate::codes::UNKNOWN_OPTIMIZER,
                            Severity::Error,
                            format!("unknown Keras optimizer name {}", cx.text(m, s)),
                            "pass an optimizer object such as `tf.keras.optimizers.Adam(...)`",
                        );
                        continue;
                    }
                }
            }
            Some(e) => {
                cx.edit(
                    m,
                    RULE,
                    e.start(),
                    Edit::insert(e.start(), "hvd.DistributedOptimizer("),
                    "",
                );
                cx.edit(
                    m,
                    RULE,
                    e.start(),
                    Edit::insert(e.end(), ")"),
                    format!(
                        "optimizer `{}` wrapped in hvd.DistributedOptimizer",
                        cx.text(m, e)
                    ),
                );
            }
        }
        cx.use_hvd(scope);
    }
}

/// The project class of a `compile` receiver: an instance's class, or for `self` / `super()`
/// inside a method, that method's class.
fn receiver_class(idx: &crate::index::Index, scope: Scope, recv: &Expr) -> Option<usize> {
    let is_self = matches!(recv, Expr::Name(n) if n.id.as_str() == "self");
    let is_super = matches!(recv, Expr::Call(c) if matches!(&*c.func, Expr::Name(n) if n.id.as_str() == "super"));
    if is_self || is_super {
        return scope.func.and_then(|f| idx.funcs[f].class);
    }
    idx.instance_class(scope, recv)
}
