"""A model chosen by name from `tf.keras.applications` (`getattr`, as benchmark scripts do with
`--model`), trained with `fit` on a dataset without `steps_per_epoch`."""
import os

import numpy as np
import tensorflow as tf

MODEL = os.environ.get("MODEL_NAME", "MobileNet")
tf.keras.utils.set_random_seed(53)
rng = np.random.default_rng(53)
labels = rng.integers(0, 2, size=256)
# Bright images are class 1, dark ones class 0: a task any model learns in a few steps.
images = (rng.uniform(size=(256, 32, 32, 3)) * 0.5 + 0.5 * labels[:, None, None, None]).astype("float32")
train = tf.data.Dataset.from_tensor_slices((images, labels)).batch(32)

model = getattr(tf.keras.applications, MODEL)(weights=None, alpha=0.25, input_shape=(32, 32, 3), classes=2)
model.compile(optimizer=tf.keras.optimizers.Adam(learning_rate=0.001), loss="sparse_categorical_crossentropy")
history = model.fit(train, epochs=4, verbose=2)

out_dir = os.environ.get("RANKLIFT_E2E_OUT")
if out_dir:
    rank = os.environ.get("HOROVOD_RANK", "0")
    np.savez(os.path.join(out_dir, f"rank{rank}.npz"), losses=np.array(history.history["loss"]), *[v.numpy() for v in model.trainable_variables])
