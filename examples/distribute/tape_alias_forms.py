"""Every way of naming TensorFlow at once: module aliases, from-imports and a member alias."""
import os

import numpy as np
import tensorflow as tf
import tensorflow.keras as K
from tensorflow.keras import layers, optimizers, Model

Tape = tf.GradientTape

BASE_LR = 0.001
tf.keras.utils.set_random_seed(6)
rng = np.random.default_rng(6)
inputs = K.Input(shape=(4,))
hidden = layers.Dense(8, activation="relu")(inputs)
outputs = layers.Dense(1)(hidden)
net = Model(inputs=inputs, outputs=outputs)
opt = optimizers.RMSprop(BASE_LR + 0.004)

data = rng.normal(size=(1200, 4)).astype("float32")
target = (data.max(axis=1, keepdims=True)).astype("float32")
batches = tf.data.Dataset.from_tensor_slices((data, target)).repeat().batch(30)

history = []
for xb, yb in batches.take(140):
    with Tape() as t:
        loss = K.losses.mean_squared_error(yb, net(xb))
        loss = tf.reduce_mean(loss)
    opt.apply_gradients(zip(t.gradient(loss, net.trainable_variables), net.trainable_variables))
    history.append(float(loss))

print("first/last loss", history[0], history[-1])

out_dir = os.environ.get("RANKLIFT_E2E_OUT")
if out_dir:
    rank = os.environ.get("HOROVOD_RANK", "0")
    np.savez(os.path.join(out_dir, f"rank{rank}.npz"), losses=np.array(history), *[v.numpy() for v in net.variables])
