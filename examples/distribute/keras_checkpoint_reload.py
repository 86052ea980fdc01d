"""Keep the best model while training, then evaluate the best one: a pattern of Keras' own
examples. Distributed, `ModelCheckpoint` writes on rank 0 only, so the other ranks must wait for
that file before `load_model` reads it (or they find it missing, or half written)."""
import os

import numpy as np
from tensorflow import keras

keras.utils.set_random_seed(3)
rng = np.random.default_rng(3)
x = rng.normal(size=(1024, 16)).astype("float32")
y = (x[:, :4].sum(axis=1) > 0).astype("float32")
model = keras.Sequential([
    keras.Input((16,)),
    keras.layers.Dense(32, activation="relu"),
    keras.layers.Dense(1, activation="sigmoid"),
])
model.compile(optimizer="adam", loss="binary_crossentropy", metrics=["accuracy"])
checkpoint = keras.callbacks.ModelCheckpoint("best_model.h5", monitor="val_loss", save_best_only=True)
history = model.fit(x, y, epochs=3, batch_size=64, validation_split=0.2, callbacks=[checkpoint])
best = keras.models.load_model("best_model.h5")
loss, acc = best.evaluate(x, y, verbose=0)
print(f"best model: accuracy {acc:.3f}")

out_dir = os.environ.get("RANKLIFT_E2E_OUT")
if out_dir:
    rank = os.environ.get("HOROVOD_RANK", "0")
    np.savez(os.path.join(out_dir, f"rank{rank}.npz"), losses=np.array(history.history["loss"]), *model.get_weights())
