"""Binary classification with Sequential + compile("adam") + fit, the canonical Keras program."""
import os
import tempfile

import numpy as np
import tensorflow as tf
import horovod.tensorflow.keras as hvd
hvd.init()
gpus = tf.config.experimental.list_physical_devices("GPU")
for gpu in gpus:
    tf.config.experimental.set_memory_growth(gpu, True)
if gpus:
    tf.config.experimental.set_visible_devices(gpus[hvd.local_rank()], "GPU")

tf.keras.utils.set_random_seed(8)
rng = np.random.default_rng(8)
x = rng.normal(size=(3000, 10)).astype("float32")
y = (x[:, :3].sum(axis=1) > 0).astype("float32")

model = tf.keras.Sequential([
    tf.keras.layers.Dense(32, activation="relu"),
    tf.keras.layers.Dense(1, activation="sigmoid"),
])
model.compile(
    optimizer=hvd.DistributedOptimizer(tf.keras.optimizers.Adam(learning_rate=0.001 * hvd.size())),
    loss="binary_crossentropy",
    metrics=["accuracy"],
)

checkpoint_path = os.path.join(tempfile.mkdtemp(), "best.weights.h5")
# Every rank the same number of samples (one more batch on one rank would stall the
# others); with fewer samples than ranks, every rank trains on all of them.
shard = slice(hvd.rank(), len(x) // hvd.size() * hvd.size(), hvd.size()) if len(x) >= hvd.size() else slice(None)
history = model.fit(
    x[shard],
    y[shard],
    batch_size=64,
    epochs=4,
    validation_split=0.1,
    callbacks=[
        hvd.callbacks.BroadcastGlobalVariablesCallback(0),
        hvd.callbacks.MetricAverageCallback(),
        hvd.callbacks.LearningRateWarmupCallback(
            initial_lr=tf.keras.backend.get_value(model.optimizer.learning_rate),
            warmup_epochs=3,
            momentum_correction=False,
            verbose=0,
        ),
        tf.keras.callbacks.EarlyStopping(monitor="val_loss", patience=2),
    ]
    + ([tf.keras.callbacks.ModelCheckpoint(checkpoint_path, save_weights_only=True)] if hvd.rank() == 0 else []),
    verbose=1 if hvd.rank() == 0 else 0,
)
loss, acc = model.evaluate(x[:500], y[:500], verbose=1 if hvd.rank() == 0 else 0)
if hvd.rank() == 0:
    print(f"accuracy {acc:.3f}")

out_dir = os.environ.get("RANKLIFT_E2E_OUT")
if out_dir:
    rank = os.environ.get("HOROVOD_RANK", "0")
    np.savez(os.path.join(out_dir, f"rank{rank}.npz"), losses=np.array(history.history["loss"]), *model.get_weights())
