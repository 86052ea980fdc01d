"""Classification with a @tf.function-compiled training step (the usual TF2 idiom)."""
import os
import sys

import numpy as np
import tensorflow as tf

EPOCHS = 3
tf.keras.utils.set_random_seed(1)
rng = np.random.default_rng(1)

x = rng.normal(size=(2048, 8)).astype("float32")
labels = (x[:, 0] + x[:, 1] * x[:, 2] > 0).astype("int32")
train_ds = tf.data.Dataset.from_tensor_slices((x, labels)).batch(64)

model = tf.keras.Sequential([
    tf.keras.layers.Dense(16, activation="relu"),
    tf.keras.layers.Dense(2),
])
loss_object = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)
optimizer = tf.keras.optimizers.Adam(0.005)
train_loss = tf.keras.metrics.Mean()


@tf.function
def train_step(images, targets):
    with tf.GradientTape() as tape:
        logits = model(images, training=True)
        loss = loss_object(targets, logits)
    gradients = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(gradients, model.trainable_variables))
    return loss


losses = []
for epoch in range(EPOCHS):
    train_loss.reset_states()
    for images, targets in train_ds:
        loss = train_step(images, targets)
        train_loss(loss)
    losses.append(float(train_loss.result()))
    tf.print("epoch", epoch, "loss", train_loss.result(), output_stream=sys.stdout)

out_dir = os.environ.get("RANKLIFT_E2E_OUT")
if out_dir:
    rank = os.environ.get("HOROVOD_RANK", "0")
    np.savez(os.path.join(out_dir, f"rank{rank}.npz"), losses=np.array(losses), *[v.numpy() for v in model.variables])
