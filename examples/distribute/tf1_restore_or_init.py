"""TF1: resume from the latest checkpoint when there is one, otherwise initialise."""
import os
import random
import tempfile

import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()
tf.set_random_seed(40)
random.seed(40)  # Keras-backed tf.layers draw initial weights from `random`
CKPT_DIR = os.environ.get("CKPT_DIR", tempfile.mkdtemp())

rng = np.random.default_rng(40)
x_np = rng.normal(size=(800, 3)).astype("float32")
y_np = (x_np[:, :1] - 2 * x_np[:, 2:]).astype("float32")
x = tf.placeholder(tf.float32, [None, 3])
y = tf.placeholder(tf.float32, [None, 1])
pred = tf.layers.dense(x, 1)
loss = tf.losses.mean_squared_error(y, pred)
train_op = tf.train.FtrlOptimizer(0.2).minimize(loss)
saver = tf.train.Saver()

losses = []
with tf.Session() as sess:
    latest = tf.train.latest_checkpoint(CKPT_DIR)
    if latest:
        saver.restore(sess, latest)
    else:
        sess.run(tf.global_variables_initializer())
    for _ in range(100):
        _, l = sess.run([train_op, loss], {x: x_np, y: y_np})
        losses.append(l)
    saver.save(sess, os.path.join(CKPT_DIR, "model"))
    weights = sess.run(tf.trainable_variables())
print("loss %.4f -> %.4f" % (losses[0], losses[-1]))

out_dir = os.environ.get("RANKLIFT_E2E_OUT")
if out_dir:
    rank = os.environ.get("HOROVOD_RANK", "0")
    np.savez(os.path.join(out_dir, f"rank{rank}.npz"), losses=np.array(losses), *weights)
