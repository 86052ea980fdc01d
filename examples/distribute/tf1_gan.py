"""A TF1 GAN: two optimizers over two variable lists, both run every step."""
import os
import random

import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()
tf.set_random_seed(34)
random.seed(34)  # Keras-backed tf.layers draw initial weights from `random`
rng = np.random.default_rng(34)

real = tf.placeholder(tf.float32, [None, 1])
noise = tf.placeholder(tf.float32, [None, 4])
with tf.variable_scope("generator"):
    fake = tf.layers.dense(tf.layers.dense(noise, 16, tf.nn.relu), 1)
with tf.variable_scope("discriminator"):
    d_layer1 = tf.layers.Dense(16, tf.nn.relu)
    d_layer2 = tf.layers.Dense(1)
    d_real = d_layer2(d_layer1(real))
    d_fake = d_layer2(d_layer1(fake))
bce = tf.nn.sigmoid_cross_entropy_with_logits
d_loss = tf.reduce_mean(bce(labels=tf.ones_like(d_real), logits=d_real) + bce(labels=tf.zeros_like(d_fake), logits=d_fake))
g_loss = tf.reduce_mean(bce(labels=tf.ones_like(d_fake), logits=d_fake))
g_vars = tf.trainable_variables("generator")
d_vars = tf.trainable_variables("discriminator")
d_train = tf.train.AdamOptimizer(1e-3).minimize(d_loss, var_list=d_vars)
g_train = tf.train.AdamOptimizer(1e-3).minimize(g_loss, var_list=g_vars)

losses = []
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for step in range(200):
        batch = {real: rng.normal(3.0, 0.5, size=(64, 1)), noise: rng.normal(size=(64, 4))}
        _, dl = sess.run([d_train, d_loss], batch)
        _, gl = sess.run([g_train, g_loss], batch)
        losses.append(dl)
    samples = sess.run(fake, {noise: rng.normal(size=(1000, 4))})
    print("generated mean %.2f (target 3.0)" % samples.mean())
    weights = sess.run(g_vars + d_vars)

out_dir = os.environ.get("RANKLIFT_E2E_OUT")
if out_dir:
    rank = os.environ.get("HOROVOD_RANK", "0")
    # The GAN's loss oscillates; record the generator's distance to the target mean instead.
    np.savez(os.path.join(out_dir, f"rank{rank}.npz"), losses=np.array([3.0, abs(samples.mean() - 3.0)]), *weights)
