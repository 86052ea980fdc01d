"""Keras 3 on the torch backend: not a TensorFlow program."""
import os

os.environ["KERAS_BACKEND"] = "torch"
import keras
import numpy as np

model = keras.Sequential([keras.layers.Dense(1)])
model.compile(optimizer="adam", loss="mse")
model.fit(np.random.rand(64, 3), np.random.rand(64, 1), epochs=2)
