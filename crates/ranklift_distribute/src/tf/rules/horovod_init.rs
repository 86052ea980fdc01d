//! Rule `horovod_init`: import Horovod, initialise it and pin one GPU per process.
//!
//! **Trigger:** the main script (always), and every other module an edit made refer to `hvd`.
//!
//! **Rewrite:** after the module's leading imports (never in the middle of them, and never above
//! the main script's `tensorflow` import), insert `import horovod.tensorflow as hvd` — or
//! `horovod.tensorflow.keras` for `Model.fit` programs — then, in the main script, `hvd.init()` and
//! the GPU pinning of Horovod's TF2 guide. Other modules get `hvd.init()` only when their import-time code calls `hvd` (it is
//! idempotent), and the module-level broadcast flags of `broadcast_initial_state`. When the module
//! binds no name to `tensorflow` (e.g. only `from tensorflow import keras`), `import tensorflow as
//! tf` is added (the rewrite's own code refers to `tensorflow`).
//!
//! ```python
//! # before
//! import numpy as np
//! import tensorflow as tf
//!
//! model = build()
//! # after
//! import numpy as np
//! import tensorflow as tf
//! import horovod.tensorflow as hvd
//! hvd.init()
//! gpus = tf.config.experimental.list_physical_devices('GPU')
//! for gpu in gpus:
//!     tf.config.experimental.set_memory_growth(gpu, True)
//! if gpus:
//!     tf.config.experimental.set_visible_devices(gpus[hvd.local_rank()], 'GPU')
//!
//! model = build()
//! ```
use crate::tf::context::Cx;

pub fn run(cx: &mut Cx, module: usize, is_main: bool) {
    cx.finish_module(module, is_main);
}
