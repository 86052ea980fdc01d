//! Every diagnostic code of `ranklift distribute`, in one place.
//!
//! Each code is a named constant here, and [`REGISTRY`] lists them all with the target they
//! belong to and the file that raises them (its *home*). Check and rule files refer to the
//! constants, never to a code literal (a test fails on one), so a code is renamed, found and
//! documented from this table. A code's page (`ranklift rule CODE`, docs/rules.md) is the doc
//! comment of its home when that file is a check named for the code, otherwise the `///` doc
//! of its constant below.
//!
//! Adding a check or rule that raises a new code: add the constant (with its page if the file
//! is not a check of its own) and a [`REGISTRY`] row, then refer to the constant where the
//! diagnostic is made.

pub use ranklift_python::Severity;

/// Which target raises a code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target {
    /// TensorFlow (Horovod, or TensorFlow's collectives).
    Tf,
    /// PyTorch (DistributedDataParallel under torchrun).
    Torch,
    /// Either: the driver's codes (no main script, already distributed, internal error).
    Both,
}

/// One code: its constant, the target that raises it, and its home (the file that raises it,
/// relative to this crate's `src/`).
#[derive(Debug, Clone, Copy)]
pub struct Code {
    pub code: &'static str,
    /// The constant's name in this module.
    pub name: &'static str,
    pub target: Target,
    pub home: &'static str,
    /// The severity every diagnostic with this code has (a test holds every example's
    /// diagnostics to it): `Error` blocks the rewrite, `Warning` and `Note` do not.
    pub severity: Severity,
}

