"""A guide-shaped script: a training step, a first training run, then the same step redefined
with `@tf.function` and a second run (each call runs the definition that precedes it)."""
import os

import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(60)
rng = np.random.default_rng(60)
x = rng.normal(size=(512, 4)).astype("float32")
y = (x @ rng.normal(size=(4, 1))).astype("float32")
ds = tf.data.Dataset.from_tensor_slices((x, y)).batch(32)
model = tf.keras.Sequential([tf.keras.layers.Dense(8, activation="tanh"), tf.keras.layers.Dense(1)])
opt = tf.keras.optimizers.SGD(0.05)
losses = []


def train_step(bx, by):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(model(bx) - by))
    grads = tape.gradient(loss, model.trainable_variables)
    opt.apply_gradients(zip(grads, model.trainable_variables))
    return loss


for epoch in range(2):
    losses.append(sum(float(train_step(bx, by)) for bx, by in ds))
print("eager epochs done, loss", losses[-1])


@tf.function
def train_step(bx, by):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(model(bx) - by))
    grads = tape.gradient(loss, model.trainable_variables)
    opt.apply_gradients(zip(grads, model.trainable_variables))
    return loss


for epoch in range(2):
    total = 0.0
    for bx, by in ds:
        total += float(train_step(bx, by))
    losses.append(total)
print("graph epochs done, loss", losses[-1])

out_dir = os.environ.get("RANKLIFT_E2E_OUT")
if out_dir:
    rank = os.environ.get("HOROVOD_RANK", "0")
    np.savez(os.path.join(out_dir, f"rank{rank}.npz"), losses=np.array(losses), *[v.numpy() for v in model.variables])
