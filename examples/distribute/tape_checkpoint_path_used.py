"""`path = ckpt.save(...)` whose result is used afterwards (printed and restored from): guarding
only the save would leave `path` undefined on the other ranks."""
import os
import tempfile

import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(59)
rng = np.random.default_rng(59)
x = rng.normal(size=(512, 3)).astype("float32")
y = (x @ np.array([[0.5], [1.5], [-1.0]], dtype="float32"))
ds = tf.data.Dataset.from_tensor_slices((x, y)).batch(32)
model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
opt = tf.keras.optimizers.Adam(0.05)
ckpt = tf.train.Checkpoint(model=model, optimizer=opt)
prefix = os.path.join(tempfile.mkdtemp(), "ckpt")
losses = []
for epoch in range(4):
    total = 0.0
    for bx, by in ds:
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(model(bx) - by))
        grads = tape.gradient(loss, model.trainable_variables)
        opt.apply_gradients(zip(grads, model.trainable_variables))
        total += float(loss)
    losses.append(total)
    path = ckpt.save(prefix)
    print("saved", os.path.basename(path))

# Every process restores the last checkpoint (a shared file system in a real cluster).
ckpt.restore(path).assert_consumed()

out_dir = os.environ.get("RANKLIFT_E2E_OUT")
if out_dir:
    rank = os.environ.get("HOROVOD_RANK", "0")
    np.savez(os.path.join(out_dir, f"rank{rank}.npz"), losses=np.array(losses), *[v.numpy() for v in model.variables])
