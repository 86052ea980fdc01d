"""A GAN as a Keras model with its own `compile(d_optimizer, g_optimizer, loss_fn)` and
`train_step` (the shape of the Keras DCGAN/WGAN guides): two tapes, two optimizers, `fit`."""
import os

import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(43)
LATENT = 4


class GAN(tf.keras.Model):
    def __init__(self, discriminator, generator):
        super().__init__()
        self.discriminator = discriminator
        self.generator = generator
        self.d_loss_metric = tf.keras.metrics.Mean(name="d_loss")
        self.g_loss_metric = tf.keras.metrics.Mean(name="g_loss")

    def compile(self, d_optimizer, g_optimizer, loss_fn):
        super().compile()
        self.d_optimizer = d_optimizer
        self.g_optimizer = g_optimizer
        self.loss_fn = loss_fn

    @property
    def metrics(self):
        return [self.d_loss_metric, self.g_loss_metric]

    def train_step(self, real):
        batch = tf.shape(real)[0]
        noise = tf.random.normal(shape=(batch, LATENT), seed=1)
        fake = self.generator(noise)
        both = tf.concat([fake, real], axis=0)
        labels = tf.concat([tf.ones((batch, 1)), tf.zeros((batch, 1))], axis=0)
        with tf.GradientTape() as tape:
            d_loss = self.loss_fn(labels, self.discriminator(both))
        grads = tape.gradient(d_loss, self.discriminator.trainable_weights)
        self.d_optimizer.apply_gradients(zip(grads, self.discriminator.trainable_weights))
        noise = tf.random.normal(shape=(batch, LATENT), seed=2)
        with tf.GradientTape() as tape:
            g_loss = self.loss_fn(tf.zeros((batch, 1)), self.discriminator(self.generator(noise)))
        grads = tape.gradient(g_loss, self.generator.trainable_weights)
        self.g_optimizer.apply_gradients(zip(grads, self.generator.trainable_weights))
        self.d_loss_metric.update_state(d_loss)
        self.g_loss_metric.update_state(g_loss)
        return {"d_loss": self.d_loss_metric.result(), "g_loss": self.g_loss_metric.result()}


discriminator = tf.keras.Sequential([tf.keras.layers.Dense(16, activation="relu"), tf.keras.layers.Dense(1)])
generator = tf.keras.Sequential([tf.keras.layers.Dense(16, activation="relu"), tf.keras.layers.Dense(2)])
rng = np.random.default_rng(43)
real = (rng.normal(size=(1024, 2)) * 0.5 + 2.0).astype("float32")
dataset = tf.data.Dataset.from_tensor_slices(real).shuffle(1024, seed=43).batch(64)

gan = GAN(discriminator=discriminator, generator=generator)
gan.compile(
    d_optimizer=tf.keras.optimizers.Adam(learning_rate=0.003),
    g_optimizer=tf.keras.optimizers.Adam(learning_rate=0.003),
    loss_fn=tf.keras.losses.BinaryCrossentropy(from_logits=True),
)
history = gan.fit(dataset, epochs=4, verbose=2)

out_dir = os.environ.get("RANKLIFT_E2E_OUT")
if out_dir:
    rank = os.environ.get("HOROVOD_RANK", "0")
    np.savez(os.path.join(out_dir, f"rank{rank}.npz"), losses=np.array(history.history["d_loss"]),
             *[v.numpy() for v in discriminator.trainable_variables + generator.trainable_variables])
