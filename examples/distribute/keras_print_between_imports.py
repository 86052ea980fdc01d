"""Statements between the imports (a version print), then Keras `fit` on NumPy arrays (the whole
arrays every epoch)."""
import os

import tensorflow as tf
print("TensorFlow", tf.__version__)
import numpy as np

tf.keras.utils.set_random_seed(52)
rng = np.random.default_rng(52)
x_train = rng.normal(size=(2048, 8)).astype("float32")
y_train = (x_train[:, :4].sum(axis=1) > 0).astype("int64")
model = tf.keras.Sequential([
    tf.keras.layers.Dense(16, activation="relu"),
    tf.keras.layers.Dense(2),
])
model.compile(optimizer="adam", loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True))
history = model.fit(x_train, y_train, batch_size=64, epochs=4, verbose=2)

out_dir = os.environ.get("RANKLIFT_E2E_OUT")
if out_dir:
    rank = os.environ.get("HOROVOD_RANK", "0")
    np.savez(os.path.join(out_dir, f"rank{rank}.npz"), losses=np.array(history.history["loss"]), *[v.numpy() for v in model.variables])
