"""A learning-rate schedule fed to the optimizer; the dataset comes from a factory function."""
import os

import numpy as np
import tensorflow as tf

TRAIN_STEPS = 160
tf.keras.utils.set_random_seed(2)


def training_data(n_steps):
    rng = np.random.default_rng(2)
    x = rng.normal(size=(4000, 6)).astype("float32")
    y = np.tanh(x.sum(axis=1, keepdims=True)).astype("float32")
    ds = tf.data.Dataset.from_tensor_slices((x, y)).shuffle(4000, seed=2).repeat().batch(32)
    return ds.take(n_steps)


schedule = tf.keras.optimizers.schedules.ExponentialDecay(
    initial_learning_rate=0.02,  # decays 4% every 20 steps
    decay_steps=20,
    decay_rate=0.96,
)
optimizer = tf.optimizers.Adam(schedule)
model = tf.keras.Sequential([tf.keras.layers.Dense(12, activation="tanh"), tf.keras.layers.Dense(1)])

losses = []
for x, y in training_data(TRAIN_STEPS):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(model(x) - y))
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    losses.append(float(loss))

print("final loss:", round(losses[-1], 4))

out_dir = os.environ.get("RANKLIFT_E2E_OUT")
if out_dir:
    rank = os.environ.get("HOROVOD_RANK", "0")
    np.savez(os.path.join(out_dir, f"rank{rank}.npz"), losses=np.array(losses), *[v.numpy() for v in model.variables])
