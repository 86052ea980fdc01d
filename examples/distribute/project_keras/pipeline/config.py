import tensorflow as tf

EPOCHS = 4


def optimizer_for(name):
    if name == "sgd":
        return tf.keras.optimizers.SGD(learning_rate=0.05, momentum=0.8)
    return tf.keras.optimizers.Adam()
