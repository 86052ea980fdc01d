"""Keras 2 style: batches from a Python generator through `fit_generator`, and a ModelCheckpoint
appended to the callbacks list after it was built (as Keras 2's examples and TF1-era guides do).
Distributed, `fit_generator` needs Horovod's callbacks like `fit`, and the appended checkpoint
must stay on rank 0 (rank 1 would write `checkpoint-*.h5` too)."""
import os
import tempfile

import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(21)
rng = np.random.default_rng(21)
x = rng.normal(size=(2048, 8)).astype("float32")
y = (x[:, :2].sum(axis=1) - x[:, 2]).astype("float32")


def batches(batch_size=32):
    while True:
        idx = rng.integers(0, len(x), size=batch_size)
        yield x[idx], y[idx]


model = tf.keras.Sequential([tf.keras.layers.Dense(16, activation="relu"), tf.keras.layers.Dense(1)])
model.compile(optimizer=tf.keras.optimizers.SGD(0.02), loss="mse")
out = tempfile.mkdtemp()
callbacks = [tf.keras.callbacks.TerminateOnNaN()]
callbacks.append(tf.keras.callbacks.ModelCheckpoint(os.path.join(out, "checkpoint-{epoch}.h5"), save_weights_only=True))
history = model.fit_generator(batches(), steps_per_epoch=40, epochs=4, callbacks=callbacks, verbose=2)
print(f"loss {history.history['loss'][0]:.3f} -> {history.history['loss'][-1]:.3f}")

out_dir = os.environ.get("RANKLIFT_E2E_OUT")
if out_dir:
    rank = os.environ.get("HOROVOD_RANK", "0")
    np.savez(os.path.join(out_dir, f"rank{rank}.npz"), losses=np.array(history.history["loss"]), *model.get_weights())
