"""DST008: apply_gradients is returned, so nothing can follow it in the step."""
import tensorflow as tf

model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
opt = tf.keras.optimizers.Adam(1e-3)


def step(x, y):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(model(x) - y))
    return opt.apply_gradients(zip(tape.gradient(loss, model.trainable_variables), model.trainable_variables))


for _ in range(5):
    step(tf.ones([4, 3]), tf.zeros([4, 1]))
