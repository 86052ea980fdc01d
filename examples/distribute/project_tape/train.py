"""Entry point of a small multi-file project: the model class and the data live in other modules."""
import os

import numpy as np
import tensorflow as tf

from data import make_dataset
from models import MLP
from models.losses import regression_loss

LEARNING_RATE = 0.005
STEPS = 150


def main():
    tf.keras.utils.set_random_seed(17)
    model = MLP(hidden=24)
    optimizer = tf.keras.optimizers.Adam(LEARNING_RATE)
    losses = []
    for features, target in make_dataset(seed=17).take(STEPS):
        with tf.GradientTape() as tape:
            loss = regression_loss(target, model(features))
        grads = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(grads, model.trainable_variables))
        losses.append(float(loss))
    print(f"trained {len(losses)} steps: loss {losses[0]:.3f} -> {losses[-1]:.3f}")
    out_dir = os.environ.get("RANKLIFT_E2E_OUT")
    if out_dir:
        rank = os.environ.get("HOROVOD_RANK", "0")
        np.savez(os.path.join(out_dir, f"rank{rank}.npz"), losses=np.array(losses), *[v.numpy() for v in model.variables])


if __name__ == "__main__":
    main()
