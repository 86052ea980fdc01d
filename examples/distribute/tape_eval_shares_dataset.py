"""The training dataset is also used for evaluation after training: sharding its source would
shard the evaluation too, so the shard belongs where the training loop reads it."""
import os

import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(56)
rng = np.random.default_rng(56)
x = rng.normal(size=(1024, 3)).astype("float32")
y = (2.0 * x[:, :1] - x[:, 1:2]).astype("float32")
data = tf.data.Dataset.from_tensor_slices((x, y)).batch(32)

model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
opt = tf.keras.optimizers.SGD(0.05)
losses = []
for epoch in range(4):
    total = 0.0
    for bx, by in data:
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(model(bx) - by))
        grads = tape.gradient(loss, model.trainable_variables)
        opt.apply_gradients(zip(grads, model.trainable_variables))
        total += float(loss)
    losses.append(total)

mse = np.mean([float(tf.reduce_mean(tf.square(model(bx) - by))) for bx, by in data])
print("final loss", losses[-1], "evaluation mse", mse)

out_dir = os.environ.get("RANKLIFT_E2E_OUT")
if out_dir:
    rank = os.environ.get("HOROVOD_RANK", "0")
    np.savez(os.path.join(out_dir, f"rank{rank}.npz"), losses=np.array(losses), *[v.numpy() for v in model.variables])
