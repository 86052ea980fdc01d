//! The rewrite rules, one file each. Every file starts with a doc comment stating its trigger,
//! its rewrite, why (the fault it prevents, or Horovod practice) and a before/after example.
pub mod broadcast_initial_state;
pub mod distributed_gradient_tape;
pub mod horovod_init;
pub mod keras_distributed_optimizer;
pub mod keras_fit_callbacks;
pub mod keras_load_model;
pub mod keras_steps;
pub mod keras_verbose;
pub mod rank0_only;
pub mod rank_seeded_draws;
pub mod remove_device_pinning;
pub mod scale_learning_rate;
pub mod shard_dataset;
pub mod shard_training_steps;
pub mod shared_dirs;
pub mod tf1_broadcast;
pub mod tf1_distributed_optimizer;
pub mod tf1_rank0_dirs;
pub mod tf1_session_config;
pub mod tf1_steps;

use crate::tf::Pattern;
use crate::tf::context::Cx;

/// A rule's name and what runs it.
pub type Rule = (&'static str, fn(&mut Cx));

/// First for every pattern: device pinning, then the learning rate (later rules read it).
const FIRST: &[Rule] = &[
    ("remove_device_pinning", remove_device_pinning::run),
    ("scale_learning_rate", scale_learning_rate::run),
];

/// A custom training loop.
const TAPE: &[Rule] = &[
    ("distributed_gradient_tape", distributed_gradient_tape::run),
    ("broadcast_initial_state", broadcast_initial_state::run),
    ("shard_training_steps", shard_training_steps::run),
    ("rank_seeded_draws", rank_seeded_draws::run),
    (
        "distributed_gradient_tape::single_variable_sources",
        distributed_gradient_tape::single_variable_sources,
    ),
];

/// `Model.fit`. A model's own `train_step` computes its gradients with a tape: they are
/// averaged there; a custom loop beside `fit` gets the loop's rules; random draws in custom
/// loops and in generators feeding `fit` are seeded per rank; TF1-style Keras
/// (`K.set_session(tf.Session(config=config))`) pins the GPU through its config.
const FIT: &[Rule] = &[
    ("distributed_gradient_tape", distributed_gradient_tape::run),
    (
        "distributed_gradient_tape::single_variable_sources",
        distributed_gradient_tape::single_variable_sources,
    ),
    (
        "keras_distributed_optimizer",
        keras_distributed_optimizer::run,
    ),
    ("keras_load_model", keras_load_model::run),
    ("keras_steps", keras_steps::run),
    ("shard_dataset::run_fit", shard_dataset::run_fit),
    ("custom loops beside fit", custom_loops_beside_fit),
    ("rank_seeded_draws", rank_seeded_draws::run),
    (
        "tf1_session_config::pin_config_protos",
        tf1_session_config::pin_config_protos,
    ),
];

/// TF1 graph mode: sessions, monitored sessions, Estimators; a plain session loop's steps and
/// draws as a custom loop's.
const TF1: &[Rule] = &[
    ("tf1_distributed_optimizer", tf1_distributed_optimizer::run),
    ("tf1_session_config", tf1_session_config::run),
    ("tf1_broadcast", tf1_broadcast::run),
    ("tf1_rank0_dirs", tf1_rank0_dirs::run),
    ("tf1_steps", tf1_steps::run),
];
const SESSION_LOOP: &[Rule] = &[
    ("shard_training_steps", shard_training_steps::run),
    ("rank_seeded_draws", rank_seeded_draws::run),
];

/// Last for every pattern: edits to an argument's value (`verbose=`) before keywords added after
/// that argument (`fit`'s callbacks), then what only rank 0 does, then shared directories.
/// (`horovod_init` runs after all of these, once per module.)
const LAST: &[Rule] = &[("keras_verbose", keras_verbose::run)];
const FIT_CALLBACKS: &[Rule] = &[("keras_fit_callbacks", keras_fit_callbacks::run)];
const RANK0: &[Rule] = &[
    ("rank0_only", rank0_only::run),
    ("shared_dirs", shared_dirs::run),
];

/// The rules `pattern` runs, in order.
pub fn order(pattern: Pattern) -> impl Iterator<Item = &'static Rule> {
    let (body, fit_callbacks): (&[&[Rule]], &[Rule]) = match pattern {
        Pattern::GradientTape => (&[TAPE], &[]),
        Pattern::KerasFit => (&[FIT], FIT_CALLBACKS),
        Pattern::Session => (&[TF1, SESSION_LOOP], &[]),
        Pattern::MonitoredSession | Pattern::Estimator => (&[TF1], &[]),
    };
    FIRST
        .iter()
        .chain(body.iter().flat_map(|r| r.iter()))
        .chain(LAST)
        .chain(fit_callbacks)
        .chain(RANK0)
}

/// A custom training loop beside `fit` (`fit` for one phase, a tape loop for another).
fn custom_loops_beside_fit(cx: &mut Cx) {
    if !cx.reach.custom_loop_applies().is_empty() {
        broadcast_initial_state::run(cx);
        shard_training_steps::run(cx);
    }
}

#[cfg(test)]
mod order_tests {
    use crate::tf::Pattern;

    /// A rule file that no pattern's order runs is dead: every `pub mod` here must be in one
    /// (`horovod_init` runs per module after them).
    #[test]
    fn every_rule_file_runs_for_some_pattern() {
        let patterns = [
            Pattern::GradientTape,
            Pattern::KerasFit,
            Pattern::Session,
            Pattern::MonitoredSession,
            Pattern::Estimator,
        ];
        let this = include_str!("mod.rs");
        for line in this.lines().filter(|l| l.starts_with("pub mod ")) {
            let name = line["pub mod ".len()..].trim_end_matches(';');
            let runs = name == "horovod_init"
                || patterns.iter().any(|&p| {
                    super::order(p).any(|(n, _)| *n == name || n.starts_with(&format!("{name}::")))
                })
                // Run from another rule of the order.
                || this.contains(&format!("    {name}::run(cx)"));
            assert!(runs, "rule `{name}` runs for no pattern");
        }
    }
}
