"""Like TensorFlow's "custom training walkthrough": the training data is a CSV file read by
`tf.data.experimental.make_csv_dataset`, which shuffles inside before it batches. Sharded after
that shuffle, the ranks must shuffle alike (a seed) for their batches to be disjoint."""
import os
import random

import numpy as np
import tensorflow as tf

# Keras 2 draws unseeded initial weights from Python's `random`; TensorFlow's own global seed is
# left unset, as in the tutorial.
random.seed(14)
here = os.path.dirname(os.path.abspath(__file__))
train_dataset = tf.data.experimental.make_csv_dataset(
    os.path.join(here, "train.csv"), batch_size=32, label_name="label", num_epochs=1)


def pack_features_vector(features, labels):
    return tf.stack(list(features.values()), axis=1), labels


train_dataset = train_dataset.map(pack_features_vector)
model = tf.keras.Sequential([tf.keras.layers.Dense(16, activation="relu"), tf.keras.layers.Dense(3)])
loss_object = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)
optimizer = tf.keras.optimizers.SGD(learning_rate=0.05)
losses = []
for epoch in range(6):
    epoch_loss = tf.keras.metrics.Mean()
    for x, y in train_dataset:
        with tf.GradientTape() as tape:
            loss_value = loss_object(y, model(x, training=True))
        grads = tape.gradient(loss_value, model.trainable_variables)
        optimizer.apply_gradients(zip(grads, model.trainable_variables))
        epoch_loss.update_state(loss_value)
    losses.append(float(epoch_loss.result()))
    print(f"epoch {epoch}: loss {losses[-1]:.3f}")

out_dir = os.environ.get("RANKLIFT_E2E_OUT")
if out_dir:
    rank = os.environ.get("HOROVOD_RANK", "0")
    np.savez(os.path.join(out_dir, f"rank{rank}.npz"), losses=np.array(losses), *[v.numpy() for v in model.variables])
