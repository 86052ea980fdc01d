"""A script that parses its arguments and reports what it will do before it imports TensorFlow.
The rewrite guards that report with the rank, so Horovod must be imported and initialised above
it — not after the late `import tensorflow`, where `hvd` would be read before it exists."""
import argparse
import os

parser = argparse.ArgumentParser()
parser.add_argument("--epochs", type=int, default=3)
args = parser.parse_args()
print(f"training for {args.epochs} epochs")

import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(5)
rng = np.random.default_rng(5)
x = rng.normal(size=(1024, 8)).astype("float32")
y = (x.sum(axis=1) > 0).astype("float32")
model = tf.keras.Sequential([
    tf.keras.Input((8,)),
    tf.keras.layers.Dense(16, activation="relu"),
    tf.keras.layers.Dense(1, activation="sigmoid"),
])
model.compile(optimizer="adam", loss="binary_crossentropy")
history = model.fit(x, y, epochs=args.epochs, batch_size=32)

out_dir = os.environ.get("RANKLIFT_E2E_OUT")
if out_dir:
    rank = os.environ.get("HOROVOD_RANK", "0")
    np.savez(os.path.join(out_dir, f"rank{rank}.npz"), losses=np.array(history.history["loss"]), *model.get_weights())
