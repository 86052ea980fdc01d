"""A TF2 custom loop whose entry point is `tf.compat.v1.app.run(main)` (flags-style scripts of
the TensorFlow models repositories): the loop iterates the whole dataset every epoch."""
import os

import numpy as np
import tensorflow as tf


def main(_):
    tf.keras.utils.set_random_seed(51)
    rng = np.random.default_rng(51)
    x = rng.normal(size=(1024, 4)).astype("float32")
    y = x.sum(axis=1, keepdims=True)
    ds = tf.data.Dataset.from_tensor_slices((x, y)).shuffle(1024, seed=51).batch(32)
    model = tf.keras.Sequential([tf.keras.layers.Dense(8, activation="relu"), tf.keras.layers.Dense(1)])
    opt = tf.keras.optimizers.SGD(0.02)
    losses = []
    for epoch in range(4):
        total = 0.0
        for bx, by in ds:
            with tf.GradientTape() as tape:
                loss = tf.reduce_mean((model(bx) - by) ** 2)
            grads = tape.gradient(loss, model.trainable_variables)
            opt.apply_gradients(zip(grads, model.trainable_variables))
            total += float(loss)
        losses.append(total)
        print("epoch", epoch, "loss", total)
    out_dir = os.environ.get("RANKLIFT_E2E_OUT")
    if out_dir:
        rank = os.environ.get("HOROVOD_RANK", "0")
        np.savez(os.path.join(out_dir, f"rank{rank}.npz"), losses=np.array(losses), *[v.numpy() for v in model.variables])


if __name__ == "__main__":
    tf.compat.v1.app.run(main)
