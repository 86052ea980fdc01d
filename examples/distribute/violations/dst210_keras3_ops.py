"""Keras 3 code (`keras.ops`): Horovod supports Keras 2 only."""
import keras
import numpy as np

model = keras.Sequential([keras.layers.Dense(1)])
model.compile(optimizer="adam", loss="mse")
x = np.random.rand(64, 3).astype("float32")
y = keras.ops.sum(x, axis=1, keepdims=True)
model.fit(x, y, epochs=2)
