"""TF1-era eager code: a `tf.compat.v1.train` optimizer applies a GradientTape's gradients with a
global step. Its `apply_gradients` is the step of a GradientTape loop (it was refused as "no
training loop")."""
import os

import numpy as np
import tensorflow as tf

tf.compat.v1.enable_eager_execution()
tf.keras.utils.set_random_seed(12)
rng = np.random.default_rng(12)
x = rng.normal(size=(1024, 3)).astype("float32")
y = (x @ np.array([[2.0], [-1.0], [0.5]], dtype="float32") + 0.1).astype("float32")
dataset = tf.data.Dataset.from_tensor_slices((x, y)).batch(32)

model = tf.keras.Sequential([tf.keras.layers.Dense(8, activation="tanh"), tf.keras.layers.Dense(1)])
optimizer = tf.compat.v1.train.AdamOptimizer(0.01)
global_step = tf.compat.v1.train.get_or_create_global_step()
losses = []
for epoch in range(3):
    for bx, by in dataset:
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(model(bx) - by))
        grads = tape.gradient(loss, model.variables)
        optimizer.apply_gradients(zip(grads, model.variables), global_step=global_step)
        losses.append(float(loss))
    print(f"epoch {epoch}: loss {losses[-1]:.4f}, step {int(global_step.numpy())}")

out_dir = os.environ.get("RANKLIFT_E2E_OUT")
if out_dir:
    rank = os.environ.get("HOROVOD_RANK", "0")
    np.savez(os.path.join(out_dir, f"rank{rank}.npz"), losses=np.array(losses), *[v.numpy() for v in model.variables])
