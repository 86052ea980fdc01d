"""The training and validation datasets built by one function and unpacked from the pair it
returns, as tutorials write it; the training one repeated and fitted for a fixed number of steps
per epoch.

The name `train_dataset` is bound by unpacking: the pipeline behind it is the first element of
the returned pair, whose source is sharded (without the shard, dividing `steps_per_epoch` leaves
every rank drawing the same seeded batches)."""
import os

import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(4)


def make_datasets():
    rng = np.random.default_rng(4)
    x = rng.normal(size=(2304, 6)).astype("float32")
    y = (x @ rng.normal(size=(6, 1))).astype("float32")
    ds = tf.data.Dataset.from_tensor_slices((x[:2048], y[:2048]))
    ds = ds.shuffle(2048, seed=4).batch(32)
    ds_val = tf.data.Dataset.from_tensor_slices((x[2048:], y[2048:])).batch(32)
    return ds, ds_val


def main():
    train_dataset, val_dataset = make_datasets()
    model = tf.keras.Sequential([tf.keras.layers.Dense(16, activation="relu"), tf.keras.layers.Dense(1)])
    model.compile(optimizer=tf.keras.optimizers.Adam(0.01), loss="mse")
    history = model.fit(train_dataset.repeat(), epochs=3, steps_per_epoch=64,
                        validation_data=val_dataset, validation_steps=4)
    print("final loss", history.history["loss"][-1])

    out_dir = os.environ.get("RANKLIFT_E2E_OUT")
    if out_dir:
        rank = os.environ.get("HOROVOD_RANK", "0")
        np.savez(os.path.join(out_dir, f"rank{rank}.npz"), losses=np.array(history.history["loss"]), *model.get_weights())


if __name__ == "__main__":
    main()
