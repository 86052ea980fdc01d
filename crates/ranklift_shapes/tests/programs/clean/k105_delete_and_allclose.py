# Leave-one-feature-out: each column dropped in turn with `np.delete` and the rest scored,
# then a check that the scores settled (`np.allclose` of each score and their mean). The last
# line's weights are sized for the two columns left.
import numpy as np

rng = np.random.default_rng(1)
X = rng.normal(size=(20, 4))
y = X @ np.array([1.0, 0.5, 0.0, -1.0])
w = np.ones(3)
scores = np.zeros(4)
for j in range(4):
    rest = np.delete(X, j, axis=1)
    scores[j] = np.mean((rest @ w - y) ** 2)
settled = np.allclose(scores, scores.mean())
pairs = np.delete(X, [0, 0, 3], axis=1)
flat = np.delete(X, 0)
print(settled, pairs.shape, flat.shape, np.array_equal(X, X[:2]))
print((pairs @ np.ones(2)).shape)
