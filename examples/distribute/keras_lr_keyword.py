"""A Keras 2 program that passes its rate as `lr=`, which TensorFlow 2.11+'s optimizers ignore:
it trains at Adam's default rate (0.001), not at the 0.01 it names."""
import os

import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(5)
rng = np.random.default_rng(5)
x = rng.normal(size=(2400, 8)).astype("float32")
y = (x[:, :2].sum(axis=1) > 0).astype("float32")

model = tf.keras.Sequential([
    tf.keras.layers.Dense(16, activation="relu"),
    tf.keras.layers.Dense(1, activation="sigmoid"),
])
model.compile(optimizer=tf.keras.optimizers.Adam(lr=0.01), loss="binary_crossentropy")
history = model.fit(x, y, batch_size=32, epochs=3)
print(f"final loss {history.history['loss'][-1]:.4f}")

out_dir = os.environ.get("RANKLIFT_E2E_OUT")
if out_dir:
    rank = os.environ.get("HOROVOD_RANK", "0")
    np.savez(os.path.join(out_dir, f"rank{rank}.npz"), losses=np.array(history.history["loss"]), *model.get_weights())
