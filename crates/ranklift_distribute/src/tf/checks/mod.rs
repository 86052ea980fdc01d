//! Restriction checks: what the TensorFlow rewrite must be able to follow (DST001–DST010) and the
//! program shapes it takes (DST101–DST105), one stable code each.
//!
//! | code | check |
//! |---|---|
//! | DST001 | `tensorflow` imported only inside a function or block of the main script |
//! | DST002 | the name bound to `tensorflow` is rebound, or tensorflow is imported dynamically |
//! | DST003 | TensorFlow members reached in ways ranklift cannot follow (`getattr`, `optimizers.get`, local/conditional class aliases) |
//! | DST004 | `print(...)` with side effects (it will run on rank 0 only) |
//! | DST005 | the optimizer that applies gradients is not created where ranklift can see it (its learning rate cannot be scaled) |
//! | DST006 | an optimizer/dataset/checkpoint variable is rebound to another kind of value |
//! | DST007 | an optimizer is created in one branch, something unrecognised in another |
//! | DST008 | `apply_gradients` not an expression statement or direct assignment value (rule `broadcast_initial_state`) |
//! | DST009 | a global optimizer is replaced inside a function after initialisation |
//! | DST010 | a checkpoint is stored in a container, so saves through it cannot be guarded |
//! | DST101 | several scripts train: the main script is ambiguous (`codes.rs`) |
//! | DST102 | a training pattern ranklift does not rewrite (TF1 sessions, Estimator, `tf.distribute`, `train_on_batch`, `minimize`) (`codes.rs`) |
//! | DST103 | TF2 training (`Model.fit` or a custom loop) mixed with a TF1 pattern, or two TF1 patterns (`codes.rs`); `fit` with a custom loop is distributed |
//! | DST104 | the training step is passed as a value to code outside the project |
//! | DST105 | a training function is defined conditionally (several alternative definitions) |
//!
//! A check reports only what would make the rewrite wrong. Where a stricter restriction would be
//! simpler to state, the code is accepted and the check's doc comment says what is accepted.

pub mod checkpoint_in_container;
pub mod conditional_creation;
pub mod conditional_training_function;
pub mod global_optimizer_replaced;
pub mod optimizer_not_created;
pub mod print_side_effect;
pub mod rebound_to_other_kind;
pub mod step_passed_as_value;
pub mod tf_import_not_top_level;
pub mod tf_member_alias;
pub mod tf_rebound;

use ranklift_python::Diagnostic;

use crate::tf::context::Cx;

/// Run every check (in parallel: they only read) and record their diagnostics.
pub fn run(cx: &mut Cx) {
    use rayon::prelude::*;
    type Check = fn(&Cx, &mut Vec<Diagnostic>);
    const CHECKS: &[Check] = &[
        tf_import_not_top_level::check,
        tf_rebound::check,
        tf_member_alias::check,
        print_side_effect::check,
        optimizer_not_created::check,
        rebound_to_other_kind::check,
        conditional_creation::check,
        global_optimizer_replaced::check,
        checkpoint_in_container::check,
        step_passed_as_value::check,
        conditional_training_function::check,
    ];
    let shared: &Cx = cx;
    let found: Vec<Vec<Diagnostic>> = CHECKS
        .par_iter()
        .map(|check| {
            let mut out = Vec::new();
            check(shared, &mut out);
            out
        })
        .collect();
    cx.diags.extend(found.into_iter().flatten());
}
