"""A whole training loop compiled with @tf.function, calling a plain step function per batch
(the AutoGraph guide's style): the step runs in graph mode although it is not decorated."""
import os

import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(3)
rng = np.random.default_rng(3)
x = rng.normal(size=(2000, 6)).astype("float32")
y = (x[:, 0] - x[:, 3] > 0).astype("int64")

model = tf.keras.Sequential([
    tf.keras.layers.Dense(24, activation="relu"),
    tf.keras.layers.Dense(2),
])
model.build((None, 6))
optimizer = tf.keras.optimizers.Adam(0.01)
compute_loss = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)


def make_dataset():
    ds = tf.data.Dataset.from_tensor_slices((x, y))
    return ds.shuffle(2000, seed=3).batch(50)


def train_one_step(x_batch, y_batch):
    with tf.GradientTape() as tape:
        loss = compute_loss(y_batch, model(x_batch, training=True))
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    return loss


@tf.function
def train_epoch():
    total = 0.0
    steps = 0
    for x_batch, y_batch in make_dataset():
        total += train_one_step(x_batch, y_batch)
        steps += 1
    return total / tf.cast(steps, tf.float32)


losses = []
for epoch in range(3):
    losses.append(float(train_epoch()))
    print(f"epoch {epoch}: loss {losses[-1]:.4f}")

out_dir = os.environ.get("RANKLIFT_E2E_OUT")
if out_dir:
    rank = os.environ.get("HOROVOD_RANK", "0")
    np.savez(os.path.join(out_dir, f"rank{rank}.npz"), losses=np.array(losses), *[v.numpy() for v in model.variables])
