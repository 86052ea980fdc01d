"""Binary classification with Sequential + compile("adam") + fit, the canonical Keras program."""
import os
import tempfile

import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(8)
rng = np.random.default_rng(8)
x = rng.normal(size=(3000, 10)).astype("float32")
y = (x[:, :3].sum(axis=1) > 0).astype("float32")

model = tf.keras.Sequential([
    tf.keras.layers.Dense(32, activation="relu"),
    tf.keras.layers.Dense(1, activation="sigmoid"),
])
model.compile(optimizer="adam", loss="binary_crossentropy", metrics=["accuracy"])

checkpoint_path = os.path.join(tempfile.mkdtemp(), "best.weights.h5")
history = model.fit(
    x,
    y,
    batch_size=64,
    epochs=4,
    validation_split=0.1,
    callbacks=[
        tf.keras.callbacks.EarlyStopping(monitor="val_loss", patience=2),
        tf.keras.callbacks.ModelCheckpoint(checkpoint_path, save_weights_only=True),
    ],
)
loss, acc = model.evaluate(x[:500], y[:500])
print(f"accuracy {acc:.3f}")

out_dir = os.environ.get("RANKLIFT_E2E_OUT")
if out_dir:
    rank = os.environ.get("HOROVOD_RANK", "0")
    np.savez(os.path.join(out_dir, f"rank{rank}.npz"), losses=np.array(history.history["loss"]), *model.get_weights())
