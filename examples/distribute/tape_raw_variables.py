"""Linear regression with raw tf.Variables (no keras.Model) and an SGD optimizer.

The earlier research tool gave up on this case: there is no model object to broadcast.
"""
import os

import numpy as np
import tensorflow as tf

STEPS = 120
rng = np.random.default_rng(0)
true_w = np.array([[2.0], [-3.0], [0.5]], dtype="float32")
x_all = rng.normal(size=(1024, 3)).astype("float32")
y_all = x_all @ true_w + 1.0

tf.keras.utils.set_random_seed(0)
W = tf.Variable(tf.random.normal([3, 1]), name="W")
b = tf.Variable(tf.zeros([1]), name="b")
opt = tf.keras.optimizers.SGD(learning_rate=0.05)

losses = []
for step in range(STEPS):
    idx = rng.integers(0, len(x_all), size=64)
    x, y = x_all[idx], y_all[idx]
    with tf.GradientTape() as tape:
        pred = tf.matmul(x, W) + b
        loss = tf.reduce_mean(tf.square(pred - y))
    grads = tape.gradient(loss, [W, b])
    grads_and_vars = zip(grads, [W, b])
    opt.apply_gradients(grads_and_vars)
    losses.append(float(loss))

print("learned W:", W.numpy().ravel(), "b:", b.numpy())
print(f"loss {losses[0]:.3f} -> {losses[-1]:.5f}")

out_dir = os.environ.get("RANKLIFT_E2E_OUT")
if out_dir:
    rank = os.environ.get("HOROVOD_RANK", "0")
    np.savez(os.path.join(out_dir, f"rank{rank}.npz"), losses=np.array(losses), w=W.numpy(), b=b.numpy())
