"""A guide that writes its training step three times (the shape of Keras' "training loop from
scratch" guide): an eager loop, then a @tf.function `train_step` run by a second loop, then a
second `train_step` (with the model's extra losses) that the guide shows but never runs — the
third definition, for a last loop, replaces it first.

Distributed, the two steps that run broadcast the initial state after their first batch; the
version that never runs is left as it is (it needs no broadcast and has no caller to pass one)."""
import os

import numpy as np
import tensorflow as tf
from tensorflow import keras

keras.utils.set_random_seed(5)
rng = np.random.default_rng(5)
x = rng.normal(size=(1536, 6)).astype("float32")
y = (x[:, 0] - x[:, 1] > 0).astype("int64")
train_dataset = tf.data.Dataset.from_tensor_slices((x, y)).shuffle(1536, seed=5).batch(64)

model = keras.Sequential([keras.Input(shape=(6,)), keras.layers.Dense(16, activation="relu"), keras.layers.Dense(2)])
optimizer = keras.optimizers.Adam(learning_rate=0.01)
loss_fn = keras.losses.SparseCategoricalCrossentropy(from_logits=True)
losses = []

# The eager loop.
for bx, by in train_dataset:
    with tf.GradientTape() as tape:
        loss = loss_fn(by, model(bx, training=True))
    grads = tape.gradient(loss, model.trainable_weights)
    optimizer.apply(grads, model.trainable_weights)
    losses.append(float(loss))


@tf.function
def train_step(bx, by):
    with tf.GradientTape() as tape:
        loss = loss_fn(by, model(bx, training=True))
    grads = tape.gradient(loss, model.trainable_weights)
    optimizer.apply(grads, model.trainable_weights)
    return loss


# The compiled loop.
for bx, by in train_dataset:
    losses.append(float(train_step(bx, by)))


@tf.function
def train_step(bx, by):
    with tf.GradientTape() as tape:
        loss = loss_fn(by, model(bx, training=True))
        loss += sum(model.losses)
    grads = tape.gradient(loss, model.trainable_weights)
    optimizer.apply(grads, model.trainable_weights)
    return loss


@tf.function
def train_step(bx, by):
    with tf.GradientTape() as tape:
        loss = loss_fn(by, model(bx, training=True))
    grads = tape.gradient(loss, model.trainable_weights)
    optimizer.apply(grads, model.trainable_weights)
    return loss


# The last loop.
for bx, by in train_dataset:
    losses.append(float(train_step(bx, by)))
print(f"final loss {losses[-1]:.4f}")

out_dir = os.environ.get("RANKLIFT_E2E_OUT")
if out_dir:
    rank = os.environ.get("HOROVOD_RANK", "0")
    np.savez(os.path.join(out_dir, f"rank{rank}.npz"), losses=np.array(losses), *model.get_weights())
