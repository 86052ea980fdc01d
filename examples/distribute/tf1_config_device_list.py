"""TF1 softmax regression whose session config picks its GPU itself (`visible_device_list`)."""
import os

import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()
tf.set_random_seed(5)
rng = np.random.default_rng(5)
x_data = rng.normal(size=(800, 4)).astype("float32")
true_w = np.array([[1.0, -1.0, 0.5], [0.5, 2.0, -1.0], [-1.5, 0.0, 1.0], [0.0, 1.0, 1.0]])
y_data = (x_data @ true_w).argmax(axis=1)

x = tf.placeholder(tf.float32, [None, 4])
y = tf.placeholder(tf.int64, [None])
w = tf.Variable(tf.zeros([4, 3]))
b = tf.Variable(tf.zeros([3]))
logits = tf.matmul(x, w) + b
loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=logits))
train_op = tf.train.GradientDescentOptimizer(0.5).minimize(loss)

config = tf.ConfigProto()
config.gpu_options.allow_growth = True
config.gpu_options.visible_device_list = "0"

losses = []
with tf.Session(config=config) as sess:
    sess.run(tf.global_variables_initializer())
    for step in range(150):
        idx = rng.integers(0, len(x_data), size=40)
        _, l = sess.run([train_op, loss], feed_dict={x: x_data[idx], y: y_data[idx]})
        losses.append(l)
        if step % 50 == 0:
            print(f"step {step}: loss {l:.4f}")
    weights = sess.run(tf.trainable_variables())

out_dir = os.environ.get("RANKLIFT_E2E_OUT")
if out_dir:
    rank = os.environ.get("HOROVOD_RANK", "0")
    np.savez(os.path.join(out_dir, f"rank{rank}.npz"), losses=np.array(losses), *weights)
