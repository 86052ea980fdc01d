"""DST002: the tensorflow name is rebound after its import."""
import numpy as np
import tensorflow as tf

model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
opt = tf.keras.optimizers.SGD(0.1)
x = np.ones((16, 2), dtype="float32")
for tf in [tf]:
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(model(x))
    opt.apply_gradients(zip(tape.gradient(loss, model.trainable_variables), model.trainable_variables))
