"""Keras reached only through `from tensorflow import keras` (no `import tensorflow`)."""
import os

import numpy as np
from tensorflow import keras

keras.utils.set_random_seed(9)
rng = np.random.default_rng(9)
x_train = rng.uniform(-2, 2, size=(2500, 2)).astype("float32")
y_train = (np.hypot(x_train[:, 0], x_train[:, 1]) < 1.2).astype("float32")

model = keras.Sequential(
    [
        keras.layers.Dense(32, activation="relu"),
        keras.layers.Dense(32, activation="relu"),
        keras.layers.Dense(1, activation="sigmoid"),
    ]
)
optimizer = keras.optimizers.SGD(0.05, momentum=0.9)
model.compile(optimizer=optimizer, loss="binary_crossentropy", metrics=["accuracy"])
history = model.fit(x_train, y_train, batch_size=50, epochs=5, verbose=2)
print("final training accuracy:", history.history["accuracy"][-1])
model.summary()

out_dir = os.environ.get("RANKLIFT_E2E_OUT")
if out_dir:
    rank = os.environ.get("HOROVOD_RANK", "0")
    np.savez(os.path.join(out_dir, f"rank{rank}.npz"), losses=np.array(history.history["loss"]), *model.get_weights())
