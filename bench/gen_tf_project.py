#!/usr/bin/env python3
"""Generate a synthetic TensorFlow 2 project for bench/distribute.sh.

`gen_tf_project.py OUT [MODULES]` writes OUT/train.py (a GradientTape training loop) and MODULES
modules in packages OUT/pkgNN/ (models, data pipelines, losses, callbacks, utilities with prints
and checkpoints), each about 250 lines, importing one another. Deterministic: same arguments, same
files. Only the standard library is used.
"""
import os
import sys

MODULE_TEMPLATE = '''"""Synthetic module {name} of the ranklift benchmark project."""
import os
import math

import numpy as np
import tensorflow as tf
{imports}

SCALE_{i} = {i}.5
LAYERS_{i} = [{w}, {w2}, 1]


class Block{i}(tf.keras.layers.Layer):
    def __init__(self, units={w}):
        super().__init__()
        self.dense = tf.keras.layers.Dense(units, activation="relu")
        self.norm = tf.keras.layers.LayerNormalization()

    def call(self, x):
        return self.norm(self.dense(x))


class Model{i}(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.blocks = [Block{i}(u) for u in LAYERS_{i}[:-1]]
        self.head = tf.keras.layers.Dense(LAYERS_{i}[-1])

    def call(self, x, training=False):
        for block in self.blocks:
            x = block(x)
        return self.head(x)

    def describe(self):
        print("Model{i} with", len(self.blocks), "blocks")


def make_dataset_{i}(n={n}, batch=32, seed={i}):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(n, {w})).astype("float32")
    y = (x.sum(axis=1, keepdims=True) * SCALE_{i}).astype("float32")
    ds = tf.data.Dataset.from_tensor_slices((x, y))
    ds = ds.shuffle(n, seed=seed).batch(batch)
    return ds.prefetch(2)

'''

FUNC_TEMPLATE = '''
def helper_{i}_{k}(values, factor={k}):
    """Helper {k} of module {i}: a little numeric work with branches and loops."""
    total = 0.0
    for j, v in enumerate(values):
        if j % 3 == 0:
            total += math.sqrt(abs(v)) * factor
        elif j % 3 == 1:
            total -= v / (factor + 1)
        else:
            total += float(np.tanh(v))
    if total > {k}:
        print("helper_{i}_{k}: large total", total)
    result = {{"total": total, "count": len(values), "module": "{name}"}}
    return result


def loss_{i}_{k}(y_true, y_pred):
    err = tf.reduce_mean(tf.square(y_true - y_pred))
    reg = tf.add_n([tf.reduce_sum(tf.abs(w)) for w in [y_pred]]) * 1e-4
    return err + reg

'''

TRAIN = '''"""Entry point of the synthetic benchmark project."""
import os

import numpy as np
import tensorflow as tf

{imports}

os.environ["CUDA_VISIBLE_DEVICES"] = "0"

model = Model0()
optimizer = tf.keras.optimizers.Adam(learning_rate=1e-3)
checkpoint = tf.train.Checkpoint(model=model, optimizer=optimizer)
manager = tf.train.CheckpointManager(checkpoint, "/tmp/bench_ckpt", max_to_keep=2)


@tf.function
def train_step(x, y):
    with tf.GradientTape() as tape:
        loss = loss_0_0(y, model(x, training=True))
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    return loss


def main():
    dataset = make_dataset_0()
    for epoch in range(3):
        for step, (x, y) in enumerate(dataset.take(100)):
            loss = train_step(x, y)
            if step % 10 == 0:
                print("epoch", epoch, "step", step, "loss", float(loss))
        manager.save()
{uses}


if __name__ == "__main__":
    main()
'''


def main():
    out = sys.argv[1]
    modules = int(sys.argv[2]) if len(sys.argv) > 2 else 210
    per_pkg = 15
    names = []
    for i in range(modules):
        pkg = f"pkg{i // per_pkg:02d}"
        names.append((pkg, f"mod{i:03d}"))
    lines = 0
    for i, (pkg, mod) in enumerate(names):
        os.makedirs(os.path.join(out, pkg), exist_ok=True)
        init = os.path.join(out, pkg, "__init__.py")
        if not os.path.exists(init):
            with open(init, "w") as f:
                f.write(f'"""Package {pkg}."""\n')
        imports = []
        if i > 0:
            ppkg, pmod = names[i - 1]
            if ppkg == pkg:
                imports.append(f"from .{pmod} import helper_{i - 1}_0")
            else:
                imports.append(f"from {ppkg}.{pmod} import helper_{i - 1}_0")
        text = MODULE_TEMPLATE.format(i=i, name=f"{pkg}.{mod}", imports="\n".join(imports), w=8 + i % 8, w2=4 + i % 4, n=256 + i)
        for k in range(8):
            text += FUNC_TEMPLATE.format(i=i, k=k, name=f"{pkg}.{mod}")
        with open(os.path.join(out, pkg, f"{mod}.py"), "w") as f:
            f.write(text)
        lines += text.count("\n")
    imports = ["from pkg00.mod000 import Model0, make_dataset_0, loss_0_0"]
    uses = []
    for i, (pkg, mod) in enumerate(names[1:], start=1):
        imports.append(f"from {pkg}.{mod} import helper_{i}_1")
        uses.append(f"    helper_{i}_1([1.0, 2.0, 3.0])")
    text = TRAIN.format(imports="\n".join(imports), uses="\n".join(uses))
    with open(os.path.join(out, "train.py"), "w") as f:
        f.write(text)
    lines += text.count("\n")
    print(f"{modules + 1} modules, {lines} lines in {out}")


if __name__ == "__main__":
    main()
