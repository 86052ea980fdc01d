"""Synthetic data for the project example."""
import numpy as np
import tensorflow as tf


def make_dataset(seed, batch_size=32):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(4000, 3)).astype("float32")
    y = (np.cos(x[:, :1]) + x[:, 1:2] * x[:, 2:3]).astype("float32")
    return tf.data.Dataset.from_tensor_slices((x, y)).shuffle(4000, seed=seed).repeat().batch(batch_size)
