"""An Estimator configured by a RunConfig variable, with a logging hook and max_steps."""
import os
import random
import tempfile

import numpy as np
import tensorflow.compat.v1 as tf

STEP_LOSSES = []


class Losses(tf.train.SessionRunHook):
    def __init__(self, loss):
        self.loss = loss

    def before_run(self, run_context):
        return tf.train.SessionRunArgs(self.loss)

    def after_run(self, run_context, run_values):
        STEP_LOSSES.append(run_values.results)


def regression_model_fn(features, labels, mode, params):
    pred = tf.layers.dense(tf.layers.dense(features, 8, tf.nn.tanh), 1)
    loss = tf.losses.mean_squared_error(labels, pred)
    train_op = tf.train.GradientDescentOptimizer(params["lr"]).minimize(loss, global_step=tf.train.get_global_step())
    return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=train_op, training_hooks=[Losses(loss)])


def input_fn():
    rng = np.random.default_rng(38)
    x = rng.uniform(-1, 1, size=(2000, 3)).astype("float32")
    y = (x ** 2).sum(axis=1, keepdims=True).astype("float32")
    return tf.data.Dataset.from_tensor_slices((x, y)).repeat().batch(40)


random.seed(38)  # Keras-backed tf.layers draw initial weights from `random`
run_config = tf.estimator.RunConfig(save_checkpoints_steps=100, log_step_count_steps=50, tf_random_seed=38)
model = tf.estimator.Estimator(regression_model_fn, tempfile.mkdtemp(), config=run_config, params={"lr": 0.1})
model.train(input_fn, hooks=[tf.train.StepCounterHook(every_n_steps=100)], max_steps=180)
print("trained; last loss", STEP_LOSSES[-1])

out_dir = os.environ.get("RANKLIFT_E2E_OUT")
if out_dir:
    rank = os.environ.get("HOROVOD_RANK", "0")
    names = sorted(n for n in model.get_variable_names() if n.startswith("dense"))
    np.savez(os.path.join(out_dir, f"rank{rank}.npz"), losses=np.array(STEP_LOSSES), *[model.get_variable_value(n) for n in names])
