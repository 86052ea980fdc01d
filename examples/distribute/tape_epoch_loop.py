"""Epochs over a finite dataset (no take): every process sees the whole dataset each epoch."""
import os
import tempfile

import numpy as np
import tensorflow as tf

EPOCHS = 4
tf.keras.utils.set_random_seed(21)
rng = np.random.default_rng(21)
images = rng.uniform(size=(1024, 8, 8, 1)).astype("float32")
labels = (images.mean(axis=(1, 2, 3)) > 0.5).astype("int64")
train_ds = tf.data.Dataset.from_tensor_slices((images, labels)).shuffle(1024, seed=21).batch(64)

model = tf.keras.Sequential([
    tf.keras.layers.Conv2D(4, 3, activation="relu"),
    tf.keras.layers.GlobalAveragePooling2D(),
    tf.keras.layers.Dense(2),
])
loss_fn = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)
optimizer = tf.keras.optimizers.Nadam(learning_rate=0.01)
accuracy = tf.keras.metrics.SparseCategoricalAccuracy()

epoch_losses = []
for epoch in range(EPOCHS):
    accuracy.reset_state()
    total = 0.0
    for batch_images, batch_labels in train_ds:
        with tf.GradientTape() as tape:
            logits = model(batch_images, training=True)
            loss = loss_fn(batch_labels, logits)
        grads = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(grads, model.trainable_variables))
        accuracy.update_state(batch_labels, logits)
        total += float(loss)
    epoch_losses.append(total)
    print(f"epoch {epoch}: loss {total:.3f} accuracy {float(accuracy.result()):.3f}")

model.save_weights(os.path.join(tempfile.mkdtemp(), "cnn"))

out_dir = os.environ.get("RANKLIFT_E2E_OUT")
if out_dir:
    rank = os.environ.get("HOROVOD_RANK", "0")
    np.savez(os.path.join(out_dir, f"rank{rank}.npz"), losses=np.array(epoch_losses), *[v.numpy() for v in model.variables])
