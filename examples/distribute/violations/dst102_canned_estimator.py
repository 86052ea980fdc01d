"""DST102: a canned Estimator builds its optimizer inside TensorFlow, out of ranklift's reach."""
import tensorflow.compat.v1 as tf

columns = [tf.feature_column.numeric_column("x", shape=[2])]
classifier = tf.estimator.DNNClassifier(hidden_units=[8], feature_columns=columns, n_classes=2)
classifier.train(input_fn=lambda: ({"x": tf.ones([4, 2])}, tf.zeros([4], tf.int32)), steps=10)
