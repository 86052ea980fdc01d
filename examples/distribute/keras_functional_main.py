"""A functional model from a factory function, trained inside main() behind the __main__ guard."""
import os
import tempfile

import numpy as np
import tensorflow as tf


def build_model(n_features):
    inputs = tf.keras.Input(shape=(n_features,))
    x = tf.keras.layers.Dense(24, activation="relu")(inputs)
    x = tf.keras.layers.Dropout(0.1)(x)
    outputs = tf.keras.layers.Dense(3, activation="softmax")(x)
    return tf.keras.Model(inputs, outputs)


def load_data(seed):
    rng = np.random.default_rng(seed)
    centers = rng.normal(scale=3.0, size=(3, 6))
    labels = rng.integers(0, 3, size=2400)
    points = centers[labels] + rng.normal(size=(2400, 6))
    return points.astype("float32"), labels


def main():
    tf.keras.utils.set_random_seed(10)
    x, y = load_data(10)
    model = build_model(x.shape[1])
    model.compile(
        optimizer=tf.keras.optimizers.Adam(learning_rate=3e-3),
        loss="sparse_categorical_crossentropy",
        metrics=["accuracy"],
    )
    log_dir = tempfile.mkdtemp()
    callbacks = [
        tf.keras.callbacks.ReduceLROnPlateau(monitor="loss", factor=0.5, patience=1),
        tf.keras.callbacks.TensorBoard(log_dir=log_dir),
    ]
    history = model.fit(x, y, batch_size=64, epochs=4, callbacks=callbacks, verbose=2)
    print(f"loss {history.history['loss'][0]:.3f} -> {history.history['loss'][-1]:.3f}")
    out_dir = os.environ.get("RANKLIFT_E2E_OUT")
    if out_dir:
        rank = os.environ.get("HOROVOD_RANK", "0")
        np.savez(os.path.join(out_dir, f"rank{rank}.npz"), losses=np.array(history.history["loss"]), *model.get_weights())


if __name__ == "__main__":
    main()
