"""Regression with a small Keras MLP and a custom GradientTape training loop.

Synthetic data: y = sin(x0) + 0.5 * x1 + noise. Runs on CPU in a few seconds.
"""
import os
import tempfile

import numpy as np
import tensorflow as tf

os.environ["CUDA_VISIBLE_DEVICES"] = "0"  # the single-GPU habit ranklift removes

BATCH = 32
STEPS = 200
tf.keras.utils.set_random_seed(7)
rng = np.random.default_rng(7)

features = rng.normal(size=(4096, 2)).astype("float32")
targets = (np.sin(features[:, :1]) + 0.5 * features[:, 1:] + 0.05 * rng.normal(size=(4096, 1))).astype("float32")

dataset = (
    tf.data.Dataset.from_tensor_slices((features, targets))
    .shuffle(4096, seed=7)
    .repeat()
    .batch(BATCH)
)

model = tf.keras.Sequential([
    tf.keras.layers.Dense(32, activation="tanh"),
    tf.keras.layers.Dense(1),
])
loss_fn = tf.keras.losses.MeanSquaredError()
optimizer = tf.keras.optimizers.Adam(learning_rate=0.01)

checkpoint = tf.train.Checkpoint(model=model, optimizer=optimizer)
manager = tf.train.CheckpointManager(checkpoint, os.path.join(tempfile.gettempdir(), "tape_mlp_ckpt"), max_to_keep=1)


def train_step(x, y):
    with tf.GradientTape() as tape:
        loss = loss_fn(y, model(x, training=True))
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    return loss


losses = []
for step, (x, y) in enumerate(dataset.take(STEPS)):
    loss = train_step(x, y)
    losses.append(float(loss))
    if step % 50 == 0:
        print(f"step {step}: loss {float(loss):.4f}")

manager.save()
print(f"final loss {losses[-1]:.4f}")

# Record the final state for the end-to-end check (one file per process).
out_dir = os.environ.get("RANKLIFT_E2E_OUT")
if out_dir:
    rank = os.environ.get("HOROVOD_RANK", "0")
    np.savez(os.path.join(out_dir, f"rank{rank}.npz"), losses=np.array(losses), *[v.numpy() for v in model.variables])
