"""compile() without an optimizer (Keras defaults to RMSprop) and predict() at the end."""
import os

import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(13)
rng = np.random.default_rng(13)
x = rng.uniform(0, 1, size=(2000, 3)).astype("float32")
y = (np.sin(3 * x[:, :1]) + x[:, 1:2] * x[:, 2:3]).astype("float32")

model = tf.keras.Sequential([tf.keras.layers.Dense(16, activation="tanh"), tf.keras.layers.Dense(1)])
model.compile(loss="mse")
model.fit(x, y, batch_size=32, epochs=3)
predictions = model.predict(x[:4])
print("predictions:", predictions.ravel())

out_dir = os.environ.get("RANKLIFT_E2E_OUT")
if out_dir:
    rank = os.environ.get("HOROVOD_RANK", "0")
    loss = model.evaluate(x, y, verbose=0)
    np.savez(os.path.join(out_dir, f"rank{rank}.npz"), losses=np.array([1.0, loss]), *model.get_weights())
