"""Like the custom-training-loop guide's GAN: every few steps the loop turns a generated sample
into an image with `keras.utils.array_to_img` and saves it through that name (`img.save(...)`).
On N ranks only rank 0 may write the images: the image is bound to a name first, so the writer
is known by what the name holds, not by the call's spelling."""
import os
import tempfile

import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(11)
rng = np.random.default_rng(11)
noise = rng.normal(size=(2048, 8)).astype("float32")
images = np.tanh(noise @ rng.normal(size=(8, 64))).reshape(-1, 8, 8, 1).astype("float32")
dataset = tf.data.Dataset.from_tensor_slices((noise, images)).shuffle(2048, seed=11).batch(64)
save_dir = tempfile.mkdtemp()

generator = tf.keras.Sequential([
    tf.keras.Input(shape=(8,)),
    tf.keras.layers.Dense(32, activation="relu"),
    tf.keras.layers.Dense(64, activation="tanh"),
    tf.keras.layers.Reshape((8, 8, 1)),
])
optimizer = tf.keras.optimizers.Adam(learning_rate=0.005)


@tf.function
def train_step(z, real):
    with tf.GradientTape() as tape:
        fake = generator(z, training=True)
        loss = tf.reduce_mean(tf.square(fake - real))
    grads = tape.gradient(loss, generator.trainable_weights)
    optimizer.apply_gradients(zip(grads, generator.trainable_weights))
    return loss, fake


losses = []
for epoch in range(3):
    for step, (z, real) in enumerate(dataset):
        loss, fake = train_step(z, real)
        losses.append(float(loss))
        if step % 8 == 0:
            img = tf.keras.utils.array_to_img((fake[0] + 1.0) * 127.5, scale=False)
            img.save(os.path.join(save_dir, f"generated_{epoch}_{step}.png"))
print(f"final loss {losses[-1]:.4f}; {len(os.listdir(save_dir))} images")

out_dir = os.environ.get("RANKLIFT_E2E_OUT")
if out_dir:
    rank = os.environ.get("HOROVOD_RANK", "0")
    np.savez(os.path.join(out_dir, f"rank{rank}.npz"), losses=np.array(losses), *generator.get_weights())
