"""One compiled model fitted twice, like an autoencoder trained on clean images and then on noisy
ones: the second `fit` continues with the optimizer (and its learning rate) the first one left.
A learning-rate warm-up belongs to the first `fit` only: a second one would start again from the
rate the first reached, divided by the number of processes."""
import os

import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(5)
rng = np.random.default_rng(5)
clean = rng.uniform(size=(2048, 16)).astype("float32")
noisy = np.clip(clean + rng.normal(scale=0.2, size=clean.shape), 0.0, 1.0).astype("float32")

model = tf.keras.Sequential([
    tf.keras.Input(shape=(16,)),
    tf.keras.layers.Dense(8, activation="relu"),
    tf.keras.layers.Dense(16, activation="sigmoid"),
])
model.compile(optimizer="adam", loss="binary_crossentropy")

first = model.fit(x=clean, y=clean, epochs=4, batch_size=32, shuffle=True, verbose=0)
second = model.fit(x=noisy, y=clean, epochs=3, batch_size=32, shuffle=True, verbose=0)
print(f"loss {first.history['loss'][-1]:.4f} on clean data, {second.history['loss'][-1]:.4f} on noisy")

out_dir = os.environ.get("RANKLIFT_E2E_OUT")
if out_dir:
    rank = os.environ.get("HOROVOD_RANK", "0")
    losses = first.history["loss"] + second.history["loss"]
    np.savez(os.path.join(out_dir, f"rank{rank}.npz"), losses=np.array(losses), *model.get_weights())
