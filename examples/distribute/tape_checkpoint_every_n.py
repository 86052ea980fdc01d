"""Periodic checkpoints in assignment form (`path = ckpt.save(...)`) inside the training loop."""
import os
import tempfile

import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(16)
rng = np.random.default_rng(16)
x = rng.normal(size=(2000, 2)).astype("float32")
y = (3 * x[:, :1] - x[:, 1:] ** 2).astype("float32")

model = tf.keras.Sequential([tf.keras.layers.Dense(16, activation="relu"), tf.keras.layers.Dense(1)])
optimizer = tf.keras.optimizers.Adamax(learning_rate=0.02)
ckpt = tf.train.Checkpoint(step=tf.Variable(0), model=model, optimizer=optimizer)
prefix = os.path.join(tempfile.mkdtemp(), "ckpt")

losses = []
for i in range(120):
    idx = rng.integers(0, 2000, size=50)
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(model(x[idx]) - y[idx]))
    optimizer.apply_gradients(zip(tape.gradient(loss, model.trainable_variables), model.trainable_variables))
    ckpt.step.assign_add(1)
    losses.append(float(loss))
    if i % 40 == 39:
        save_path = ckpt.save(prefix)
        print("saved", save_path, "loss", round(float(loss), 4))

out_dir = os.environ.get("RANKLIFT_E2E_OUT")
if out_dir:
    rank = os.environ.get("HOROVOD_RANK", "0")
    np.savez(os.path.join(out_dir, f"rank{rank}.npz"), losses=np.array(losses), *[v.numpy() for v in model.variables])
