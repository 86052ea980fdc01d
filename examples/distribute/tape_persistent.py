"""A persistent tape: one forward pass, gradients of two losses for two parts of the model."""
import os

import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(11)
rng = np.random.default_rng(11)
x = rng.normal(size=(1500, 5)).astype("float32")
y_reg = (x @ rng.normal(size=(5, 1))).astype("float32")
y_cls = (y_reg > 0).astype("float32")

trunk = tf.keras.layers.Dense(16, activation="relu")
reg_head = tf.keras.layers.Dense(1)
cls_head = tf.keras.layers.Dense(1)
trunk.build((None, 5))
reg_head.build((None, 16))
cls_head.build((None, 16))
optimizer = tf.keras.optimizers.Adam(learning_rate=0.01)
bce = tf.keras.losses.BinaryCrossentropy(from_logits=True)

dataset = tf.data.Dataset.from_tensor_slices((x, y_reg, y_cls)).shuffle(1500, seed=11).repeat().batch(100)

losses = []
for features, target_reg, target_cls in dataset.take(100):
    with tf.GradientTape(persistent=True) as tape:
        h = trunk(features)
        reg_loss = tf.reduce_mean(tf.square(reg_head(h) - target_reg))
        cls_loss = bce(target_cls, cls_head(h))
        total = reg_loss + cls_loss
    trunk_grads = tape.gradient(total, trunk.trainable_variables)
    reg_grads = tape.gradient(reg_loss, reg_head.trainable_variables)
    cls_grads = tape.gradient(cls_loss, cls_head.trainable_variables)
    del tape
    optimizer.apply_gradients(
        zip(trunk_grads + reg_grads + cls_grads,
            trunk.trainable_variables + reg_head.trainable_variables + cls_head.trainable_variables)
    )
    losses.append(float(total))

print(f"total loss {losses[0]:.3f} -> {losses[-1]:.3f}")

out_dir = os.environ.get("RANKLIFT_E2E_OUT")
if out_dir:
    rank = os.environ.get("HOROVOD_RANK", "0")
    variables = trunk.variables + reg_head.variables + cls_head.variables
    np.savez(os.path.join(out_dir, f"rank{rank}.npz"), losses=np.array(losses), *[v.numpy() for v in variables])
