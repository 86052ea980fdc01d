"""TF1 session with a summary FileWriter, periodic Saver checkpoints and a default-lr Adam."""
import os
import random
import tempfile

import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()
tf.set_random_seed(39)
random.seed(39)  # Keras-backed tf.layers draw initial weights from `random`
rng = np.random.default_rng(39)
logdir = tempfile.mkdtemp()

x = tf.placeholder(tf.float32, [None, 6])
y = tf.placeholder(tf.float32, [None, 1])
pred = tf.layers.dense(tf.layers.dense(x, 12, tf.nn.relu), 1)
loss = tf.losses.mean_squared_error(y, pred)
tf.summary.scalar("loss", loss)
merged = tf.summary.merge_all()
train_op = tf.train.AdamOptimizer().minimize(loss)
saver = tf.train.Saver(max_to_keep=2)
writer = tf.summary.FileWriter(logdir)

data = rng.normal(size=(1200, 6)).astype("float32")
labels = np.tanh(data[:, :1] - data[:, 1:2]).astype("float32")
losses = []
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for step in range(150):
        idx = rng.integers(0, len(data), size=48)
        summary, _, l = sess.run([merged, train_op, loss], {x: data[idx], y: labels[idx]})
        writer.add_summary(summary, step)
        losses.append(l)
        if step % 75 == 74:
            saver.save(sess, os.path.join(logdir, "model"), global_step=step)
    writer.close()
    weights = sess.run(tf.trainable_variables())
print("loss %.4f -> %.4f" % (losses[0], losses[-1]))

out_dir = os.environ.get("RANKLIFT_E2E_OUT")
if out_dir:
    rank = os.environ.get("HOROVOD_RANK", "0")
    np.savez(os.path.join(out_dir, f"rank{rank}.npz"), losses=np.array(losses), *weights)
