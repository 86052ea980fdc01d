"""A step-wise learning-rate schedule and a checkpoint manager handed to a helper function."""
import os
import tempfile

import numpy as np
import tensorflow as tf

BOUNDARIES = [40, 80]
RATES = [0.05, 0.02, 0.005]


def save_progress(checkpoint_manager, step):
    path = checkpoint_manager.save(checkpoint_number=step)
    print("checkpoint written:", os.path.basename(path))


tf.keras.utils.set_random_seed(20)
rng = np.random.default_rng(20)
x = rng.normal(size=(2500, 4)).astype("float32")
y = (x[:, :1] * x[:, 1:2] + np.sin(x[:, 2:3])).astype("float32")
dataset = tf.data.Dataset.from_tensor_slices((x, y)).repeat().batch(50)

model = tf.keras.Sequential([tf.keras.layers.Dense(32, activation="relu"), tf.keras.layers.Dense(1)])
lr = tf.keras.optimizers.schedules.PiecewiseConstantDecay(BOUNDARIES, RATES)
optimizer = tf.keras.optimizers.SGD(learning_rate=lr, momentum=0.9)
manager = tf.train.CheckpointManager(tf.train.Checkpoint(model=model), tempfile.mkdtemp(), max_to_keep=2)

losses = []
for step, (xb, yb) in enumerate(dataset.take(120)):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(model(xb) - yb))
    optimizer.apply_gradients(zip(tape.gradient(loss, model.trainable_variables), model.trainable_variables))
    losses.append(float(loss))
    if step % 50 == 49:
        save_progress(manager, step)

out_dir = os.environ.get("RANKLIFT_E2E_OUT")
if out_dir:
    rank = os.environ.get("HOROVOD_RANK", "0")
    np.savez(os.path.join(out_dir, f"rank{rank}.npz"), losses=np.array(losses), *[v.numpy() for v in model.variables])