/// Every code, in code order.
#[rustfmt::skip]
pub const REGISTRY: &[Code] = &[
    Code { code: TF_IMPORT_NOT_TOP_LEVEL, name: "TF_IMPORT_NOT_TOP_LEVEL", target: Target::Tf, home: "tf/checks/tf_import_not_top_level.rs", severity: Severity::Error },
    Code { code: TF_REBOUND, name: "TF_REBOUND", target: Target::Tf, home: "tf/checks/tf_rebound.rs", severity: Severity::Error },
    Code { code: TF_MEMBER_ALIAS, name: "TF_MEMBER_ALIAS", target: Target::Tf, home: "tf/checks/tf_member_alias.rs", severity: Severity::Error },
    Code { code: PRINT_SIDE_EFFECT, name: "PRINT_SIDE_EFFECT", target: Target::Tf, home: "tf/checks/print_side_effect.rs", severity: Severity::Error },
    Code { code: OPTIMIZER_NOT_CREATED, name: "OPTIMIZER_NOT_CREATED", target: Target::Tf, home: "tf/checks/optimizer_not_created.rs", severity: Severity::Warning },
    Code { code: REBOUND_TO_OTHER_KIND, name: "REBOUND_TO_OTHER_KIND", target: Target::Tf, home: "tf/checks/rebound_to_other_kind.rs", severity: Severity::Error },
    Code { code: CONDITIONAL_CREATION, name: "CONDITIONAL_CREATION", target: Target::Tf, home: "tf/checks/conditional_creation.rs", severity: Severity::Warning },
    Code { code: APPLY_NOT_A_STATEMENT, name: "APPLY_NOT_A_STATEMENT", target: Target::Tf, home: "tf/rules/broadcast_initial_state.rs", severity: Severity::Error },
    Code { code: GLOBAL_OPTIMIZER_REPLACED, name: "GLOBAL_OPTIMIZER_REPLACED", target: Target::Tf, home: "tf/checks/global_optimizer_replaced.rs", severity: Severity::Warning },
    Code { code: CHECKPOINT_IN_CONTAINER, name: "CHECKPOINT_IN_CONTAINER", target: Target::Tf, home: "tf/checks/checkpoint_in_container.rs", severity: Severity::Error },
    Code { code: AMBIGUOUS_MAIN, name: "AMBIGUOUS_MAIN", target: Target::Both, home: "lib.rs", severity: Severity::Error },
    Code { code: UNSUPPORTED_PATTERN, name: "UNSUPPORTED_PATTERN", target: Target::Tf, home: "tf/mod.rs", severity: Severity::Error },
    Code { code: MIXED_PATTERNS, name: "MIXED_PATTERNS", target: Target::Tf, home: "tf/mod.rs", severity: Severity::Error },
    Code { code: STEP_PASSED_AS_VALUE, name: "STEP_PASSED_AS_VALUE", target: Target::Tf, home: "tf/checks/step_passed_as_value.rs", severity: Severity::Warning },
    Code { code: CONDITIONAL_TRAINING_FUNCTION, name: "CONDITIONAL_TRAINING_FUNCTION", target: Target::Tf, home: "tf/checks/conditional_training_function.rs", severity: Severity::Error },
    Code { code: OPTIONAL_STRATEGY, name: "OPTIONAL_STRATEGY", target: Target::Tf, home: "tf/mod.rs", severity: Severity::Warning },
    Code { code: NOT_TENSORFLOW, name: "NOT_TENSORFLOW", target: Target::Both, home: "lib.rs", severity: Severity::Error },
    Code { code: NO_TRAINING_LOOP, name: "NO_TRAINING_LOOP", target: Target::Both, home: "lib.rs", severity: Severity::Error },
    Code { code: ALREADY_DISTRIBUTED, name: "ALREADY_DISTRIBUTED", target: Target::Both, home: "torch/checks/already_distributed.rs", severity: Severity::Note },
    Code { code: NO_MAIN, name: "NO_MAIN", target: Target::Both, home: "lib.rs", severity: Severity::Error },
    Code { code: PARTLY_DISTRIBUTED, name: "PARTLY_DISTRIBUTED", target: Target::Tf, home: "tf/mod.rs", severity: Severity::Error },
    Code { code: TAPE_WITHOUT_NAME, name: "TAPE_WITHOUT_NAME", target: Target::Tf, home: "tf/rules/distributed_gradient_tape.rs", severity: Severity::Error },
    Code { code: SHARED_LINE, name: "SHARED_LINE", target: Target::Tf, home: "tf/context.rs", severity: Severity::Error },
    Code { code: FIRST_BATCH, name: "FIRST_BATCH", target: Target::Tf, home: "tf/rules/broadcast_initial_state.rs", severity: Severity::Error },
    Code { code: TAPE_NOT_TRAINING, name: "TAPE_NOT_TRAINING", target: Target::Tf, home: "tf/rules/distributed_gradient_tape.rs", severity: Severity::Note },
    Code { code: TF1_NO_INIT, name: "TF1_NO_INIT", target: Target::Tf, home: "tf/rules/tf1_broadcast.rs", severity: Severity::Error },
    Code { code: KERAS_3, name: "KERAS_3", target: Target::Tf, home: "tf/mod.rs", severity: Severity::Error },
    Code { code: SINGLE_SOURCE, name: "SINGLE_SOURCE", target: Target::Tf, home: "tf/rules/distributed_gradient_tape.rs", severity: Severity::Error },
    Code { code: GRADIENTS_IN_TAPE, name: "GRADIENTS_IN_TAPE", target: Target::Tf, home: "tf/rules/distributed_gradient_tape.rs", severity: Severity::Error },
    Code { code: TF1_ON_COLLECTIVES, name: "TF1_ON_COLLECTIVES", target: Target::Tf, home: "tf/mod.rs", severity: Severity::Error },
    Code { code: MODULE_NAME_TAKEN, name: "MODULE_NAME_TAKEN", target: Target::Tf, home: "tf/mod.rs", severity: Severity::Error },
    Code { code: KERAS_3_ASSUMED, name: "KERAS_3_ASSUMED", target: Target::Tf, home: "tf/mod.rs", severity: Severity::Note },
    Code { code: UNSCALED_LR, name: "UNSCALED_LR", target: Target::Tf, home: "tf/rules/scale_learning_rate.rs", severity: Severity::Warning },
    Code { code: UNDIVIDED_RANGE, name: "UNDIVIDED_RANGE", target: Target::Tf, home: "tf/rules/shard_training_steps.rs", severity: Severity::Warning },
    Code { code: UNKNOWN_OPTIMIZER, name: "UNKNOWN_OPTIMIZER", target: Target::Tf, home: "tf/rules/keras_distributed_optimizer.rs", severity: Severity::Error },
    Code { code: UNCHECKED_CONFIG, name: "UNCHECKED_CONFIG", target: Target::Tf, home: "tf/rules/tf1_session_config.rs", severity: Severity::Warning },
    Code { code: UNSPLIT_FIT_INPUT, name: "UNSPLIT_FIT_INPUT", target: Target::Tf, home: "tf/rules/shard_dataset.rs", severity: Severity::Warning },
    Code { code: IGNORED_LR, name: "IGNORED_LR", target: Target::Tf, home: "tf/rules/scale_learning_rate.rs", severity: Severity::Warning },
    Code { code: ITERABLE_DATASET, name: "ITERABLE_DATASET", target: Target::Torch, home: "torch/checks/iterable_dataset.rs", severity: Severity::Error },
    Code { code: CUSTOM_SAMPLER, name: "CUSTOM_SAMPLER", target: Target::Torch, home: "torch/checks/custom_sampler.rs", severity: Severity::Error },
    Code { code: MODEL_PARALLEL, name: "MODEL_PARALLEL", target: Target::Torch, home: "torch/checks/model_parallel.rs", severity: Severity::Error },
    Code { code: UNRESOLVED_DATA, name: "UNRESOLVED_DATA", target: Target::Torch, home: "torch/checks/unresolved_data.rs", severity: Severity::Error },
    Code { code: NO_WRAP_POINT, name: "NO_WRAP_POINT", target: Target::Torch, home: "torch/rules/ddp_wrap.rs", severity: Severity::Error },
    Code { code: WRAPPED_AND_NOT, name: "WRAPPED_AND_NOT", target: Target::Torch, home: "torch/rules/ddp_wrap.rs", severity: Severity::Warning },
    Code { code: DEFAULT_LR, name: "DEFAULT_LR", target: Target::Torch, home: "torch/rules/scale_lr.rs", severity: Severity::Warning },
    Code { code: NO_MODEL, name: "NO_MODEL", target: Target::Torch, home: "torch/checks/no_model.rs", severity: Severity::Error },
    Code { code: MISSING_SET_EPOCH, name: "MISSING_SET_EPOCH", target: Target::Torch, home: "torch/checks/missing_set_epoch.rs", severity: Severity::Warning },
    Code { code: EVERY_RANK_WRITES, name: "EVERY_RANK_WRITES", target: Target::Torch, home: "torch/checks/every_rank_writes.rs", severity: Severity::Warning },
    Code { code: COLLECTIVE_UNDER_RANK, name: "COLLECTIVE_UNDER_RANK", target: Target::Torch, home: "torch/checks/collective_under_rank.rs", severity: Severity::Error },
    Code { code: PREFIXED_STATE_DICT, name: "PREFIXED_STATE_DICT", target: Target::Torch, home: "torch/checks/prefixed_state_dict.rs", severity: Severity::Warning },
    Code { code: SHUFFLE_WITH_SAMPLER, name: "SHUFFLE_WITH_SAMPLER", target: Target::Torch, home: "torch/checks/shuffle_with_sampler.rs", severity: Severity::Error },
    Code { code: UNSHARDED_TRAINING_LOADER, name: "UNSHARDED_TRAINING_LOADER", target: Target::Torch, home: "torch/checks/unsharded_training_loader.rs", severity: Severity::Warning },
    Code { code: INTERNAL, name: "INTERNAL", target: Target::Both, home: "editor.rs", severity: Severity::Error },
];

