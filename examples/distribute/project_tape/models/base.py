import tensorflow as tf


class BaseModel(tf.keras.Model):
    """Common base class of the project's models."""

    def describe(self):
        print(f"{type(self).__name__} with {len(self.trainable_variables)} trainable tensors")
