"""Like TensorFlow's convolutional VAE tutorial: a GradientTape loop over epochs, an evaluation
pass after each, a sample image saved per epoch, and — once training is over — the last image
shown and every image assembled into a GIF. The images are rank 0's to write; the code after
the training loop reads them back, so it must run only where they were written (rank 1 would
find no file, or a half-written one)."""
import glob
import os
import tempfile

import imageio
import numpy as np
import tensorflow as tf
from PIL import Image

tf.keras.utils.set_random_seed(5)
rng = np.random.default_rng(5)
images = np.tanh(rng.normal(size=(640, 16)) @ rng.normal(size=(16, 64)) / 4).astype("float32")
train_images, test_images = images[:512], images[512:]
train_dataset = tf.data.Dataset.from_tensor_slices(train_images).shuffle(512, seed=5).batch(32)
test_dataset = tf.data.Dataset.from_tensor_slices(test_images).batch(32)
frames_dir = tempfile.mkdtemp()

encoder = tf.keras.Sequential([tf.keras.Input(shape=(64,)), tf.keras.layers.Dense(8, activation="tanh")])
decoder = tf.keras.Sequential([tf.keras.Input(shape=(8,)), tf.keras.layers.Dense(64, activation="tanh")])
optimizer = tf.keras.optimizers.Adam(1e-2)


def compute_loss(x):
    return tf.reduce_mean(tf.square(decoder(encoder(x)) - x))


@tf.function
def train_step(x):
    with tf.GradientTape() as tape:
        loss = compute_loss(x)
    variables = encoder.trainable_variables + decoder.trainable_variables
    optimizer.apply_gradients(zip(tape.gradient(loss, variables), variables))
    return loss


def generate_and_save_images(epoch, sample):
    frame = ((decoder(encoder(sample)).numpy() + 1) * 127.5).astype("uint8")
    Image.fromarray(frame).resize((128, 64)).save(os.path.join(frames_dir, "image_at_epoch_{:04d}.png".format(epoch)))


epochs = 4
test_sample = test_images[:8]
losses = []
for epoch in range(1, epochs + 1):
    for train_x in train_dataset:
        losses.append(float(train_step(train_x)))
    mean = tf.keras.metrics.Mean()
    for test_x in test_dataset:
        mean(compute_loss(test_x))
    print(f"Epoch: {epoch}, test loss: {float(mean.result()):.4f}")
    generate_and_save_images(epoch, test_sample)


def display_image(epoch_no):
    return Image.open(os.path.join(frames_dir, "image_at_epoch_{:04d}.png".format(epoch_no)))


last_size = display_image(epoch).size
anim_file = os.path.join(frames_dir, "cvae.gif")
with imageio.get_writer(anim_file, mode="I") as writer:
    for filename in sorted(glob.glob(os.path.join(frames_dir, "image*.png"))):
        writer.append_data(imageio.imread(filename))
print(f"frames of {last_size}; final loss {losses[-1]:.4f}")

out_dir = os.environ.get("RANKLIFT_E2E_OUT")
if out_dir:
    rank = os.environ.get("HOROVOD_RANK", "0")
    np.savez(os.path.join(out_dir, f"rank{rank}.npz"), losses=np.array(losses),
             *encoder.get_weights(), *decoder.get_weights())
