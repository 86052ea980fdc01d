//! What the caller chooses about a rewrite: the settings every target reads, and one part per
//! target (a setting only one target reads lives in that target's part).

/// Options that change the generated code.
#[derive(Debug, Clone)]
pub struct Options {
    /// Collect [`crate::Facts`] (for `--explain` and JSON output).
    pub facts: bool,
    /// The TensorFlow targets' part.
    pub tf: TfOptions,
    /// The PyTorch target's part.
    pub torch: TorchOptions,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            facts: true,
            tf: TfOptions::default(),
            torch: TorchOptions::default(),
        }
    }
}

/// The TensorFlow targets' settings (Horovod, and TensorFlow's own collectives).
#[derive(Debug, Clone)]
pub struct TfOptions {
    /// The TensorFlow version the output targets: from 2.11 on, a Keras optimizer's `variables`
    /// is a property, before it a method; from 2.16 on (Keras 3) the engine is TensorFlow's own
    /// collectives instead of Horovod.
    pub target_tf: (u32, u32),
    /// `target_tf` was neither given (`--target-tf`, config) nor read from an installed
    /// TensorFlow: a program that uses Keras 3 APIs then chooses the collectives engine.
    pub target_tf_assumed: bool,
    /// Epochs of Horovod's learning-rate warmup added to Keras `fit` when the rate is scaled
    /// (0: none).
    pub lr_warmup_epochs: u32,
}

impl Default for TfOptions {
    fn default() -> Self {
        TfOptions {
            target_tf: (2, 13),
            target_tf_assumed: false,
            lr_warmup_epochs: 3,
        }
    }
}

/// The PyTorch target's settings.
#[derive(Debug, Clone, Default)]
pub struct TorchOptions {
    /// Scale each optimizer's learning rate linearly with the number of processes
    /// (`--scale-lr linear`); off by default, since DDP averages gradients.
    pub scale_lr_linear: bool,
}
