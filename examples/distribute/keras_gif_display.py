"""Like a notebook's variational autoencoder: a frame is saved after every epoch, the frames become
a GIF, and the notebook shows the GIF with `IPython.display.Image(filename=...)` — which reads
the file when it is built. Only rank 0 writes the GIF, so only rank 0 may show it (on rank 1
the file is not there: FileNotFoundError)."""
import glob
import os
import tempfile

import imageio
import IPython
import numpy as np
import tensorflow as tf
from IPython import display
from PIL import Image

tf.keras.utils.set_random_seed(5)
rng = np.random.default_rng(5)
x = rng.normal(size=(1024, 8)).astype("float32")
y = (np.tanh(x[:, :4]) * 0.5).astype("float32")
frames_dir = tempfile.mkdtemp()

model = tf.keras.Sequential([tf.keras.layers.Dense(16, activation="tanh"), tf.keras.layers.Dense(4)])
model.compile(optimizer=tf.keras.optimizers.Adam(0.01), loss="mse")
losses = []
for epoch in range(3):
    history = model.fit(x, y, batch_size=32, epochs=1, verbose=0)
    losses.extend(history.history["loss"])
    frame = (np.clip(model(x[:16]).numpy(), -1, 1) * 127 + 128).astype("uint8")
    Image.fromarray(frame).resize((64, 256)).save(os.path.join(frames_dir, f"image_at_epoch_{epoch:04d}.png"))

anim_file = os.path.join(frames_dir, "training.gif")
with imageio.get_writer(anim_file, mode="I") as writer:
    for filename in sorted(glob.glob(os.path.join(frames_dir, "image*.png"))):
        writer.append_data(imageio.imread(filename))
if IPython.version_info >= (6, 2, 0, ""):
    display.Image(filename=anim_file)
print(f"final loss {losses[-1]:.4f}")

out_dir = os.environ.get("RANKLIFT_E2E_OUT")
if out_dir:
    rank = os.environ.get("HOROVOD_RANK", "0")
    np.savez(os.path.join(out_dir, f"rank{rank}.npz"), losses=np.array(losses), *model.get_weights())
