"""DST003: the optimizer class is looked up by name at run time."""
import tensorflow as tf

OPTIMIZER = "Adam"
model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
optimizer = getattr(tf.keras.optimizers, OPTIMIZER)(0.01)
model.compile(optimizer=optimizer, loss="mse")
model.fit(tf.zeros([8, 2]), tf.zeros([8, 1]), epochs=1)
