"""A notebook's autoencoder that draws its graph with `keras.utils.plot_model` before training.

`plot_model` writes `model.png` (in a notebook without pydot, it prints how to install it
instead): one rank's job.
"""
import os

import numpy as np
import tensorflow as tf
from IPython import display
from tensorflow import keras

tf.keras.utils.set_random_seed(3)
rng = np.random.default_rng(3)
x = rng.random((2000, 16)).astype("float32")

inputs = keras.Input(shape=(16,))
code = keras.layers.Dense(4, activation="relu")(inputs)
outputs = keras.layers.Dense(16, activation="sigmoid")(code)
autoencoder = keras.Model(inputs, outputs)
keras.utils.plot_model(autoencoder, show_shapes=True)

autoencoder.compile(optimizer="adam", loss="binary_crossentropy")
history = autoencoder.fit(x, x, batch_size=50, epochs=3)
display.display(history.history["loss"][-1])

out_dir = os.environ.get("RANKLIFT_E2E_OUT")
if out_dir:
    rank = os.environ.get("HOROVOD_RANK", "0")
    np.savez(os.path.join(out_dir, f"rank{rank}.npz"), losses=np.array(history.history["loss"]), *autoencoder.get_weights())
