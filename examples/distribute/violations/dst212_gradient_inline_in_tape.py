"""DST212: gradients taken inline inside the GradientTape block (no line of their own to average)."""
import tensorflow as tf

model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
opt = tf.keras.optimizers.SGD(0.01)
for _ in range(3):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(model(tf.ones([8, 2])))
        opt.apply_gradients(zip(tape.gradient(loss, model.trainable_variables), model.trainable_variables))
