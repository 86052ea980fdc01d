"""A synthetic-data benchmark: time a fixed number of training steps and report images/sec and
milliseconds per step (shaped like the throughput scripts that ship with model repositories)."""
import os
import time

import numpy as np
import tensorflow as tf

BATCH_SIZE = 16
NUM_WARMUP = 3
NUM_ITERS = 24

tf.keras.utils.set_random_seed(5)
model = tf.keras.Sequential([
    tf.keras.layers.Conv2D(8, 3, activation="relu"),
    tf.keras.layers.GlobalAveragePooling2D(),
    tf.keras.layers.Dense(10),
])
opt = tf.keras.optimizers.SGD(learning_rate=0.01)
loss_fn = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)
images = tf.random.uniform([BATCH_SIZE, 32, 32, 3], seed=5)
labels = tf.random.uniform([BATCH_SIZE], maxval=10, dtype=tf.int64, seed=6)


@tf.function
def train_step(x, y):
    with tf.GradientTape() as tape:
        loss = loss_fn(y, model(x, training=True))
    grads = tape.gradient(loss, model.trainable_variables)
    opt.apply_gradients(zip(grads, model.trainable_variables))
    return loss


warmup_losses = []
for _ in range(NUM_WARMUP):
    warmup_losses.append(float(train_step(images, labels)))

start = time.perf_counter()
for _ in range(NUM_ITERS):
    loss = train_step(images, labels)
elapsed = time.perf_counter() - start
print(f"{NUM_ITERS * BATCH_SIZE / elapsed:.1f} images/sec, {1000 * elapsed / NUM_ITERS:.2f} ms/step, loss {float(loss):.3f}")

out_dir = os.environ.get("RANKLIFT_E2E_OUT")
if out_dir:
    rank = os.environ.get("HOROVOD_RANK", "0")
    np.savez(os.path.join(out_dir, f"rank{rank}.npz"), losses=np.array(warmup_losses + [float(loss)]), *model.get_weights())