/// The registry's row of `code`.
pub fn lookup(code: &str) -> Option<&'static Code> {
    REGISTRY.iter().find(|c| c.code == code)
}

/// Several scripts of the project train, and none was named: which one is the program?
///
/// **Why:** ranklift rewrites one program (the main script and the modules it imports);
/// guessing would rewrite the wrong one.
///
/// ```text
/// project/train_a.py   # both call model.fit(...)
/// project/train_b.py   # DST101
/// ```
/// **Fix:** `--main train_a.py`, or `main = "train_a.py"` under `[tool.ranklift.distribute]`.
pub const AMBIGUOUS_MAIN: &str = "DST101";
/// A TensorFlow training pattern ranklift does not rewrite: canned Estimators (their
/// optimizer is built inside TensorFlow), `tf.distribute` strategies, `train_on_batch`
/// loops, `optimizer.minimize` in TF2.
///
/// **Why:** each rewrite needs to see the optimizer and the step it takes; these patterns
/// hide one or the other.
///
/// ```python
/// classifier = tf.estimator.DNNClassifier(hidden_units=[8], feature_columns=columns)  # DST102
/// ```
/// **Fix:** a custom `tf.estimator.Estimator` with a `model_fn`, a `GradientTape` loop, or
/// `Model.fit`.
pub const UNSUPPORTED_PATTERN: &str = "DST102";
/// An optional `tf.distribute` branch (`if FLAGS.multi_gpu: strategy =
/// tf.distribute.MirroredStrategy()`) around model creation: it is left as is, and the rest
/// of the program is distributed (a warning).
///
/// **Why:** one process per GPU replaces the strategy; with the branch switched off the
/// program trains as the rewrite expects, with it on the strategy would split each process's
/// batch again.
///
/// ```python
/// if FLAGS.multi_gpu:
///     strategy = tf.distribute.MirroredStrategy()  # DST106
/// ```
/// **Fix:** run with the branch switched off (the flag that enables it unset).
pub const OPTIONAL_STRATEGY: &str = "DST106";
/// TF2 training mixed with a TF1 pattern (a `Session` loop next to `Model.fit`), or two TF1
/// patterns in one program. (`fit` next to a custom loop is distributed.)
///
/// **Why:** TF1 and TF2 need different Horovod rewrites (graph hooks vs. eager wrappers);
/// one program gets one.
///
/// ```python
/// model.fit(x, y)                  # TF2
/// with tf.compat.v1.Session() as sess:
///     sess.run(train_op)           # DST103
/// ```
/// **Fix:** split the program, or keep one pattern.
pub const MIXED_PATTERNS: &str = "DST103";
/// Not a TensorFlow (or PyTorch) training program: nothing imports `tensorflow`, `keras`
/// or `torch`, or Keras 3 runs on the torch or JAX backend (`KERAS_BACKEND`).
///
/// **Why:** ranklift rewrites onto Horovod (TensorFlow) or DistributedDataParallel
/// (PyTorch); it has nothing to offer other programs.
///
/// ```python
/// import os; os.environ["KERAS_BACKEND"] = "jax"
/// import keras                     # DST200
/// ```
pub const NOT_TENSORFLOW: &str = "DST200";
/// No training step is reached from the main script: no `apply_gradients` (or Keras 3's
/// `optimizer.apply`), `fit`, `optimizer.step()` or session training op that the analysis
/// can follow. Reported on the main script; or, when PyTorch optimizers are stepped through
/// a loop over a list of them (`for net, opt in zip(nets, opts): opt.step()`, which ranklift
/// cannot follow by name), at that `step()` call.
///
/// **Why:** the rewrite is anchored on the training step; without one there is nothing to
/// distribute (an inference script, a hand-written `assign_sub` update).
///
/// ```python
/// w.assign_sub(lr * tape.gradient(loss, w))   # DST201: no optimizer applies the update
/// ```
/// **Fix:** train through an optimizer (`opt.apply_gradients`, `opt.step()`), or point
/// `--main` at the script that trains.
pub const NO_TRAINING_LOOP: &str = "DST201";
/// Already distributed (Horovod, `torch.distributed`, Accelerate, Lightning, ...): left as
/// it is. A note, exit 0 — running ranklift on its own output changes nothing.
///
/// ```python
/// import horovod.tensorflow as hvd
/// hvd.init()                       # DST202
/// ```
pub const ALREADY_DISTRIBUTED: &str = "DST202";
/// `--main` (or `main =` in the configuration) names no file of the project.
///
/// ```text
/// ranklift distribute project/ --main trian.py    # DST203
/// ```
/// **Fix:** a path relative to the project directory, as `--explain` lists the scripts.
pub const NO_MAIN: &str = "DST203";
/// Partly distributed: some files import Horovod but nothing calls `hvd.init()` (the files
/// are named) — typically an interrupted or hand-made edit.
///
/// **Why:** rewriting on top would distribute twice; leaving it would run undistributed.
///
/// **Fix:** restore the files from version control, then run ranklift on the original.
pub const PARTLY_DISTRIBUTED: &str = "DST204";
/// A `tf.GradientTape()` used without `as NAME`.
///
/// **Why:** Horovod wraps the tape object (`tape = hvd.DistributedGradientTape(tape)`); a
/// tape without a name cannot be wrapped.
///
/// ```python
/// with tf.GradientTape():          # DST205
/// ```
/// **Fix:** `with tf.GradientTape() as tape:`.
pub const TAPE_WITHOUT_NAME: &str = "DST205";
/// The statement a rule must insert code before or after shares its line with other code
/// (`a = 1; opt.apply_gradients(...)`).
///
/// **Why:** ranklift edits whole statements on lines of their own, so that the diff is the
/// smallest and reviewable.
///
/// ```python
/// loss = step(x); opt.apply_gradients(zip(grads, vars))   # DST206
/// ```
/// **Fix:** one statement per line.
pub const SHARED_LINE: &str = "DST206";
/// The `@tf.function` training step cannot be told when the first batch runs: it is called
/// through a helper or indirectly, or `apply_gradients` runs in a helper of it.
///
/// **Why:** Horovod broadcasts the initial variables after the first step, *inside* the
/// traced function (`first_batch` argument); ranklift must add that argument at every call.
///
/// ```python
/// step_fn = train_step
/// step_fn(x, y)                    # DST207: called through another name
/// ```
/// **Fix:** call the step directly from the training loop, with `apply_gradients` in it.
pub const FIRST_BATCH: &str = "DST207";
/// A `GradientTape` that is not part of a training step (its gradients reach no optimizer)
/// is left alone. A note.
///
/// ```python
/// with tf.GradientTape() as t:     # DST208: saliency map, no training
///     g = t.gradient(model(x), x)
/// ```
pub const TAPE_NOT_TRAINING: &str = "DST208";
/// A TF1 session whose variable initialisation cannot be found, so there is no place for
/// the broadcast of rank 0's initial variables.
///
/// **Why:** without the broadcast each process starts from its own random weights and
/// they never agree.
///
/// **Fix:** run `tf.compat.v1.global_variables_initializer()` in the session (or use
/// `MonitoredTrainingSession`).
pub const TF1_NO_INIT: &str = "DST209";
/// A Keras 3 API (`keras.ops`, `keras.random`) under an explicit `--target-tf` of 2.15 or
/// older (without a target given or an installed TensorFlow found: DST215).
///
/// **Why:** Horovod runs Keras 2 only (its last release predates Keras 3; horovod#4290);
/// on TensorFlow 2.16+ `import keras` is Keras 3, which the collectives engine serves.
///
/// **Fix:** pass `--target-tf` with the TensorFlow you run: 2.16 or newer for the
/// collectives engine (`ranklift launch`), 2.15 or older for Horovod with Keras 2 code.
pub const KERAS_3: &str = "DST210";
/// A Keras 3 API (`keras.ops`, `keras.random`) with no `--target-tf` given and no installed
/// TensorFlow found: the program is distributed onto TensorFlow's own collectives (TensorFlow
/// 2.16 or newer), and this note says so.
///
/// **Why:** Horovod runs Keras 2 only (its last release predates Keras 3; horovod#4290); the
/// code itself says which TensorFlow it is written for.
///
/// **Fix:** none needed; pass `--target-tf` to choose (2.15 or older means Horovod and Keras 2,
/// and then DST210).
pub const KERAS_3_ASSUMED: &str = "DST215";
/// TF1 graph-mode training (`Session`, `MonitoredTrainingSession`, `tf.estimator`) with a
/// target of TensorFlow 2.16 or newer.
///
/// **Why:** the collectives engine serves TF2 programs (GradientTape loops, Keras `fit`);
/// `tf.estimator` is gone from TensorFlow 2.16, and Horovod does not run there.
///
/// **Fix:** distribute for Horovod with `--target-tf 2.15` (and run on TensorFlow ≤ 2.15), or
/// port the training loop to TF2.
pub const TF1_ON_COLLECTIVES: &str = "DST213";
/// The project has a module `ranklift_tf.py` of its own next to the main script.
///
/// **Why:** the collectives engine writes ranklift's `ranklift_tf.py` there, and the rewritten
/// program imports it: the project's module would be replaced or shadowed.
///
/// **Fix:** rename the project's module, or write the output elsewhere with `-o`.
pub const MODULE_NAME_TAKEN: &str = "DST214";
/// `tape.gradient(loss, w)` with a single variable inside a statement another rule also
/// rewrites.
///
/// **Why:** Horovod's tape needs a list of sources; changing the call would overlap the
/// other rule's edit.
///
/// ```python
/// opt.apply_gradients([(tape.gradient(loss, w), w)])   # DST211
/// ```
/// **Fix:** `g = tape.gradient(loss, [w])[0]` on a line of its own.
pub const SINGLE_SOURCE: &str = "DST211";
/// Gradients taken inside the `with tf.GradientTape()` block, other than by `grads =
/// tape.gradient(...)` on a line of its own (which is averaged with `hvd.allreduce` where
/// it stands).
///
/// **Why:** Horovod's tape wrapper averages gradients when they are taken; inside the
/// block the wrapper does not exist yet.
///
/// ```python
/// with tf.GradientTape() as tape:
///     loss = model(x)
///     opt.apply_gradients(zip(tape.gradient(loss, vs), vs))   # DST212
/// ```
/// **Fix:** take the gradients after the block.
pub const GRADIENTS_IN_TAPE: &str = "DST212";
/// A learning rate that cannot be scaled by the number of processes: a callable, or one
/// that may come from `**kwargs`. A warning: the program is still rewritten.
///
/// **Why:** Horovod's recipe multiplies the rate by `hvd.size()` (the global batch grows);
/// ranklift cannot multiply what it cannot see.
///
/// ```python
/// opt = tf.keras.optimizers.Adam(learning_rate=lambda: 0.001 * decay())   # DST302
/// ```
/// **Fix:** scale the value yourself, or pass `learning_rate=` explicitly.
pub const UNSCALED_LR: &str = "DST302";
/// `lr=` given to a Keras optimizer of TensorFlow 2.11 or newer (not `...optimizers.legacy`),
/// which ignores it: the program trains at the class's default rate. A warning: the rewrite
/// scales that default (`learning_rate=0.001 * hvd.size()` beside the `lr=`), which is
/// what the original trained at.
///
/// **Why:** those optimizers take the rate as `learning_rate` only and drop `lr` (TensorFlow
/// 2.13: `Adam(lr=0.01).learning_rate` is 0.001); scaling the `lr=` value would change
/// nothing, and Horovod's warm-up would then train at half the original's rate.
///
/// ```python
/// opt = tf.keras.optimizers.Adam(lr=0.01)   # DST307: trains at 0.001
/// ```
/// **Fix:** write `learning_rate=` for the rate you mean (in the original too).
pub const IGNORED_LR: &str = "DST307";
/// A training `range(a, b)` loop with several arguments is not divided by `hvd.size()`:
/// every process runs every step. A warning.
///
/// ```python
/// for step in range(start, steps):   # DST303
/// ```
/// **Fix:** divide the step count by `hvd.size()` if each process should do its share.
pub const UNDIVIDED_RANGE: &str = "DST303";
/// `model.compile(optimizer="adamm")`: an optimizer name Keras does not know.
///
/// **Why:** ranklift replaces the name by the optimizer object to wrap it in Horovod's
/// `DistributedOptimizer`; an unknown name has no object.
///
/// **Fix:** a known name (`"adam"`, `"sgd"`, ...) or an optimizer object.
pub const UNKNOWN_OPTIMIZER: &str = "DST304";
/// A TF1 session/estimator config ranklift cannot check for GPU pinning (built inline or
/// elsewhere). A warning.
///
/// **Why:** each Horovod process must see its own GPU
/// (`gpu_options.visible_device_list = str(hvd.local_rank())`).
///
/// **Fix:** `config = tf.compat.v1.ConfigProto(...)` in a variable, passed to the session.
pub const UNCHECKED_CONFIG: &str = "DST305";
/// A `fit` input that can be neither sharded (a Dataset or arrays) nor epoch-divided (no
/// `epochs`/`steps_per_epoch`): every process trains on all of it. A warning.
///
/// ```python
/// model.fit(my_generator())         # DST306
/// ```
/// **Fix:** pass a `tf.data.Dataset` or arrays, or `steps_per_epoch`.
pub const UNSPLIT_FIT_INPUT: &str = "DST306";
/// The `DistributedDataParallel` wrap of a model has no place: no statement after the model
/// is bound in its scope reaches the training step, or that statement shares its line.
///
/// **Why:** DDP must wrap the model after it is moved to its device and before the first
/// forward pass that trains.
///
/// **Fix:** bind the model and run the training loop in the same function (or at module
/// level), one statement per line.
pub const NO_WRAP_POINT: &str = "DST406";
/// A function is called with the model both before and after the DDP wrap; its reads of
/// the model's own attributes are left as they are. A warning.
///
/// **Why:** after the wrap, the model's layers are under `.module`; before it, they are
/// not — one function body cannot serve both.
///
/// **Fix:** call it with `model.module` after the wrap if it reads layers or methods.
pub const WRAPPED_AND_NOT: &str = "DST407";
/// `--scale-lr linear` on an optimizer that uses its default learning rate: left unscaled.
/// A warning.
///
/// **Fix:** give the optimizer an explicit `lr=`.
pub const DEFAULT_LR: &str = "DST408";
/// Internal error: an edit would make the file not parse. Nothing is written.
///
/// **Why:** every rewrite is re-parsed before it is written (the re-parse guard); this is a
/// bug in ranklift, never the user's.
///
/// **Fix:** report it with the file (or a reduced copy).
pub const INTERNAL: &str = "DST900";

