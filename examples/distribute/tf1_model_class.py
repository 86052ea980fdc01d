"""A TF1 model class builds its training op in `__init__` (`self.opt_op =
self.optimizer.minimize(self.loss)`) and runs it in a method that takes the session: the loop
that calls `model.train(sess, ...)` is the training loop (it was not divided)."""
import os
import random

import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()
tf.set_random_seed(41)
random.seed(41)


class Regressor:
    def __init__(self, lr):
        self.x = tf.placeholder(tf.float32, [None, 4])
        self.y = tf.placeholder(tf.float32, [None, 1])
        hidden = tf.layers.dense(self.x, 16, activation=tf.nn.tanh)
        self.pred = tf.layers.dense(hidden, 1)
        self.loss = tf.reduce_mean(tf.square(self.pred - self.y))
        self.optimizer = tf.train.GradientDescentOptimizer(lr)
        self.opt_op = self.optimizer.minimize(self.loss)

    def train(self, sess, xb, yb):
        _, loss = sess.run([self.opt_op, self.loss], feed_dict={self.x: xb, self.y: yb})
        return loss


rng = np.random.default_rng(41)
data_x = rng.normal(size=(2000, 4)).astype("float32")
data_y = np.tanh(data_x @ np.array([[1.0], [-0.5], [0.3], [0.8]], dtype="float32")).astype("float32")
model = Regressor(0.1)
losses = []
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for step in range(300):
        batch = rng.integers(0, len(data_x), size=40)
        losses.append(model.train(sess, data_x[batch], data_y[batch]))
        if step % 100 == 0:
            print(f"step {step}: loss {losses[-1]:.4f}")
    weights = sess.run(tf.trainable_variables())

out_dir = os.environ.get("RANKLIFT_E2E_OUT")
if out_dir:
    rank = os.environ.get("HOROVOD_RANK", "0")
    np.savez(os.path.join(out_dir, f"rank{rank}.npz"), losses=np.array(losses), *weights)
