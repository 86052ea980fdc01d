"""DST006: `data` holds a dataset and is later rebound to a list."""
import tensorflow as tf

data = tf.data.Dataset.from_tensor_slices(([[1.0], [2.0]], [[2.0], [4.0]])).batch(2)
model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
opt = tf.keras.optimizers.SGD(0.01)
for x, y in data.take(10):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(model(x) - y))
    opt.apply_gradients(zip(tape.gradient(loss, model.trainable_variables), model.trainable_variables))
data = [1, 2, 3]
