"""DST001: tensorflow is imported inside main(), so Horovod cannot be initialised at start-up."""


def main():
    import tensorflow as tf

    model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
    model.compile(optimizer="sgd", loss="mse")
    model.fit(tf.zeros([8, 2]), tf.zeros([8, 1]), epochs=1)


if __name__ == "__main__":
    main()
