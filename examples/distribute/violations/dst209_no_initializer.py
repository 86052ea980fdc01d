"""DST209: variables are initialised through a helper ranklift cannot see, so it cannot place the
broadcast from rank 0 after it."""
import tensorflow.compat.v1 as tf

from setup_helpers import initialise

tf.disable_eager_execution()
w = tf.Variable(1.0)
loss = tf.square(w - 3.0)
train_op = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
with tf.Session() as sess:
    initialise(sess)
    for _ in range(10):
        sess.run(train_op)