pub const TF_IMPORT_NOT_TOP_LEVEL: &str = "DST001";
pub const TF_REBOUND: &str = "DST002";
pub const TF_MEMBER_ALIAS: &str = "DST003";
pub const PRINT_SIDE_EFFECT: &str = "DST004";
pub const OPTIMIZER_NOT_CREATED: &str = "DST005";
pub const REBOUND_TO_OTHER_KIND: &str = "DST006";
pub const CONDITIONAL_CREATION: &str = "DST007";
/// `apply_gradients` (or Keras 3's `apply`) that is not an expression statement or the direct
/// value of an assignment, or is called without its gradients-and-variables argument.
///
/// **Why:** the first step's broadcast of the initial state is inserted right after that call,
/// and it broadcasts the variables the call updates: both must be visible in the statement.
///
/// ```python
/// results.append(opt.apply_gradients(zip(grads, model.trainable_variables)))   # DST008
/// ```
/// **Fix:** call it on a line of its own: `opt.apply_gradients(zip(grads, variables))`.
pub const APPLY_NOT_A_STATEMENT: &str = "DST008";
pub const GLOBAL_OPTIMIZER_REPLACED: &str = "DST009";
pub const CHECKPOINT_IN_CONTAINER: &str = "DST010";
pub const STEP_PASSED_AS_VALUE: &str = "DST104";
pub const CONDITIONAL_TRAINING_FUNCTION: &str = "DST105";
pub const ITERABLE_DATASET: &str = "DST400";
pub const CUSTOM_SAMPLER: &str = "DST401";
pub const MODEL_PARALLEL: &str = "DST402";
pub const UNRESOLVED_DATA: &str = "DST405";
pub const NO_MODEL: &str = "DST409";
pub const MISSING_SET_EPOCH: &str = "DST410";
pub const EVERY_RANK_WRITES: &str = "DST411";
pub const COLLECTIVE_UNDER_RANK: &str = "DST412";
pub const PREFIXED_STATE_DICT: &str = "DST413";
pub const SHUFFLE_WITH_SAMPLER: &str = "DST414";
pub const UNSHARDED_TRAINING_LOADER: &str = "DST415";

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::{Path, PathBuf};

    fn src() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
    }

    fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
        for e in std::fs::read_dir(dir).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                rust_files(&p, out);
            } else if p.extension().is_some_and(|x| x == "rs") {
                out.push(p);
            }
        }
    }

    #[test]
    fn registry_is_in_code_order_with_each_code_once() {
        for w in REGISTRY.windows(2) {
            assert!(w[0].code < w[1].code, "{} before {}", w[0].code, w[1].code);
        }
    }

    /// Each row's home exists and refers to its constant (so the table cannot drift from where
    /// the code is raised), and the constant's name is the row's.
    #[test]
    fn every_code_is_raised_where_the_registry_says() {
        let this = std::fs::read_to_string(src().join("codes.rs")).unwrap();
        for c in REGISTRY {
            let decl = format!("pub const {}: &str = \"{}\";", c.name, c.code);
            assert!(this.contains(&decl), "no `{decl}` in codes.rs");
            let home = std::fs::read_to_string(src().join(c.home))
                .unwrap_or_else(|e| panic!("{}: home {}: {e}", c.code, c.home));
            assert!(
                home.contains(&format!("codes::{}", c.name)),
                "{} ({}): its home {} does not refer to codes::{}",
                c.code,
                c.name,
                c.home,
                c.name
            );
        }
    }

    /// No code literal outside this file: a code is raised through its constant.
    #[test]
    fn no_code_literal_outside_the_registry() {
        let mut files = Vec::new();
        rust_files(&src(), &mut files);
        let mut bad = Vec::new();
        for f in files.iter().filter(|f| !f.ends_with("codes.rs")) {
            let text = std::fs::read_to_string(f).unwrap();
            for (i, line) in text.lines().enumerate() {
                if line.trim_start().starts_with("//") {
                    continue;
                }
                let b = line.as_bytes();
                for k in 0..b.len().saturating_sub(7) {
                    if b[k] == b'"'
                        && &b[k + 1..k + 4] == b"DST"
                        && b[k + 4..k + 7].iter().all(u8::is_ascii_digit)
                        && b.get(k + 7) == Some(&b'"')
                    {
                        bad.push(format!("{}:{}", f.display(), i + 1));
                    }
                }
            }
        }
        assert!(
            bad.is_empty(),
            "code literals (use crate::codes::NAME): {bad:?}"
        );
    }

    /// Every constant of this module is in the registry.
    #[test]
    fn every_constant_is_registered() {
        let this = std::fs::read_to_string(src().join("codes.rs")).unwrap();
        for line in this
            .lines()
            .filter(|l| l.starts_with("pub const ") && l.contains("&str"))
        {
            let name = line["pub const ".len()..].split(':').next().unwrap();
            assert!(
                REGISTRY.iter().any(|c| c.name == name),
                "{name} is not in REGISTRY"
            );
        }
    }
}
