"""A notebook's worth of eager-execution demonstrations before its training loop: gradients taken
to show how tapes work (one printed straight away, one through a helper) share the module's scope
with the loop that trains."""
import os

import numpy as np
import tensorflow as tf

w = tf.Variable([[2.0]])
with tf.GradientTape() as tape:
    square = w * w
grad = tape.gradient(square, w)
print("d(w*w)/dw at 2:", grad.numpy())


def slope(f, x):
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    return tape.gradient(y, x)


print("slope of softplus at 0:", slope(tf.math.softplus, tf.constant(0.0)).numpy())

tf.keras.utils.set_random_seed(11)
rng = np.random.default_rng(11)
x = rng.normal(size=(1200, 5)).astype("float32")
y = (x @ np.array([1.0, -2.0, 0.5, 0.0, 1.5], dtype="float32") > 0).astype("int64")
dataset = tf.data.Dataset.from_tensor_slices((x, y)).shuffle(1200, seed=11).batch(40)

model = tf.keras.Sequential([tf.keras.layers.Dense(16, activation="relu"), tf.keras.layers.Dense(2)])
optimizer = tf.keras.optimizers.SGD(0.1)
loss_fn = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)

losses = []
for epoch in range(2):
    for images, labels in dataset:
        with tf.GradientTape() as tape:
            loss = loss_fn(labels, model(images, training=True))
        grads = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(grads, model.trainable_variables))
        losses.append(float(loss))
    print(f"epoch {epoch}: loss {losses[-1]:.4f}")

out_dir = os.environ.get("RANKLIFT_E2E_OUT")
if out_dir:
    rank = os.environ.get("HOROVOD_RANK", "0")
    np.savez(os.path.join(out_dir, f"rank{rank}.npz"), losses=np.array(losses), *[v.numpy() for v in model.variables])
