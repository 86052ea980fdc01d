"""DST102: a TF1 Session program (seed 000), not rewritten by the TF2 rules."""
import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()
x = tf.placeholder(tf.float32, [None, 1])
y = tf.placeholder(tf.float32, [None, 1])
w = tf.Variable(tf.zeros([1, 1]))
loss = tf.reduce_mean(tf.square(tf.matmul(x, w) - y))
train_op = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for _ in range(10):
        sess.run(train_op, feed_dict={x: np.ones((4, 1)), y: np.ones((4, 1))})
