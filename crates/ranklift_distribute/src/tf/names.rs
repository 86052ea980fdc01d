//! What ranklift knows about the TensorFlow and Keras APIs, as data.
//!
//! Every question a rule asks about TensorFlow ("is this an optimizer class, and what is its
//! default learning rate?") is answered here from a canonical, fully qualified name, so aliases
//! (`tf`, `from tensorflow import keras`, `import tensorflow.keras as K`, standalone `keras`, the
//! `tf.optimizers` shortcut) never reach the rules. Defaults are Keras 2.13's (TensorFlow 2.13,
//! the version the end-to-end environment pins).

/// Canonical form of a qualified name: `keras.X` and `tensorflow.python.keras.X` become
/// `tensorflow.keras.X`; `tensorflow.optimizers.X` becomes `tensorflow.keras.optimizers.X`;
/// `optimizers.experimental.X` is `optimizers.X`; `keras.models.{Model,Sequential}` are
/// `keras.{Model,Sequential}`; `tensorflow.compat.v2` is `tensorflow`.
pub fn canonical(qual: &str) -> String {
    // Fast path: most names (project functions, NumPy, builtins) are not TensorFlow's.
    if !(qual.starts_with("tensorflow") || qual.starts_with("keras")) {
        return qual.to_owned();
    }
    let mut q = qual.to_owned();
    for (from, to) in [
        ("tensorflow.compat.v2.", "tensorflow."),
        // TF1 names reached through compat.v1 are canonically `tensorflow.X` (`tf.train.
        // AdamOptimizer`, `tf.Session` exist only there in TF2, so the names stay unambiguous).
        ("tensorflow.compat.v1.", "tensorflow."),
        ("tensorflow.python.keras.", "tensorflow.keras."),
        ("tensorflow.optimizers.", "tensorflow.keras.optimizers."),
        ("tensorflow.losses.", "tensorflow.keras.losses."),
    ] {
        if let Some(rest) = q.strip_prefix(from) {
            q = format!("{to}{rest}");
        }
    }
    if q == "keras" || q.starts_with("keras.") {
        q = format!("tensorflow.{q}");
    }
    for (from, to) in [
        (
            "tensorflow.keras.optimizers.experimental.",
            "tensorflow.keras.optimizers.",
        ),
        ("tensorflow.keras.models.Model", "tensorflow.keras.Model"),
        (
            "tensorflow.keras.models.Sequential",
            "tensorflow.keras.Sequential",
        ),
    ] {
        if q.contains(from) {
            q = q.replace(from, to);
        }
    }
    q
}

/// Keras 2.13 optimizer classes and their default learning rates.
const OPTIMIZERS: &[(&str, &str)] = &[
    ("Adadelta", "0.001"),
    ("Adafactor", "0.001"),
    ("Adagrad", "0.001"),
    ("Adam", "0.001"),
    ("AdamW", "0.001"),
    ("Adamax", "0.001"),
    ("Ftrl", "0.001"),
    ("Lion", "0.0001"),
    ("Nadam", "0.001"),
    ("RMSprop", "0.001"),
    ("SGD", "0.01"),
];

/// An optimizer class known by its canonical name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OptimizerClass {
    pub name: &'static str,
    pub default_lr: &'static str,
    /// `tf.keras.optimizers.legacy.*` (whose `variables` is a method, not a property).
    pub legacy: bool,
}

pub fn optimizer_class(canon: &str) -> Option<OptimizerClass> {
    let (rest, legacy) = if let Some(r) = canon.strip_prefix("tensorflow.keras.optimizers.legacy.")
    {
        (r, true)
    } else {
        (canon.strip_prefix("tensorflow.keras.optimizers.")?, false)
    };
    OPTIMIZERS
        .iter()
        .find(|(n, _)| *n == rest)
        .map(|&(name, default_lr)| OptimizerClass {
            name,
            default_lr,
            legacy,
        })
}

