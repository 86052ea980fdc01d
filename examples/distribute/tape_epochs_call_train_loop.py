"""Epochs that call a function holding the pass over the data, as tutorials write it: the
datasets come from a function that returns both splits, the training one is shuffled and batched
at the top level, and `train(model, optimizer, dataset)` loops over whatever it is given.

The pass inside `train` is the training loop: its dataset is sharded (followed from the parameter
to the one argument its caller passes). The epoch loop around the call is not divided: each
process already does 1/N of every epoch."""
import os
import tempfile

import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(8)

model = tf.keras.Sequential([
    tf.keras.layers.Flatten(),
    tf.keras.layers.Dense(16, activation="relu"),
    tf.keras.layers.Dense(10),
])
compute_loss = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)
optimizer = tf.keras.optimizers.SGD(learning_rate=0.05, momentum=0.5)


def toy_datasets():
    rng = np.random.default_rng(8)
    x = rng.uniform(size=(7000, 6, 6)).astype("float32")
    y = (x.sum(axis=(1, 2)) * 10 / 36).astype("int64") % 10
    train_dataset = tf.data.Dataset.from_tensor_slices((x[:6400], y[:6400]))
    test_dataset = tf.data.Dataset.from_tensor_slices((x[6400:], y[6400:]))
    return train_dataset, test_dataset


train_ds, test_ds = toy_datasets()
train_ds = train_ds.shuffle(6400, seed=8).batch(64)
test_ds = test_ds.batch(32)


def train_step(model, optimizer, images, labels):
    with tf.GradientTape() as tape:
        loss = compute_loss(labels, model(images, training=True))
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    return loss


def train(model, optimizer, dataset):
    total = 0.0
    for images, labels in dataset:
        total += float(train_step(model, optimizer, images, labels))
    return total


epoch_losses = []
for epoch in range(4):
    epoch_losses.append(train(model, optimizer, train_ds))
    print(f"epoch {epoch}: loss {epoch_losses[-1]:.3f}")

model.save_weights(os.path.join(tempfile.mkdtemp(), "mlp.weights.h5"))

out_dir = os.environ.get("RANKLIFT_E2E_OUT")
if out_dir:
    rank = os.environ.get("HOROVOD_RANK", "0")
    np.savez(os.path.join(out_dir, f"rank{rank}.npz"), losses=np.array(epoch_losses), *[v.numpy() for v in model.variables])
