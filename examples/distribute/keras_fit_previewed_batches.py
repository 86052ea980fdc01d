"""Mixed pairs of images: two shuffled copies of the training set are zipped, each pair blended
into one sample, and batched; a batch is drawn first to look at, then `fit` trains on the rest.

The two copies are shuffled before they are zipped, each its own way: sharded at the zip, a
worker would take its elements of its own order and the workers' would overlap. So the dataset
is sharded where `fit` reads it, after batching (the preview of one batch is no reason): 33
batches sharded as they come give one worker 17 and the other 16, and the worker with the
extra batch waits forever for the other's gradients at the end of the epoch. Each worker gets
as many batches as the others."""
import os

import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(11)
rng = np.random.default_rng(11)
x_train = rng.normal(size=(1040, 8, 8, 1)).astype("float32")
y_train = tf.keras.utils.to_categorical(rng.integers(0, 4, size=1040), num_classes=4)


def blend(one, two):
    (image1, label1), (image2, label2) = one, two
    return 0.7 * image1 + 0.3 * image2, 0.7 * label1 + 0.3 * label2


first = tf.data.Dataset.from_tensor_slices((x_train, y_train)).shuffle(256)
second = tf.data.Dataset.from_tensor_slices((x_train, y_train)).shuffle(256)
train_ds = tf.data.Dataset.zip((first, second)).map(blend).batch(32)

image_batch, label_batch = next(iter(train_ds))
print("preview batch", image_batch.shape, label_batch.shape)

model = tf.keras.Sequential([
    tf.keras.Input(shape=(8, 8, 1)),
    tf.keras.layers.Flatten(),
    tf.keras.layers.Dense(16, activation="relu"),
    tf.keras.layers.Dense(4, activation="softmax"),
])
model.compile(optimizer=tf.keras.optimizers.Adam(0.01), loss="categorical_crossentropy")
history = model.fit(train_ds, epochs=2)
print(f"final loss {history.history['loss'][-1]:.4f}")

out_dir = os.environ.get("RANKLIFT_E2E_OUT")
if out_dir:
    rank = os.environ.get("HOROVOD_RANK", "0")
    np.savez(os.path.join(out_dir, f"rank{rank}.npz"), losses=np.array(history.history["loss"]), *model.get_weights())