/// The optimizer class named by a Keras string identifier (`compile(optimizer="adam")`),
/// matched as `tf.keras.optimizers.get` does: case-insensitively.
pub fn optimizer_from_string(s: &str) -> Option<OptimizerClass> {
    OPTIMIZERS
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case(s))
        .map(|&(name, default_lr)| OptimizerClass {
            name,
            default_lr,
            legacy: false,
        })
}

/// Learning-rate schedule classes: which argument holds the learning rate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ScheduleLr {
    /// `initial_learning_rate`, first positional.
    Initial,
    /// `PiecewiseConstantDecay(boundaries, values)`: every value.
    Values,
}

pub fn schedule_class(canon: &str) -> Option<ScheduleLr> {
    let rest = canon
        .strip_prefix("tensorflow.keras.optimizers.schedules.")
        .or_else(|| canon.strip_prefix("tensorflow.keras.experimental."))?;
    match rest {
        "PiecewiseConstantDecay" => Some(ScheduleLr::Values),
        "ExponentialDecay"
        | "PolynomialDecay"
        | "InverseTimeDecay"
        | "CosineDecay"
        | "CosineDecayRestarts" => Some(ScheduleLr::Initial),
        _ => None,
    }
}

/// Entry-point runners: `tf.compat.v1.app.run(main)` (`tf.app.run` in TF1) and `absl.app.run`
/// parse flags and call `main(argv)` once. Without an argument they call `__main__.main`.
pub fn is_entry_runner(canon: &str) -> bool {
    matches!(canon, "tensorflow.app.run" | "absl.app.run")
}

/// Modules whose members are model constructors (`getattr(tf.keras.applications, name)(...)`
/// builds a model; which one does not matter to any rewrite).
pub fn is_model_zoo(canon: &str) -> bool {
    canon == "tensorflow.keras.applications" || canon.starts_with("tensorflow.keras.applications.")
}

/// Functions and classes that create a `tf.data.Dataset`.
pub fn is_dataset_constructor(canon: &str) -> bool {
    canon.starts_with("tensorflow.data.Dataset.")
        || matches!(
            canon,
            "tensorflow.data.TFRecordDataset"
                | "tensorflow.data.TextLineDataset"
                | "tensorflow.data.FixedLengthRecordDataset"
                | "tensorflow.data.experimental.make_csv_dataset"
                | "tensorflow.keras.utils.image_dataset_from_directory"
                | "tensorflow.keras.utils.text_dataset_from_directory"
                | "tensorflow.keras.utils.timeseries_dataset_from_array"
                | "tensorflow.keras.preprocessing.image_dataset_from_directory"
                | "tensorflow.keras.preprocessing.text_dataset_from_directory"
        )
}

/// Dataset constructors whose dataset comes batched and finite (a shard of it splits batches).
pub fn is_batched_finite_source(canon: &str) -> bool {
    matches!(
        canon,
        "tensorflow.keras.utils.image_dataset_from_directory"
            | "tensorflow.keras.utils.text_dataset_from_directory"
            | "tensorflow.keras.utils.timeseries_dataset_from_array"
            | "tensorflow.keras.preprocessing.image_dataset_from_directory"
            | "tensorflow.keras.preprocessing.text_dataset_from_directory"
    )
}

/// Dataset constructors that shuffle inside, before they batch (so a shard can only come after
/// the shuffle): the keyword that seeds that shuffle, and the one that turns it off.
pub fn internal_shuffle_seed(canon: &str) -> Option<(&'static str, &'static str)> {
    match canon {
        "tensorflow.data.experimental.make_csv_dataset" => Some(("shuffle_seed", "shuffle")),
        "tensorflow.keras.utils.image_dataset_from_directory"
        | "tensorflow.keras.utils.text_dataset_from_directory"
        | "tensorflow.keras.preprocessing.image_dataset_from_directory"
        | "tensorflow.keras.preprocessing.text_dataset_from_directory" => Some(("seed", "shuffle")),
        _ => None,
    }
}

