"""Two models trained from the same initial weights (keras.io's CutMix comparison): the model is
built by a factory that calls another factory, and the initial weights go through a file.

The rewrite must save them on rank 0 only — both ranks writing one HDF5 file at once fail with
"unable to lock file" — and make the other ranks wait for that file before they load it. Seeing
that `initial_model` is a model takes following `model = tf.keras.Model(...)` through two
`return`s.
"""
import os
import tempfile

import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(11)
rng = np.random.default_rng(11)
x = rng.normal(size=(2048, 8)).astype("float32")
y = (np.sin(x[:, :1]) + x[:, 1:2] ** 2).astype("float32")
# A directory every process of the run sees (the e2e check gives each rank its own temporary
# directory, as on separate machines, and one shared record directory).
shared_dir = os.environ.get("RANKLIFT_E2E_OUT") or tempfile.gettempdir()
weights_path = os.path.join(shared_dir, "initial.weights.h5")


def mlp(width, depth):
    inputs = tf.keras.Input(shape=(8,))
    h = inputs
    for _ in range(depth):
        h = tf.keras.layers.Dense(width, activation="relu")(h)
    outputs = tf.keras.layers.Dense(1)(h)
    model = tf.keras.Model(inputs=inputs, outputs=outputs)
    return model


def training_model():
    return mlp(32, 2)


initial_model = training_model()
initial_model.save_weights(weights_path)

model = training_model()
model.load_weights(weights_path)
model.compile(loss="mse", optimizer="adam")
history = model.fit(x, y, batch_size=64, epochs=3)
print(f"final loss {history.history['loss'][-1]:.4f}")

out_dir = os.environ.get("RANKLIFT_E2E_OUT")
if out_dir:
    rank = os.environ.get("HOROVOD_RANK", "0")
    np.savez(os.path.join(out_dir, f"rank{rank}.npz"), losses=np.array(history.history["loss"]), *model.get_weights())
