"""DST105: two alternative definitions of the training step."""
import os

import tensorflow as tf

model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
opt = tf.keras.optimizers.SGD(0.01)

if os.environ.get("CLIP"):
    def train_step(x):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(model(x))
        grads = [tf.clip_by_norm(g, 1.0) for g in tape.gradient(loss, model.trainable_variables)]
        opt.apply_gradients(zip(grads, model.trainable_variables))
else:
    def train_step(x):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(model(x))
        opt.apply_gradients(zip(tape.gradient(loss, model.trainable_variables), model.trainable_variables))

for _ in range(3):
    train_step(tf.ones([2, 2]))