/// `tf.data.Dataset` methods that do not return a dataset.
pub fn dataset_method_returns_dataset(method: &str) -> bool {
    !matches!(
        method,
        "as_numpy_iterator"
            | "cardinality"
            | "reduce"
            | "get_single_element"
            | "save"
            | "element_spec"
            | "__iter__"
            | "numpy"
    )
}

/// Classes whose instances are models (their `.variables` hold the model state).
pub fn is_model_base(canon: &str) -> bool {
    matches!(
        canon,
        "tensorflow.keras.Model"
            | "tensorflow.keras.Sequential"
            | "tensorflow.keras.layers.Layer"
            | "tensorflow.Module"
    )
}

/// Functions that return a model.
pub fn returns_model(canon: &str) -> bool {
    is_model_base(canon)
        || matches!(
            canon,
            "tensorflow.keras.models.load_model" | "tensorflow.keras.models.clone_model"
        )
        || canon.starts_with("tensorflow.keras.applications.")
}

pub const GRADIENT_TAPE: &str = "tensorflow.GradientTape";
pub const CHECKPOINT: &str = "tensorflow.train.Checkpoint";
pub const CHECKPOINT_MANAGER: &str = "tensorflow.train.CheckpointManager";
pub const FILE_WRITER: &str = "tensorflow.summary.create_file_writer";
pub const TF_FUNCTION: &str = "tensorflow.function";
pub const TF_PRINT: &str = "tensorflow.print";

/// Keras callbacks that write files and so belong on rank 0 only (Horovod's Keras guide).
pub fn is_rank0_callback(canon: &str) -> bool {
    matches!(
        canon,
        "tensorflow.keras.callbacks.ModelCheckpoint"
            | "tensorflow.keras.callbacks.TensorBoard"
            | "tensorflow.keras.callbacks.CSVLogger"
    )
}

/// Module-level functions that save state to disk.
pub fn is_save_function(canon: &str) -> bool {
    matches!(
        canon,
        "tensorflow.saved_model.save"
            | "tensorflow.keras.models.save_model"
            | "tensorflow.keras.saving.save_model"
    )
}

// ----- TensorFlow 1 (tf.compat.v1) --------------------------------------------------------

/// TF1 optimizer classes (`tf.compat.v1.train.*Optimizer`); the learning rate is the
/// `learning_rate` keyword or the first positional argument of each.
pub fn tf1_optimizer(canon: &str) -> Option<&'static str> {
    let rest = canon.strip_prefix("tensorflow.train.")?;
    [
        "GradientDescentOptimizer",
        "AdamOptimizer",
        "AdagradOptimizer",
        "AdagradDAOptimizer",
        "AdadeltaOptimizer",
        "MomentumOptimizer",
        "RMSPropOptimizer",
        "FtrlOptimizer",
        "ProximalAdagradOptimizer",
        "ProximalGradientDescentOptimizer",
    ]
    .into_iter()
    .find(|n| *n == rest)
}

/// TF1 learning-rate decay functions; the learning rate is `learning_rate` or the first argument.
pub fn tf1_lr_decay(canon: &str) -> bool {
    matches!(
        canon,
        "tensorflow.train.exponential_decay"
            | "tensorflow.train.inverse_time_decay"
            | "tensorflow.train.natural_exp_decay"
            | "tensorflow.train.polynomial_decay"
            | "tensorflow.train.cosine_decay"
            | "tensorflow.train.cosine_decay_restarts"
            | "tensorflow.train.linear_cosine_decay"
            | "tensorflow.train.noisy_linear_cosine_decay"
    )
}

pub const SESSION: &str = "tensorflow.Session";
pub const MONITORED_SESSION: &str = "tensorflow.train.MonitoredTrainingSession";
pub const ESTIMATOR: &str = "tensorflow.estimator.Estimator";
pub const RUN_CONFIG: &str = "tensorflow.estimator.RunConfig";
pub const CONFIG_PROTO: &str = "tensorflow.ConfigProto";
pub const STOP_AT_STEP_HOOK: &str = "tensorflow.train.StopAtStepHook";
pub const SAVER: &str = "tensorflow.train.Saver";
pub const FILE_WRITER_V1: &str = "tensorflow.summary.FileWriter";

