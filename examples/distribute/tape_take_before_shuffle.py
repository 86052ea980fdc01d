"""A pipeline that trains on the first part of its data: `take(2048)` of 4096 rows, then
shuffle and batch, as tutorials cut a large data set down to a quick run; epochs over it in a
tape loop.

The shard goes after the `take`: sharded at the source, each process would take 2048 rows of
its own half — as many batches per pass as the original, the work not divided at all."""
import os

import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(9)


def make_dataset():
    rng = np.random.default_rng(9)
    x = rng.normal(size=(4096, 6)).astype("float32")
    y = (x @ rng.normal(size=(6, 1))).astype("float32")
    ds = tf.data.Dataset.from_tensor_slices((x, y))
    ds = ds.take(2048).shuffle(2048, seed=9).batch(64)
    return ds


model = tf.keras.Sequential([tf.keras.layers.Dense(16, activation="relu"), tf.keras.layers.Dense(1)])
optimizer = tf.keras.optimizers.Adam(0.01)
train_ds = make_dataset()

epoch_losses = []
for epoch in range(3):
    total = 0.0
    for bx, by in train_ds:
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(model(bx, training=True) - by))
        grads = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(grads, model.trainable_variables))
        total += float(loss)
    epoch_losses.append(total)
    print(f"epoch {epoch}: loss {total:.3f}")

out_dir = os.environ.get("RANKLIFT_E2E_OUT")
if out_dir:
    rank = os.environ.get("HOROVOD_RANK", "0")
    np.savez(os.path.join(out_dir, f"rank{rank}.npz"), losses=np.array(epoch_losses), *[v.numpy() for v in model.variables])
