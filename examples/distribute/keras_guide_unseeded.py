"""Like Keras' guide to customising `fit`: a model class overrides `train_step`, and two models
are fitted in turn on data drawn with `np.random.random`, nothing seeded — every run draws other
data and other initial weights. `ranklift verify` compares the original with the rewrite on one
process: it must start both from the same draws, or it compares two different trainings."""
import os

import numpy as np
import tensorflow as tf
from tensorflow import keras


class CustomModel(keras.Model):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.loss_tracker = keras.metrics.Mean(name="loss")

    @property
    def metrics(self):
        return [self.loss_tracker]

    def train_step(self, data):
        x, y = data
        with tf.GradientTape() as tape:
            y_pred = self(x, training=True)
            loss = tf.reduce_mean(tf.square(y - y_pred))
        grads = tape.gradient(loss, self.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, self.trainable_variables))
        self.loss_tracker.update_state(loss)
        return {"loss": self.loss_tracker.result()}


inputs = keras.Input(shape=(32,))
outputs = keras.layers.Dense(1)(inputs)
model = CustomModel(inputs, outputs)
model.compile(optimizer="adam")
x = np.random.random((1024, 32))
y = np.random.random((1024, 1))
first = model.fit(x, y, epochs=3, verbose=0)

inputs = keras.Input(shape=(32,))
hidden = keras.layers.Dense(16, activation="relu")(inputs)
outputs = keras.layers.Dense(1)(hidden)
model = CustomModel(inputs, outputs)
model.compile(optimizer="adam")
x = np.random.random((1024, 32))
y = x[:, :1] * 0.5 + 0.1 * np.random.random((1024, 1))
second = model.fit(x, y, epochs=3, verbose=0)
print(f"first model's loss {first.history['loss'][-1]:.4f}, second's {second.history['loss'][-1]:.4f}")

out_dir = os.environ.get("RANKLIFT_E2E_OUT")
if out_dir:
    rank = os.environ.get("HOROVOD_RANK", "0")
    losses = first.history["loss"] + second.history["loss"]
    # The trained weights (Keras 2's `get_weights` would add the loss tracker's running sum: each
    # rank's own).
    weights = [v.numpy() for v in model.trainable_variables]
    np.savez(os.path.join(out_dir, f"rank{rank}.npz"), losses=np.array(losses), *weights)
