"""DST207: apply_gradients happens in a helper nested in a @tf.function step."""
import tensorflow as tf

model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
opt = tf.keras.optimizers.Adam(1e-3)


@tf.function
def train_step(x):
    def apply(grads):
        opt.apply_gradients(zip(grads, model.trainable_variables))

    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(model(x))
    apply(tape.gradient(loss, model.trainable_variables))


for _ in range(3):
    train_step(tf.ones([2, 2]))
