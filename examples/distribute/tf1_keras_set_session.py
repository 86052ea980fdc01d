"""TF1-style Keras: `import tensorflow.compat.v1 as tf`, graph mode, a session with the user's
ConfigProto given to Keras with `K.set_session`, then `fit` on arrays."""
import os
import random

import numpy as np
import tensorflow.compat.v1 as tf
from tensorflow.compat.v1.keras import backend as K

tf.disable_eager_execution()
tf.set_random_seed(54)
random.seed(54)
np.random.seed(54)  # graph-mode Keras shuffles with NumPy's global generator
config = tf.ConfigProto()
config.gpu_options.allow_growth = True
K.set_session(tf.Session(config=config))

rng = np.random.default_rng(54)
x = rng.normal(size=(1024, 6)).astype("float32")
y = (x @ rng.normal(size=(6, 1))).astype("float32")
model = tf.keras.Sequential([tf.keras.layers.Dense(8, activation="tanh", input_shape=(6,)), tf.keras.layers.Dense(1)])
model.compile(optimizer=tf.keras.optimizers.SGD(0.02), loss="mse")
history = model.fit(x, y, batch_size=32, epochs=4, verbose=2)

out_dir = os.environ.get("RANKLIFT_E2E_OUT")
if out_dir:
    rank = os.environ.get("HOROVOD_RANK", "0")
    np.savez(os.path.join(out_dir, f"rank{rank}.npz"), losses=np.array(history.history["loss"]), *K.batch_get_value(model.weights))
