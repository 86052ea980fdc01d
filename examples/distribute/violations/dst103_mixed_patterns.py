"""DST103: a Keras `fit` and a TF1 Estimator train in one script (TF2 Keras and TF1 graph training
need different Horovod setups; `fit` with a custom GradientTape loop is fine)."""
import tensorflow as tf

model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
model.compile(optimizer="adam", loss="mse")
model.fit(tf.ones([8, 2]), tf.ones([8, 1]), epochs=1)


def model_fn(features, labels, mode):
    logits = tf.compat.v1.layers.dense(features["x"], 1)
    loss = tf.compat.v1.losses.mean_squared_error(labels, logits)
    opt = tf.compat.v1.train.GradientDescentOptimizer(0.1)
    train_op = opt.minimize(loss, global_step=tf.compat.v1.train.get_or_create_global_step())
    return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=train_op)


def input_fn():
    return tf.data.Dataset.from_tensor_slices(({"x": tf.ones([8, 2])}, tf.ones([8, 1]))).batch(4)


estimator = tf.estimator.Estimator(model_fn=model_fn)
estimator.train(input_fn, steps=4)
