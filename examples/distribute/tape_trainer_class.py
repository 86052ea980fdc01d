"""A Trainer class: the model and optimizer live on `self`, the step is `self.train_step(...)`."""
import os

import numpy as np
import tensorflow as tf


class Trainer:
    def __init__(self, learning_rate):
        self.model = tf.keras.Sequential([
            tf.keras.layers.Dense(24, activation="relu"),
            tf.keras.layers.Dense(1),
        ])
        self.optimizer = tf.keras.optimizers.RMSprop(learning_rate)
        self.loss_fn = tf.keras.losses.MeanAbsoluteError()
        self.history = []

    def train_step(self, x, y):
        with tf.GradientTape() as tape:
            loss = self.loss_fn(y, self.model(x, training=True))
        grads = tape.gradient(loss, self.model.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, self.model.trainable_variables))
        return float(loss)

    def fit(self, dataset, steps):
        for x, y in dataset.take(steps):
            self.history.append(self.train_step(x, y))
        print(f"trained {len(self.history)} steps, last loss {self.history[-1]:.4f}")


def make_dataset():
    rng = np.random.default_rng(5)
    x = rng.uniform(-1, 1, size=(3000, 4)).astype("float32")
    y = np.abs(x).sum(axis=1, keepdims=True).astype("float32")
    return tf.data.Dataset.from_tensor_slices((x, y)).repeat().batch(50)


def main():
    tf.keras.utils.set_random_seed(5)
    trainer = Trainer(learning_rate=0.003)
    trainer.fit(make_dataset(), steps=150)
    out_dir = os.environ.get("RANKLIFT_E2E_OUT")
    if out_dir:
        rank = os.environ.get("HOROVOD_RANK", "0")
        np.savez(os.path.join(out_dir, f"rank{rank}.npz"), losses=np.array(trainer.history),
                 *[v.numpy() for v in trainer.model.variables])


if __name__ == "__main__":
    main()
