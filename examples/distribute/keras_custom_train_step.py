"""A Keras model with its own `train_step` (the Keras "customizing fit" guide's shape): `fit`
drives the loop, the model computes and applies its own gradients with a GradientTape."""
import os

import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(41)


class Regressor(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.hidden = tf.keras.layers.Dense(16, activation="tanh")
        self.out = tf.keras.layers.Dense(1)
        self.loss_tracker = tf.keras.metrics.Mean(name="loss")

    def call(self, x):
        return self.out(self.hidden(x))

    def train_step(self, data):
        x, y = data
        with tf.GradientTape() as tape:
            pred = self(x, training=True)
            loss = tf.reduce_mean(tf.square(pred - y))
        grads = tape.gradient(loss, self.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, self.trainable_variables))
        self.loss_tracker.update_state(loss)
        return {"loss": self.loss_tracker.result()}

    @property
    def metrics(self):
        return [self.loss_tracker]


rng = np.random.default_rng(41)
x = rng.normal(size=(1024, 6)).astype("float32")
y = (x @ rng.normal(size=(6, 1))).astype("float32")
ds = tf.data.Dataset.from_tensor_slices((x, y)).batch(32)

model = Regressor()
model.compile(optimizer=tf.keras.optimizers.Adam(learning_rate=0.01))
history = model.fit(ds, epochs=4, verbose=2)

out_dir = os.environ.get("RANKLIFT_E2E_OUT")
if out_dir:
    rank = os.environ.get("HOROVOD_RANK", "0")
    np.savez(os.path.join(out_dir, f"rank{rank}.npz"), losses=np.array(history.history["loss"]),
             *[v.numpy() for v in model.trainable_variables])
