"""TF1 MonitoredTrainingSession with hooks, a step limit and checkpoints."""
import os
import random
import tempfile

import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()
TRAIN_STEPS = 300


class FinalWeights(tf.train.SessionRunHook):
    """Records the trainable variables when the session ends."""

    def __init__(self):
        self.values = None

    def begin(self):
        self._vars = tf.trainable_variables()

    def end(self, session):
        self.values = session.run(self._vars)


def main():
    tf.set_random_seed(35)
    random.seed(35)  # Keras-backed tf.layers draw initial weights from `random`
    rng = np.random.default_rng(35)
    x_np = rng.normal(size=(3000, 5)).astype("float32")
    y_np = (x_np.sum(axis=1, keepdims=True) > 0).astype("float32")
    dataset = tf.data.Dataset.from_tensor_slices((x_np, y_np)).shuffle(3000, seed=35).repeat().batch(32)
    features, labels = tf.data.make_one_shot_iterator(dataset).get_next()
    logits = tf.layers.dense(tf.layers.dense(features, 16, tf.nn.relu), 1)
    loss = tf.reduce_mean(tf.nn.sigmoid_cross_entropy_with_logits(labels=labels, logits=logits))
    global_step = tf.train.get_or_create_global_step()
    train_op = tf.train.RMSPropOptimizer(0.005).minimize(loss, global_step=global_step)

    final = FinalWeights()
    hooks = [tf.train.StopAtStepHook(last_step=TRAIN_STEPS), tf.train.NanTensorHook(loss), final]
    losses = []
    with tf.train.MonitoredTrainingSession(checkpoint_dir=tempfile.mkdtemp(), hooks=hooks) as mon_sess:
        while not mon_sess.should_stop():
            _, value, step = mon_sess.run([train_op, loss, global_step])
            losses.append(value)
            if step % 100 == 0:
                print("step", step, "loss", value)
    out_dir = os.environ.get("RANKLIFT_E2E_OUT")
    if out_dir:
        rank = os.environ.get("HOROVOD_RANK", "0")
        np.savez(os.path.join(out_dir, f"rank{rank}.npz"), losses=np.array(losses), *final.values)


if __name__ == "__main__":
    main()
