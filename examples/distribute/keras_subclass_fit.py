"""A keras.Model subclass trained with fit, checkpointed with model.save at the end."""
import os
import tempfile

import numpy as np
import tensorflow as tf


class Autoencoder(tf.keras.Model):
    def __init__(self, latent):
        super().__init__()
        self.encoder = tf.keras.layers.Dense(latent, activation="relu")
        self.decoder = tf.keras.layers.Dense(8)

    def call(self, x):
        return self.decoder(self.encoder(x))


tf.keras.utils.set_random_seed(14)
rng = np.random.default_rng(14)
basis = rng.normal(size=(3, 8))
data = (rng.normal(size=(3000, 3)) @ basis).astype("float32")

autoencoder = Autoencoder(latent=3)
autoencoder.compile(optimizer=tf.keras.optimizers.Adam(0.01), loss="mse")
fit_result = autoencoder.fit(data, data, batch_size=100, epochs=5, shuffle=True, verbose=2)
autoencoder.save(os.path.join(tempfile.mkdtemp(), "autoencoder"))
print("reconstruction loss:", fit_result.history["loss"][-1])

out_dir = os.environ.get("RANKLIFT_E2E_OUT")
if out_dir:
    rank = os.environ.get("HOROVOD_RANK", "0")
    np.savez(os.path.join(out_dir, f"rank{rank}.npz"), losses=np.array(fit_result.history["loss"]), *autoencoder.get_weights())
