"""TF1 through `import tensorflow as tf` and `tf.compat.v1`: a session created by assignment,
the user's own ConfigProto (named session_conf), and `initializer.run()` under `as_default()`."""
import os
import random

import numpy as np
import tensorflow as tf

tf.compat.v1.disable_eager_execution()
tf.compat.v1.set_random_seed(32)
random.seed(32)  # Keras-backed tf.layers draw initial weights from `random`
rng = np.random.default_rng(32)
features = rng.normal(size=(1500, 4)).astype("float32")
labels = (features[:, 0] * features[:, 1] > 0).astype("int64")

x = tf.compat.v1.placeholder(tf.float32, [None, 4])
y = tf.compat.v1.placeholder(tf.int64, [None])
hidden = tf.compat.v1.layers.dense(x, 16, activation=tf.nn.relu)
logits = tf.compat.v1.layers.dense(hidden, 2)
loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=logits))
optimizer = tf.compat.v1.train.MomentumOptimizer(learning_rate=0.05, momentum=0.9)
train_op = optimizer.minimize(loss)

session_conf = tf.compat.v1.ConfigProto(allow_soft_placement=True)
sess = tf.compat.v1.Session(config=session_conf)
losses = []
with sess.as_default():
    tf.compat.v1.global_variables_initializer().run()
    for step in range(150):
        idx = rng.integers(0, len(features), size=64)
        _, value = sess.run([train_op, loss], {x: features[idx], y: labels[idx]})
        losses.append(value)
    print("final loss", losses[-1])
    weights = sess.run(tf.compat.v1.trainable_variables())
sess.close()

out_dir = os.environ.get("RANKLIFT_E2E_OUT")
if out_dir:
    rank = os.environ.get("HOROVOD_RANK", "0")
    np.savez(os.path.join(out_dir, f"rank{rank}.npz"), losses=np.array(losses), *weights)
