"""A custom tf.estimator.Estimator: model_fn with an optimizer, input_fn with tf.data."""
import os
import random
import tempfile

import numpy as np
import tensorflow.compat.v1 as tf

LOSSES = []


class RecordLoss(tf.train.SessionRunHook):
    def __init__(self, loss):
        self._loss = loss

    def before_run(self, run_context):
        return tf.train.SessionRunArgs(self._loss)

    def after_run(self, run_context, run_values):
        LOSSES.append(run_values.results)


def model_fn(features, labels, mode):
    hidden = tf.layers.dense(features["x"], 16, activation=tf.nn.relu)
    logits = tf.layers.dense(hidden, 3)
    loss = tf.losses.sparse_softmax_cross_entropy(labels=labels, logits=logits)
    optimizer = tf.train.AdamOptimizer(learning_rate=0.01)
    train_op = optimizer.minimize(loss, global_step=tf.train.get_global_step())
    return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=train_op, training_hooks=[RecordLoss(loss)])


def train_input_fn():
    rng = np.random.default_rng(37)
    centers = np.array([[2.0, 0.0], [-2.0, 1.0], [0.0, -2.0]], dtype="float32")
    y = rng.integers(0, 3, size=3000)
    x = centers[y] + rng.normal(scale=0.7, size=(3000, 2)).astype("float32")
    ds = tf.data.Dataset.from_tensor_slices(({"x": x.astype("float32")}, y.astype("int32")))
    return ds.shuffle(3000, seed=37).repeat().batch(32)


def main():
    random.seed(37)  # Keras-backed tf.layers draw initial weights from `random`
    # An Estimator builds its own graph: its seed goes through RunConfig, not tf.set_random_seed.
    estimator = tf.estimator.Estimator(model_fn=model_fn, model_dir=tempfile.mkdtemp(),
                                       config=tf.estimator.RunConfig(tf_random_seed=37))
    estimator.train(input_fn=train_input_fn, steps=200)
    print("loss: %.3f -> %.3f" % (LOSSES[0], LOSSES[-1]))
    names = [n for n in estimator.get_variable_names() if n.startswith("dense") and "Adam" not in n]
    out_dir = os.environ.get("RANKLIFT_E2E_OUT")
    if out_dir:
        rank = os.environ.get("HOROVOD_RANK", "0")
        np.savez(os.path.join(out_dir, f"rank{rank}.npz"), losses=np.array(LOSSES),
                 *[estimator.get_variable_value(n) for n in sorted(names)])


if __name__ == "__main__":
    main()
