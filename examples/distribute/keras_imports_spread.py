"""A guide that imports as it goes: TensorFlow is imported after the data is made, the optimizer
is built before `from tensorflow import keras`. The Horovod block must come right after the
import that binds `tf` — after the last import, the scaled learning rate would read `hvd` before
it exists (NameError)."""
import os

import numpy as np

rng = np.random.default_rng(21)
x = rng.normal(size=(2048, 5)).astype("float32")
y = (x @ np.array([[0.5], [-1.0], [2.0], [0.0], [1.5]], dtype="float32")).astype("float32")

import tensorflow as tf

tf.keras.utils.set_random_seed(21)
optimizer = tf.keras.optimizers.Adam(0.01)

from tensorflow import keras

model = keras.Sequential([keras.layers.Dense(16, activation="relu"), keras.layers.Dense(1)])
model.compile(optimizer=optimizer, loss="mse")
history = model.fit(x, y, batch_size=32, epochs=3)
print("final loss", history.history["loss"][-1])

out_dir = os.environ.get("RANKLIFT_E2E_OUT")
if out_dir:
    rank = os.environ.get("HOROVOD_RANK", "0")
    np.savez(os.path.join(out_dir, f"rank{rank}.npz"), losses=np.array(history.history["loss"]), *model.get_weights())
