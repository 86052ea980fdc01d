"""An encoder/decoder pair trained with a legacy Keras optimizer (its `variables()` is a method)."""
import os

import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(19)
rng = np.random.default_rng(19)
signals = np.sin(np.linspace(0, 6, 16)[None, :] * rng.uniform(0.5, 2.0, size=(2000, 1))).astype("float32")

encoder = tf.keras.Sequential([tf.keras.layers.Dense(4, activation="tanh")])
decoder = tf.keras.Sequential([tf.keras.layers.Dense(16)])
optimizer = tf.keras.optimizers.legacy.SGD(learning_rate=0.1, momentum=0.9)

losses = []
for step in range(100):
    batch = signals[rng.integers(0, len(signals), size=64)]
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(decoder(encoder(batch)) - batch))
    variables = encoder.trainable_variables + decoder.trainable_variables
    optimizer.apply_gradients(zip(tape.gradient(loss, variables), variables))
    losses.append(float(loss))

print(f"reconstruction error {losses[0]:.4f} -> {losses[-1]:.4f}")

out_dir = os.environ.get("RANKLIFT_E2E_OUT")
if out_dir:
    rank = os.environ.get("HOROVOD_RANK", "0")
    np.savez(os.path.join(out_dir, f"rank{rank}.npz"), losses=np.array(losses),
             *[v.numpy() for v in encoder.variables + decoder.variables])
