"""A tiny GAN: two models, two optimizers, both updated in one training step.

The generator learns to map noise to samples of N(3, 0.5).
"""
import os

import numpy as np
import tensorflow as tf

STEPS = 150
NOISE = 4
tf.keras.utils.set_random_seed(3)
rng = np.random.default_rng(3)

generator = tf.keras.Sequential([tf.keras.layers.Dense(16, activation="relu"), tf.keras.layers.Dense(1)])
discriminator = tf.keras.Sequential([tf.keras.layers.Dense(16, activation="relu"), tf.keras.layers.Dense(1)])
cross_entropy = tf.keras.losses.BinaryCrossentropy(from_logits=True)
generator_optimizer = tf.keras.optimizers.Adam(1e-3)
discriminator_optimizer = tf.keras.optimizers.Adam(1e-3)


def train_step(real):
    noise = tf.random.normal([real.shape[0], NOISE])
    with tf.GradientTape() as gen_tape, tf.GradientTape() as disc_tape:
        fake = generator(noise, training=True)
        real_out = discriminator(real, training=True)
        fake_out = discriminator(fake, training=True)
        gen_loss = cross_entropy(tf.ones_like(fake_out), fake_out)
        disc_loss = cross_entropy(tf.ones_like(real_out), real_out) + cross_entropy(tf.zeros_like(fake_out), fake_out)
    gen_grads = gen_tape.gradient(gen_loss, generator.trainable_variables)
    disc_grads = disc_tape.gradient(disc_loss, discriminator.trainable_variables)
    generator_optimizer.apply_gradients(zip(gen_grads, generator.trainable_variables))
    discriminator_optimizer.apply_gradients(zip(disc_grads, discriminator.trainable_variables))
    return gen_loss, disc_loss


losses = []
for step in range(STEPS):
    real = tf.constant(rng.normal(3.0, 0.5, size=(64, 1)), dtype=tf.float32)
    g, d = train_step(real)
    losses.append(float(d))

samples = generator(tf.random.normal([1000, NOISE]))
print(f"generated mean {float(tf.reduce_mean(samples)):.2f} (target 3.0)")

out_dir = os.environ.get("RANKLIFT_E2E_OUT")
if out_dir:
    rank = os.environ.get("HOROVOD_RANK", "0")
    weights = [v.numpy() for v in generator.variables + discriminator.variables]
    np.savez(os.path.join(out_dir, f"rank{rank}.npz"), losses=np.array(losses), *weights)
