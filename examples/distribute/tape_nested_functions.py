"""Everything in functions: the dataset, model and optimizer reach the loop as parameters."""
import os

import numpy as np
import tensorflow as tf


def make_dataset(seed):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(3000, 5)).astype("float32")
    y = (x[:, :2].prod(axis=1, keepdims=True) > 0).astype("float32")
    return tf.data.Dataset.from_tensor_slices((x, y)).shuffle(3000, seed=seed).repeat().batch(64)


def make_model():
    return tf.keras.Sequential([
        tf.keras.layers.Dense(32, activation="relu"),
        tf.keras.layers.Dense(1),
    ])


def step(model, optimizer, x, y):
    with tf.GradientTape() as tape:
        logits = model(x, training=True)
        loss = tf.reduce_mean(tf.nn.sigmoid_cross_entropy_with_logits(labels=y, logits=logits))
    grads = tape.gradient(loss, model.trainable_variables)
    # Skip variables without a gradient, as many real loops do.
    optimizer.apply_gradients((g, v) for g, v in zip(grads, model.trainable_variables) if g is not None)
    return float(loss)


def train(model, optimizer, dataset, num_steps):
    losses = []
    for x, y in dataset.take(num_steps):
        losses.append(step(model, optimizer, x, y))
    return losses


def main():
    tf.keras.utils.set_random_seed(15)
    model = make_model()
    optimizer = tf.keras.optimizers.Adam(learning_rate=0.01)
    losses = train(model, optimizer, make_dataset(15), num_steps=150)
    print(f"loss {losses[0]:.3f} -> {losses[-1]:.3f}")
    out_dir = os.environ.get("RANKLIFT_E2E_OUT")
    if out_dir:
        rank = os.environ.get("HOROVOD_RANK", "0")
        np.savez(os.path.join(out_dir, f"rank{rank}.npz"), losses=np.array(losses), *[v.numpy() for v in model.variables])


if __name__ == "__main__":
    main()
