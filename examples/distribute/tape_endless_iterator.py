"""A training loop that draws its batches with `next(iterator)` from an endless dataset
(`repeat()`), keeping the iterator in a `tf.train.Checkpoint` next to the model and optimizer, as
TensorFlow's checkpoint guide does: a fixed number of steps, a checkpoint every ten.

There are no passes over the data: the loop's step count is the work to divide, and the dataset
is sharded so that each process draws its own batches."""
import os

import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(5)


def toy_dataset():
    inputs = tf.range(64.0)[:, None] / 64.0
    labels = inputs * 5.0 + tf.range(5.0)[None, :]
    return tf.data.Dataset.from_tensor_slices(dict(x=inputs, y=labels)).repeat().batch(4)


net = tf.keras.Sequential([tf.keras.Input(shape=(1,)), tf.keras.layers.Dense(5)])
opt = tf.keras.optimizers.Adam(0.1)
iterator = iter(toy_dataset())
ckpt = tf.train.Checkpoint(step=tf.Variable(1), optimizer=opt, net=net, iterator=iterator)
manager = tf.train.CheckpointManager(ckpt, "./tf_ckpts", max_to_keep=3)

losses = []
for _ in range(60):
    example = next(iterator)
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.abs(net(example["x"]) - example["y"]))
    grads = tape.gradient(loss, net.trainable_variables)
    opt.apply_gradients(zip(grads, net.trainable_variables))
    losses.append(float(loss))
    ckpt.step.assign_add(1)
    if int(ckpt.step) % 10 == 0:
        save_path = manager.save()
        print(f"saved checkpoint for step {int(ckpt.step)}: {save_path}")
print(f"final loss {losses[-1]:.3f}")

out_dir = os.environ.get("RANKLIFT_E2E_OUT")
if out_dir:
    rank = os.environ.get("HOROVOD_RANK", "0")
    np.savez(os.path.join(out_dir, f"rank{rank}.npz"), losses=np.array(losses), *[v.numpy() for v in net.variables])
