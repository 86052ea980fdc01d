"""DST010: the checkpoint is kept in a dict; saves through it cannot be limited to rank 0."""
import tensorflow as tf

model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
opt = tf.keras.optimizers.SGD(0.1)
state = {"ckpt": tf.train.Checkpoint(model=model, optimizer=opt), "epoch": 0}

for epoch in range(3):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(model(tf.ones([2, 2])))
    opt.apply_gradients(zip(tape.gradient(loss, model.trainable_variables), model.trainable_variables))
    state["ckpt"].save("/tmp/dst010/ckpt")
