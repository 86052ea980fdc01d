"""A program that can train under a tf.distribute strategy when asked (`--mirrored`) and on one
device otherwise. The strategy is one branch of a conditional expression: ranklift leaves that
branch alone (a warning, exit 0) and distributes the rest with Horovod."""
import argparse
import os

import numpy as np
import tensorflow as tf

parser = argparse.ArgumentParser()
parser.add_argument("--mirrored", action="store_true", help="train with MirroredStrategy")
args = parser.parse_args()

tf.keras.utils.set_random_seed(9)
rng = np.random.default_rng(9)
x = rng.normal(size=(2048, 4)).astype("float32")
y = (x @ np.array([[1.0], [-1.0], [0.5], [2.0]], dtype="float32")).astype("float32")

strategy = tf.distribute.MirroredStrategy() if args.mirrored else tf.distribute.get_strategy()
with strategy.scope():
    model = tf.keras.Sequential([tf.keras.layers.Dense(16, activation="relu"), tf.keras.layers.Dense(1)])
    model.compile(optimizer=tf.keras.optimizers.Adam(0.01), loss="mse")
history = model.fit(x, y, batch_size=32, epochs=3)
print("final loss", history.history["loss"][-1])

out_dir = os.environ.get("RANKLIFT_E2E_OUT")
if out_dir:
    rank = os.environ.get("HOROVOD_RANK", "0")
    np.savez(os.path.join(out_dir, f"rank{rank}.npz"), losses=np.array(history.history["loss"]), *model.get_weights())
