"""A guide that holds two programs in sequence, each with its own `@tf.function` `train_step`
(TensorFlow's "writing a training loop from scratch" shape): a regression first, then a
classifier on the same data. Both loops train; both are distributed (this was refused with
DST207 once: two `train_step`s)."""
import os

import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(17)
x = np.random.default_rng(17).normal(size=(1024, 6)).astype("float32")
y_reg = (x[:, :3].sum(axis=1, keepdims=True) - x[:, 3:4]).astype("float32")
y_cls = (y_reg[:, 0] > 0).astype("int64")

# Part 1: regression.
reg = tf.keras.Sequential([tf.keras.layers.Dense(16, activation="relu"), tf.keras.layers.Dense(1)])
reg_opt = tf.keras.optimizers.Adam(0.01)
reg_ds = tf.data.Dataset.from_tensor_slices((x, y_reg)).shuffle(1024, seed=1).batch(32)


@tf.function
def train_step(bx, by):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(reg(bx) - by))
    grads = tape.gradient(loss, reg.trainable_variables)
    reg_opt.apply_gradients(zip(grads, reg.trainable_variables))
    return loss


losses = []
for epoch in range(3):
    for bx, by in reg_ds:
        losses.append(float(train_step(bx, by)))
    print(f"regression epoch {epoch}: loss {losses[-1]:.4f}")

# Part 2: classification, its own step function.
clf = tf.keras.Sequential([tf.keras.layers.Dense(16, activation="relu"), tf.keras.layers.Dense(2)])
clf_opt = tf.keras.optimizers.SGD(0.1)
loss_fn = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)
clf_ds = tf.data.Dataset.from_tensor_slices((x, y_cls)).shuffle(1024, seed=2).batch(32)


@tf.function
def train_step_clf(bx, by):
    with tf.GradientTape() as tape:
        loss = loss_fn(by, clf(bx))
    grads = tape.gradient(loss, clf.trainable_variables)
    clf_opt.apply_gradients(zip(grads, clf.trainable_variables))
    return loss


for epoch in range(3):
    for bx, by in clf_ds:
        loss = train_step_clf(bx, by)
    print(f"classification epoch {epoch}: loss {float(loss):.4f}")

out_dir = os.environ.get("RANKLIFT_E2E_OUT")
if out_dir:
    rank = os.environ.get("HOROVOD_RANK", "0")
    weights = [v.numpy() for v in reg.variables + clf.variables]
    np.savez(os.path.join(out_dir, f"rank{rank}.npz"), losses=np.array(losses), *weights)
