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
