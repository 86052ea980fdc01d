# A hidden-Markov model's forward pass in log space: its logarithms guarded by the float type's
# `eps`, its observations drawn one-hot with `np.random.multinomial`. The last line adds the
# state log-probabilities to each column of the emission matrix.
import numpy as np

np.random.seed(0)
eps = np.finfo(float).eps
A = np.full((3, 3), 1 / 3)
B = np.full((3, 4), 0.25)
pi = np.array([0.5, 0.3, 0.2])
obs = [int(np.random.multinomial(1, B[0]).argmax()) for _ in range(5)]
draws = np.random.multinomial(10, pi, size=(2, 6))
alpha = np.log(pi + eps) + np.log(B[:, obs[0]] + eps)
for o in obs[1:]:
    alpha = np.log(np.exp(alpha) @ A + eps) + np.log(B[:, o] + eps)
print(alpha.shape, draws.sum(axis=2).shape, np.iinfo(np.int32).bits)
print((alpha[:, None] + np.log(B + eps)).shape)
