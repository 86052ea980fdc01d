"""Gradients taken inside the `with tf.GradientTape()` block (a common tutorial habit), and a
one-line `if` that prints."""
import os

import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(17)
rng = np.random.default_rng(17)
X = rng.normal(size=(512, 8)).astype("float32")
Y = (X @ rng.normal(size=(8, 1)).astype("float32")).astype("float32")

model = tf.keras.Sequential([tf.keras.layers.Dense(16, activation="tanh"), tf.keras.layers.Dense(1)])
optimizer = tf.keras.optimizers.Adam(0.01)
losses = []
for step in range(60):
    idx = rng.choice(512, 32)
    with tf.GradientTape() as tape:
        pred = model(X[idx], training=True)
        loss = tf.reduce_mean(tf.square(pred - Y[idx]))
        gradients = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(gradients, model.trainable_variables))
    losses.append(float(loss))
    if step % 20 == 0: print("=> %4d loss %.4f" % (step, loss))

out_dir = os.environ.get("RANKLIFT_E2E_OUT")
if out_dir:
    rank = os.environ.get("HOROVOD_RANK", "0")
    np.savez(os.path.join(out_dir, f"rank{rank}.npz"), losses=np.array(losses), *model.get_weights())
