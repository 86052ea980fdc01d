"""Save and load, as TensorFlow's tutorial does after training: the whole model in Keras' own
format, loaded back to evaluate, and an export as a SavedModel, loaded back with TensorFlow.

Distributed, rank 0 alone writes; every rank loads, so every rank first waits for rank 0's
write. On Horovod the saved model names Horovod's optimizer class, which Keras cannot load
from a `.keras` file without being told the plain class."""
import os

import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(7)
rng = np.random.default_rng(7)
x = rng.normal(size=(512, 6)).astype("float32")
y = (x @ rng.normal(size=(6, 1))).astype("float32")

model = tf.keras.Sequential([tf.keras.Input(shape=(6,)), tf.keras.layers.Dense(8, activation="relu"), tf.keras.layers.Dense(1)])
model.compile(optimizer="adam", loss="mse")
history = model.fit(x, y, batch_size=32, epochs=3)

model.save("my_model.keras")
new_model = tf.keras.models.load_model("my_model.keras")
print(f"reloaded loss {new_model.evaluate(x, y, verbose=0):.4f}")

tf.saved_model.save(model, "saved_model/my_model")
exported = tf.saved_model.load("saved_model/my_model")
print(f"exported model outputs {exported(x[:4]).shape}")

out_dir = os.environ.get("RANKLIFT_E2E_OUT")
if out_dir:
    rank = os.environ.get("HOROVOD_RANK", "0")
    np.savez(os.path.join(out_dir, f"rank{rank}.npz"), losses=np.array(history.history["loss"]), *model.get_weights())
