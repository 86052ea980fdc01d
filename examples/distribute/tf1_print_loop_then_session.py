"""TF1, shaped like Horovod's word2vec example: prints of a few samples at the top of the
script (a comprehension over `i`, then `for i in range(4): print(...)`), then the session
trains, and after training another loop reuses `i` to print what was learned.

Distributed, the prints run on rank 0 only — and only they: a comprehension's `i` is its own,
and the session block binds its own `i`, so neither the loop nor the training depends on the
guarded prints, and every rank trains."""
import os
import random

import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()
tf.set_random_seed(13)
random.seed(13)
rng = np.random.default_rng(13)
x_data = rng.normal(size=(800, 4)).astype("float32")
y_data = (x_data @ np.array([[0.5], [-1.0], [2.0], [0.3]], dtype="float32")).astype("float32")

print("first targets", [round(float(y_data[i, 0]), 2) for i in range(4)])
for i in range(4):
    print(x_data[i], "->", y_data[i, 0])

x = tf.placeholder(tf.float32, [None, 4])
y = tf.placeholder(tf.float32, [None, 1])
w = tf.Variable(tf.random_normal([4, 1]))
loss = tf.reduce_mean(tf.square(tf.matmul(x, w) - y))
train_op = tf.train.GradientDescentOptimizer(0.05).minimize(loss)
init = tf.global_variables_initializer()

losses = []
with tf.Session() as session:
    init.run()
    for step in range(160):
        rows = rng.integers(0, len(x_data), size=32)
        _, loss_val = session.run([train_op, loss], feed_dict={x: x_data[rows], y: y_data[rows]})
        losses.append(loss_val)
    learned = w.eval()
    for i in range(4):
        print(f"weight {i}: {learned[i, 0]:.3f}")
    weights = session.run(tf.trainable_variables())

out_dir = os.environ.get("RANKLIFT_E2E_OUT")
if out_dir:
    rank = os.environ.get("HOROVOD_RANK", "0")
    np.savez(os.path.join(out_dir, f"rank{rank}.npz"), losses=np.array(losses), *weights)
