"""Like TensorFlow's DCGAN tutorial: a frame is saved after every epoch, then the frames become a
GIF with imageio, and the last frame's name is used after the `with` block. The whole `with`
block writes a file (rank 0 only), and the code after it that reads `filename` — bound only
inside the block — must not run where the block did not (NameError on rank 1). Reading a frame
back (`display_image`, as the tutorial does) must not run where no frame was written either."""
import glob
import os
import tempfile

import imageio
import numpy as np
import tensorflow as tf
from PIL import Image

tf.keras.utils.set_random_seed(4)
rng = np.random.default_rng(4)
x = rng.normal(size=(1024, 8)).astype("float32")
y = (np.tanh(x[:, :4]) * 0.5).astype("float32")
frames_dir = tempfile.mkdtemp()

model = tf.keras.Sequential([tf.keras.layers.Dense(16, activation="tanh"), tf.keras.layers.Dense(4)])
model.compile(optimizer=tf.keras.optimizers.Adam(0.01), loss="mse")
losses = []
for epoch in range(4):
    history = model.fit(x, y, batch_size=32, epochs=1, verbose=0)
    losses.extend(history.history["loss"])
    frame = (np.clip(model(x[:16]).numpy(), -1, 1) * 127 + 128).astype("uint8")
    Image.fromarray(frame).resize((64, 256)).save(os.path.join(frames_dir, "image_at_epoch_{:04d}.png".format(epoch)))


def display_image(epoch_no):
    return Image.open(os.path.join(frames_dir, "image_at_epoch_{:04d}.png".format(epoch_no)))


last_size = display_image(3).size

anim_file = os.path.join(frames_dir, "training.gif")
with imageio.get_writer(anim_file, mode="I") as writer:
    filenames = sorted(glob.glob(os.path.join(frames_dir, "image*.png")))
    for filename in filenames:
        writer.append_data(imageio.imread(filename))
last_frame = os.path.basename(filename)
print(f"{len(filenames)} frames of {last_size}, the last {last_frame}; final loss {losses[-1]:.4f}")

out_dir = os.environ.get("RANKLIFT_E2E_OUT")
if out_dir:
    rank = os.environ.get("HOROVOD_RANK", "0")
    np.savez(os.path.join(out_dir, f"rank{rank}.npz"), losses=np.array(losses), *model.get_weights())