pub fn is_global_initializer(canon: &str) -> bool {
    matches!(
        canon,
        "tensorflow.global_variables_initializer"
            | "tensorflow.initializers.global_variables"
            | "tensorflow.initialize_all_variables"
    )
}

/// APIs of training patterns ranklift does not rewrite, with a short name for messages.
pub fn unsupported_pattern(canon: &str) -> Option<&'static str> {
    let c = canon;
    match c {
        "tensorflow.InteractiveSession" => Some("TF1 InteractiveSession"),
        "tensorflow.train.MonitoredSession" | "tensorflow.train.SingularMonitoredSession" => {
            Some("TF1 MonitoredSession (use MonitoredTrainingSession)")
        }
        _ if c.starts_with("tensorflow.estimator.")
            && c != ESTIMATOR
            && (c.ends_with("Estimator")
                || c.ends_with("Classifier")
                || c.ends_with("Regressor")) =>
        {
            Some("canned Estimator (its optimizer is built inside TensorFlow)")
        }
        _ if c.starts_with("tensorflow.distribute.") && c.ends_with("Strategy") => {
            Some("tf.distribute strategy")
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn aliases_canonicalise() {
        assert_eq!(
            canonical("tensorflow.optimizers.Adam"),
            "tensorflow.keras.optimizers.Adam"
        );
        assert_eq!(
            canonical("keras.optimizers.SGD"),
            "tensorflow.keras.optimizers.SGD"
        );
        assert_eq!(
            canonical("tensorflow.keras.models.Sequential"),
            "tensorflow.keras.Sequential"
        );
        assert_eq!(
            canonical("tensorflow.keras.optimizers.experimental.AdamW"),
            "tensorflow.keras.optimizers.AdamW"
        );
    }

    #[test]
    fn tf1_names() {
        assert_eq!(
            canonical("tensorflow.compat.v1.train.AdamOptimizer"),
            "tensorflow.train.AdamOptimizer"
        );
        assert_eq!(
            tf1_optimizer("tensorflow.train.MomentumOptimizer"),
            Some("MomentumOptimizer")
        );
        assert!(tf1_optimizer("tensorflow.train.Saver").is_none());
        assert!(is_global_initializer(&canonical(
            "tensorflow.compat.v1.global_variables_initializer"
        )));
    }

    #[test]
    fn optimizer_table() {
        let sgd = optimizer_class("tensorflow.keras.optimizers.SGD").unwrap();
        assert_eq!(sgd.default_lr, "0.01");
        assert!(
            optimizer_class("tensorflow.keras.optimizers.legacy.Adam")
                .unwrap()
                .legacy
        );
        assert!(
            optimizer_class("tensorflow.keras.optimizers.schedules.ExponentialDecay").is_none()
        );
        assert_eq!(optimizer_from_string("rmsprop").unwrap().name, "RMSprop");
        assert_eq!(
            schedule_class("tensorflow.keras.optimizers.schedules.PiecewiseConstantDecay"),
            Some(ScheduleLr::Values)
        );
    }

    #[test]
    fn unsupported_patterns() {
        assert_eq!(
            unsupported_pattern(&canonical("tensorflow.compat.v1.Session")),
            None
        );
        assert_eq!(unsupported_pattern(ESTIMATOR), None);
        assert!(unsupported_pattern("tensorflow.estimator.DNNClassifier").is_some());
        assert_eq!(
            unsupported_pattern("tensorflow.distribute.MirroredStrategy"),
            Some("tf.distribute strategy")
        );
        assert_eq!(unsupported_pattern("tensorflow.estimator.RunConfig"), None);
    }
}
