"""TF1 compute_gradients / clip / apply_gradients with a decaying learning rate."""
import os
import random

import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_v2_behavior()
tf.set_random_seed(33)
random.seed(33)  # Keras-backed tf.layers draw initial weights from `random`
rng = np.random.default_rng(33)
data = rng.uniform(-1, 1, size=(2000, 2)).astype("float32")
target = (np.sin(2 * data[:, :1]) + data[:, 1:] ** 2).astype("float32")

inputs = tf.placeholder(tf.float32, [None, 2])
outputs = tf.placeholder(tf.float32, [None, 1])
h = tf.layers.dense(inputs, 24, activation=tf.nn.tanh)
pred = tf.layers.dense(h, 1)
loss = tf.losses.mean_squared_error(outputs, pred)
global_step = tf.train.get_or_create_global_step()
learning_rate = tf.train.exponential_decay(0.05, global_step, decay_steps=50, decay_rate=0.9)
opt = tf.train.AdamOptimizer(learning_rate)
grads_and_vars = opt.compute_gradients(loss)
clipped = [(tf.clip_by_norm(g, 5.0), v) for g, v in grads_and_vars]
train_op = opt.apply_gradients(clipped, global_step=global_step)

losses = []
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for i in range(160):
        idx = rng.integers(0, len(data), size=64)
        _, l = sess.run([train_op, loss], feed_dict={inputs: data[idx], outputs: target[idx]})
        losses.append(l)
    print("loss: %.4f -> %.4f" % (losses[0], losses[-1]))
    weights = sess.run(tf.trainable_variables())

out_dir = os.environ.get("RANKLIFT_E2E_OUT")
if out_dir:
    rank = os.environ.get("HOROVOD_RANK", "0")
    np.savez(os.path.join(out_dir, f"rank{rank}.npz"), losses=np.array(losses), *weights)
