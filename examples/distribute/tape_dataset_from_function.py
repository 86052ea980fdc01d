"""A custom loop over a dataset built by a project function and reshuffled every epoch; the
step is a `@tf.function`. Every epoch reads the whole dataset."""
import os

import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(55)


def make_dataset(n, batch):
    rng = np.random.default_rng(55)
    x = rng.normal(size=(n, 5)).astype("float32")
    y = (x[:, 0] * x[:, 1] > 0).astype("float32")[:, None]
    ds = tf.data.Dataset.from_tensor_slices((x, y))
    ds = ds.shuffle(n, seed=55)
    return ds.batch(batch)


model = tf.keras.Sequential([tf.keras.layers.Dense(16, activation="relu"), tf.keras.layers.Dense(1)])
loss_fn = tf.keras.losses.BinaryCrossentropy(from_logits=True)
optimizer = tf.keras.optimizers.Adam(0.01)


@tf.function
def train_step(x, y):
    with tf.GradientTape() as tape:
        loss = loss_fn(y, model(x, training=True))
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    return loss


losses = []
train_ds = make_dataset(1024, 32)
for epoch in range(4):
    epoch_loss = 0.0
    for step, (bx, by) in enumerate(train_ds):
        epoch_loss += float(train_step(bx, by))
    losses.append(epoch_loss)
    print(f"epoch {epoch} loss {epoch_loss:.3f}")

out_dir = os.environ.get("RANKLIFT_E2E_OUT")
if out_dir:
    rank = os.environ.get("HOROVOD_RANK", "0")
    np.savez(os.path.join(out_dir, f"rank{rank}.npz"), losses=np.array(losses), *[v.numpy() for v in model.variables])
