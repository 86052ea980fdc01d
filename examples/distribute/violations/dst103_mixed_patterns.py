"""DST103: pre-training with Model.fit, then fine-tuning with a custom GradientTape loop."""
import tensorflow as tf

model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
model.compile(optimizer="adam", loss="mse")
model.fit(tf.ones([8, 2]), tf.ones([8, 1]), epochs=1)

opt = tf.keras.optimizers.SGD(0.01)
for _ in range(3):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(model(tf.ones([8, 2])))
    opt.apply_gradients(zip(tape.gradient(loss, model.trainable_variables), model.trainable_variables))
