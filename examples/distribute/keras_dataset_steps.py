"""fit() on an infinite tf.data pipeline with steps_per_epoch/validation_steps and file callbacks."""
import os
import tempfile

import numpy as np
import tensorflow as tf

STEPS_PER_EPOCH = 60
tf.keras.utils.set_random_seed(12)
rng = np.random.default_rng(12)
x = rng.normal(size=(5000, 4)).astype("float32")
y = (x @ np.array([[1.0], [-2.0], [0.5], [3.0]], dtype="float32") + 0.3).astype("float32")

train = tf.data.Dataset.from_tensor_slices((x[:4000], y[:4000])).shuffle(4000, seed=12).repeat().batch(32)
val = tf.data.Dataset.from_tensor_slices((x[4000:], y[4000:])).repeat().batch(100)

model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
model.compile(optimizer=tf.keras.optimizers.SGD(learning_rate=0.02), loss="mse")

work = tempfile.mkdtemp()
history = model.fit(
    train,
    epochs=3,
    steps_per_epoch=STEPS_PER_EPOCH,
    validation_data=val,
    validation_steps=10,
    callbacks=[tf.keras.callbacks.CSVLogger(os.path.join(work, "log.csv")), tf.keras.callbacks.TerminateOnNaN()],
    verbose=2,
)
model.save_weights(os.path.join(work, "weights.h5"))
print("weights:", model.get_weights()[0].ravel())

out_dir = os.environ.get("RANKLIFT_E2E_OUT")
if out_dir:
    rank = os.environ.get("HOROVOD_RANK", "0")
    np.savez(os.path.join(out_dir, f"rank{rank}.npz"), losses=np.array(history.history["loss"]), *model.get_weights())
