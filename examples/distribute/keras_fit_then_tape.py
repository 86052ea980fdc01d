"""Pre-train with Model.fit, then fine-tune the same model with a custom GradientTape loop.

Shaped like the guides that show both ways of training in one script: one dataset feeds both
phases, and the fine-tuning phase has its own optimizer.
"""
import os

import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(31)
rng = np.random.default_rng(31)
features = rng.normal(size=(1024, 6)).astype("float32")
targets = (features @ rng.normal(size=(6, 1)).astype("float32") + 0.1).astype("float32")
train_ds = tf.data.Dataset.from_tensor_slices((features, targets)).shuffle(1024, seed=31).batch(32)

model = tf.keras.Sequential([tf.keras.layers.Dense(16, activation="relu"), tf.keras.layers.Dense(1)])
model.compile(optimizer=tf.keras.optimizers.Adam(learning_rate=0.01), loss="mse")
history = model.fit(train_ds, epochs=2, verbose=2)

# Fine-tuning: a smaller learning rate and a loop of our own.
finetune_opt = tf.keras.optimizers.SGD(learning_rate=0.005)
mse = tf.keras.losses.MeanSquaredError()
losses = list(history.history["loss"])
for epoch in range(2):
    total, batches = 0.0, 0
    for x, y in train_ds:
        with tf.GradientTape() as tape:
            loss = mse(y, model(x, training=True))
        grads = tape.gradient(loss, model.trainable_variables)
        finetune_opt.apply_gradients(zip(grads, model.trainable_variables))
        total += float(loss)
        batches += 1
    losses.append(total / batches)
    print(f"fine-tune epoch {epoch}: mean loss {total / batches:.4f}")

out_dir = os.environ.get("RANKLIFT_E2E_OUT")
if out_dir:
    rank = os.environ.get("HOROVOD_RANK", "0")
    np.savez(os.path.join(out_dir, f"rank{rank}.npz"), losses=np.array(losses), *model.get_weights())
