"""DST004: a print whose argument consumes a batch; on rank 0 only it would desynchronise the ranks."""
import tensorflow as tf

dataset = tf.data.Dataset.range(100).map(lambda i: (tf.cast([i], tf.float32), tf.cast([2 * i], tf.float32))).batch(10)
batches = iter(dataset.repeat())
model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
opt = tf.keras.optimizers.SGD(0.001)

for step in range(20):
    x, y = next(batches)
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(model(x) - y))
    opt.apply_gradients(zip(tape.gradient(loss, model.trainable_variables), model.trainable_variables))
    print("next batch starts with", next(batches)[0][0])
