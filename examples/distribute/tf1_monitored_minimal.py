"""MonitoredTrainingSession with only a hooks variable: no config, no checkpoint_dir."""
import os
import random

import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()
tf.set_random_seed(36)
random.seed(36)  # Keras-backed tf.layers draw initial weights from `random`


class LastWeights(tf.train.SessionRunHook):
    def begin(self):
        self._vars = tf.trainable_variables()

    def end(self, session):
        self.values = session.run(self._vars)


rng = np.random.default_rng(36)
x = tf.constant(rng.normal(size=(512, 2)).astype("float32"))
y = tf.reduce_sum(x * [2.0, -1.0], axis=1, keepdims=True)
pred = tf.layers.dense(x, 1)
loss = tf.losses.mean_squared_error(y, pred)
step = tf.train.get_or_create_global_step()
optimizer = tf.train.AdagradOptimizer(learning_rate=0.3)
train = optimizer.minimize(loss, global_step=step)
last = LastWeights()
hooks = [tf.train.StopAtStepHook(num_steps=120), last]

history = []
with tf.train.MonitoredTrainingSession(hooks=hooks) as sess:
    while not sess.should_stop():
        history.append(sess.run([train, loss])[1])
print("loss %.4f -> %.4f" % (history[0], history[-1]))

out_dir = os.environ.get("RANKLIFT_E2E_OUT")
if out_dir:
    rank = os.environ.get("HOROVOD_RANK", "0")
    np.savez(os.path.join(out_dir, f"rank{rank}.npz"), losses=np.array(history), *last.values)
