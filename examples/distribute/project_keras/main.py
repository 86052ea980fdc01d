"""Keras project: model factory and training configuration in a package."""
import os

import numpy as np
import tensorflow as tf

from pipeline.config import EPOCHS, optimizer_for
from pipeline.model import build_classifier


def run():
    x, y = synthetic()
    model = build_classifier()
    model.compile(optimizer=optimizer_for("sgd"), loss="sparse_categorical_crossentropy", metrics=["accuracy"])
    history = model.fit(x, y, batch_size=32, epochs=EPOCHS, verbose=2)
    print("accuracy per epoch:", [round(a, 3) for a in history.history["accuracy"]])
    out_dir = os.environ.get("RANKLIFT_E2E_OUT")
    if out_dir:
        rank = os.environ.get("HOROVOD_RANK", "0")
        np.savez(os.path.join(out_dir, f"rank{rank}.npz"), losses=np.array(history.history["loss"]), *model.get_weights())


def synthetic():
    rng = np.random.default_rng(18)
    x = rng.normal(size=(2400, 5)).astype("float32")
    y = np.digitize(x[:, 0] + x[:, 1], [-0.7, 0.7])
    return x, y


if __name__ == "__main__":
    tf.keras.utils.set_random_seed(18)
    run()
