"""TF1 linear regression: placeholders, feed_dict, `sess.run(init)` and a Saver."""
import os
import random
import tempfile

import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()
tf.set_random_seed(31)
random.seed(31)  # Keras-backed tf.layers draw initial weights from `random`
rng = np.random.default_rng(31)
x_data = rng.normal(size=(1000, 3)).astype("float32")
y_data = (x_data @ np.array([[1.5], [-2.0], [0.7]], dtype="float32") + 0.5).astype("float32")

x = tf.placeholder(tf.float32, [None, 3], name="x")
y = tf.placeholder(tf.float32, [None, 1], name="y")
w = tf.Variable(tf.random_normal([3, 1]), name="w")
b = tf.Variable(tf.zeros([1]), name="b")
loss = tf.reduce_mean(tf.square(tf.matmul(x, w) + b - y))
train_op = tf.train.GradientDescentOptimizer(0.05).minimize(loss)
init = tf.global_variables_initializer()
saver = tf.train.Saver()

losses = []
with tf.Session() as sess:
    sess.run(init)
    for step in range(200):
        idx = rng.integers(0, len(x_data), size=50)
        _, l = sess.run([train_op, loss], feed_dict={x: x_data[idx], y: y_data[idx]})
        losses.append(l)
        if step % 50 == 0:
            print(f"step {step}: loss {l:.4f}")
    saver.save(sess, os.path.join(tempfile.mkdtemp(), "linreg"))
    weights = sess.run(tf.trainable_variables())

out_dir = os.environ.get("RANKLIFT_E2E_OUT")
if out_dir:
    rank = os.environ.get("HOROVOD_RANK", "0")
    np.savez(os.path.join(out_dir, f"rank{rank}.npz"), losses=np.array(losses), *weights)
