from tensorflow import keras
from tensorflow.keras import layers


def build_classifier(n_classes=3):
    return keras.Sequential([layers.Dense(32, activation="relu"), layers.Dense(n_classes, activation="softmax")])
