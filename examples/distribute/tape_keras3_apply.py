"""The Keras 3 custom training loop: a GradientTape, then `optimizer.apply(grads,
model.trainable_variables)` — Keras 3's own way to apply gradients (no `zip`)."""
import os

import numpy as np
import tensorflow as tf
from tensorflow import keras

keras.utils.set_random_seed(4)
rng = np.random.default_rng(4)
x = rng.normal(size=(2048, 8)).astype("float32")
y = (x @ rng.normal(size=(8, 1))).astype("float32")
dataset = tf.data.Dataset.from_tensor_slices((x, y)).shuffle(2048, seed=4).batch(64)

model = keras.Sequential([keras.Input(shape=(8,)), keras.layers.Dense(16, activation="relu"), keras.layers.Dense(1)])
optimizer = keras.optimizers.SGD(learning_rate=0.02)
loss_fn = keras.losses.MeanSquaredError()
losses = []
for epoch in range(3):
    for bx, by in dataset:
        with tf.GradientTape() as tape:
            loss = loss_fn(by, model(bx, training=True))
        grads = tape.gradient(loss, model.trainable_variables)
        optimizer.apply(grads, model.trainable_variables)
        losses.append(float(loss))
    print(f"epoch {epoch}: loss {losses[-1]:.4f}")

out_dir = os.environ.get("RANKLIFT_E2E_OUT")
if out_dir:
    rank = os.environ.get("HOROVOD_RANK", "0")
    np.savez(os.path.join(out_dir, f"rank{rank}.npz"), losses=np.array(losses), *model.get_weights())
