"""Transfer learning in two phases, shaped like Keras' mnist_transfer_cnn example: the model is
trained on one subset of the classes, its feature layers are frozen, and it is trained again on
the other subset. The subsets have odd sizes (513 and 385 rows): split by taking every other
row, one rank would get one more row — and at a batch size of 32, one more batch, whose gradient
all-reduce waits forever for the rank that has finished its epoch."""
import os

import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(3)
rng = np.random.default_rng(3)
x_all = rng.normal(size=(898, 12)).astype("float32")
y_all = (x_all[:, :4].sum(axis=1) > 0).astype("int64") + 2 * (x_all[:, 4] > 0.8)

feature_layers = [tf.keras.layers.Dense(32, activation="relu"), tf.keras.layers.Dense(16, activation="relu")]
classification_layers = [tf.keras.layers.Dense(4, activation="softmax")]
model = tf.keras.Sequential(feature_layers + classification_layers)


def train_model(model, train, epochs):
    x_train, y_train = train
    model.compile(loss="sparse_categorical_crossentropy", optimizer="adam", metrics=["accuracy"])
    history = model.fit(x_train, y_train, batch_size=32, epochs=epochs, verbose=2)
    return history.history["loss"]


losses = train_model(model, (x_all[:513], y_all[:513]), 3)
for layer in feature_layers:
    layer.trainable = False
losses += train_model(model, (x_all[513:], y_all[513:]), 3)
print(f"loss {losses[0]:.3f} -> {losses[-1]:.3f}")

out_dir = os.environ.get("RANKLIFT_E2E_OUT")
if out_dir:
    rank = os.environ.get("HOROVOD_RANK", "0")
    np.savez(os.path.join(out_dir, f"rank{rank}.npz"), losses=np.array(losses), *model.get_weights())
