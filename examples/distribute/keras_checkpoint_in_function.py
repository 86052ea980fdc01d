"""Keras' example habit of keeping the best weights while training, inside the function that
trains: the checkpoint path is a local name (`checkpoint_filepath = ...`), `ModelCheckpoint`
writes it, and `model.load_weights(checkpoint_filepath)` reads it back before evaluating.
Distributed, the checkpoint is written on rank 0 only: every other rank must wait for it, or it
reads a file that is missing or half written."""
import os

import numpy as np
from tensorflow import keras

keras.utils.set_random_seed(9)
rng = np.random.default_rng(9)
x = rng.normal(size=(1536, 12)).astype("float32")
y = (x[:, :3].sum(axis=1) > 0).astype("float32")


def run_experiment(model):
    checkpoint_filepath = "checkpoint.weights.h5"
    checkpoint_callback = keras.callbacks.ModelCheckpoint(
        checkpoint_filepath, monitor="val_accuracy", save_best_only=True, save_weights_only=True
    )
    history = model.fit(x, y, batch_size=64, epochs=1, validation_split=0.25, callbacks=[checkpoint_callback])
    model.load_weights(checkpoint_filepath)
    _, accuracy = model.evaluate(x, y, verbose=0)
    print(f"accuracy of the best weights: {accuracy:.3f}")
    return history


model = keras.Sequential([
    keras.Input((12,)),
    keras.layers.Dense(24, activation="relu"),
    keras.layers.Dense(1, activation="sigmoid"),
])
model.compile(optimizer=keras.optimizers.Adam(0.01), loss="binary_crossentropy", metrics=["accuracy"])
initial_loss, _ = model.evaluate(x, y, verbose=0)
history = run_experiment(model)

out_dir = os.environ.get("RANKLIFT_E2E_OUT")
if out_dir:
    rank = os.environ.get("HOROVOD_RANK", "0")
    np.savez(os.path.join(out_dir, f"rank{rank}.npz"), losses=np.array([initial_loss] + history.history["loss"]), *model.get_weights())
