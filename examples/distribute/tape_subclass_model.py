"""A keras.Model subclass, an optimizer with default settings, and TensorBoard summaries."""
import os
import tempfile

import numpy as np
import tensorflow as tf


class ResidualMLP(tf.keras.Model):
    def __init__(self, width):
        super().__init__()
        self.inp = tf.keras.layers.Dense(width, activation="relu")
        self.hidden = tf.keras.layers.Dense(width, activation="relu")
        self.out = tf.keras.layers.Dense(1)

    def call(self, x):
        h = self.inp(x)
        return self.out(h + self.hidden(h))


tf.keras.utils.set_random_seed(4)
rng = np.random.default_rng(4)
x_train = rng.normal(size=(2000, 3)).astype("float32")
y_train = (x_train[:, :1] ** 2 - x_train[:, 1:2]).astype("float32")
ds = tf.data.Dataset.from_tensor_slices((x_train, y_train)).repeat().batch(40)

model = ResidualMLP(20)
optimizer = tf.keras.optimizers.Adam()
writer = tf.summary.create_file_writer(os.path.join(tempfile.gettempdir(), "residual_mlp_logs"))

losses = []
for step, (xb, yb) in enumerate(ds.take(120)):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(model(xb) - yb))
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    losses.append(float(loss))
    with writer.as_default():
        tf.summary.scalar("loss", loss, step=step)

print("loss:", losses[0], "->", losses[-1])

out_dir = os.environ.get("RANKLIFT_E2E_OUT")
if out_dir:
    rank = os.environ.get("HOROVOD_RANK", "0")
    np.savez(os.path.join(out_dir, f"rank{rank}.npz"), losses=np.array(losses), *[v.numpy() for v in model.variables])
