# Softmax cross-entropy as numpy-ml and cs231n write it: the probabilities of the true classes
# picked by integer-array indexing, then weighted by per-class (not per-sample) weights.
import numpy as np

m, k = 6, 4
scores = np.random.default_rng(0).random((m, k))
probs = np.exp(scores) / np.exp(scores).sum(axis=1, keepdims=True)
y = np.array([0, 3, 1, 1, 2, 0])
class_weights = np.ones(k)
picked = probs[range(m), y]
loss = -np.sum(class_weights * np.log(picked)) / m
