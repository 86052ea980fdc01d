"""A sequence model fit on a single example for many epochs (hunkim's "hello RNN" shape): there
are fewer samples than ranks, so there is nothing to split — every rank must still get data, or
its `fit` sees an empty array and fails."""
import os

import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(12)
idx2char = ["h", "i", "e", "l", "o"]
x_data = [[0, 1, 0, 2, 3, 3]]  # hihell
y_data = [[1, 0, 2, 3, 3, 4]]  # ihello
x_one_hot = tf.keras.utils.to_categorical(x_data, num_classes=5)
y_one_hot = tf.keras.utils.to_categorical(y_data, num_classes=5)

model = tf.keras.Sequential([
    tf.keras.layers.LSTM(units=5, input_shape=(6, 5), return_sequences=True),
    tf.keras.layers.TimeDistributed(tf.keras.layers.Dense(units=5, activation="softmax")),
])
model.compile(loss="categorical_crossentropy", optimizer=tf.keras.optimizers.Adam(0.1), metrics=["accuracy"])
history = model.fit(x_one_hot, y_one_hot, epochs=40, verbose=0)
prediction = np.argmax(model.predict(x_one_hot, verbose=0), axis=2)[0]
print("prediction:", "".join(idx2char[c] for c in prediction))

out_dir = os.environ.get("RANKLIFT_E2E_OUT")
if out_dir:
    rank = os.environ.get("HOROVOD_RANK", "0")
    np.savez(os.path.join(out_dir, f"rank{rank}.npz"), losses=np.array(history.history["loss"]), *model.get_weights())
