"""`tape.gradient(loss, w)` with one variable inside a statement another rule rewrites (DST211)."""
import os

os.environ["CUDA_VISIBLE_DEVICES"] = "-1"
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(57)
rng = np.random.default_rng(57)
x = rng.normal(size=(512, 4)).astype("float32")
y = x @ np.array([[1.0], [-2.0], [0.5], [0.0]], dtype="float32")
ds = tf.data.Dataset.from_tensor_slices((x, y)).batch(16)
w = tf.Variable(tf.zeros((4, 1)))
opt = tf.keras.optimizers.SGD(0.05)
losses = []
for epoch in range(4):
    total = 0.0
    for bx, by in ds:
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(bx @ w - by))
        opt.apply_gradients([(tape.gradient(loss, w), w)])
        total += float(loss)
    losses.append(total)
print("visible GPUs:", tf.config.list_physical_devices("GPU"), "loss", losses[-1])

out_dir = os.environ.get("RANKLIFT_E2E_OUT")
if out_dir:
    rank = os.environ.get("HOROVOD_RANK", "0")
    np.savez(os.path.join(out_dir, f"rank{rank}.npz"), *[w.numpy()], losses=np.array(losses))
