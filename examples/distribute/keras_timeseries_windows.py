"""Forecasting from windows of a series: `timeseries_dataset_from_array` makes a dataset that is
already batched (and unshuffled), and `fit` trains on it.

Distributed, each worker takes its own share of the batches — and every worker the same number
of them: sharded as they come, 31 batches give one worker 16 and the other 15, and the worker
with the extra batch waits forever for the other's gradients at the end of the epoch."""
import os

import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(3)
t = np.arange(3000, dtype="float32")
series = np.sin(t / 20.0) + 0.1 * np.random.default_rng(3).normal(size=t.shape).astype("float32")
window = 24
inputs = series[:-window]
targets = series[window:]
train_ds = tf.keras.utils.timeseries_dataset_from_array(
    inputs[:2000, None], targets[:2000], sequence_length=window, batch_size=64
)
val_ds = tf.keras.utils.timeseries_dataset_from_array(
    inputs[2000:, None], targets[2000:], sequence_length=window, batch_size=64
)

model = tf.keras.Sequential([
    tf.keras.Input(shape=(window, 1)),
    tf.keras.layers.LSTM(16),
    tf.keras.layers.Dense(1),
])
model.compile(optimizer=tf.keras.optimizers.Adam(0.01), loss="mse")
history = model.fit(train_ds, epochs=3, validation_data=val_ds)
print(f"final loss {history.history['loss'][-1]:.4f}")

out_dir = os.environ.get("RANKLIFT_E2E_OUT")
if out_dir:
    rank = os.environ.get("HOROVOD_RANK", "0")
    np.savez(os.path.join(out_dir, f"rank{rank}.npz"), losses=np.array(history.history["loss"]), *model.get_weights())
