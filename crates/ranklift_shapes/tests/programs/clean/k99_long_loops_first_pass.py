# Long loops whose first pass differs from the others, right as written: the first iteration
# is special-cased, a value grows, a square map is applied again and again, a mask is built
# for the rows it indexes.
import numpy as np

x = np.ones((8, 5))
w = np.ones((5, 5)) / 5.0
h = None
for i in range(100):
    if i == 0:
        h = x
    else:
        h = h @ w
print(h.shape)

acc = np.zeros((0, 3))
for i in range(80):
    acc = np.concatenate([acc, np.full((1, 3), i)])
print(acc.shape)

emb = np.ones((120, 3))
kept = 0
for k in range(119):
    rows = emb[k + 1:, :]
    keep = rows[:, 0] > 0
    kept += rows[keep, :].shape[0]
print(kept)

states = [np.zeros(4)] + [np.zeros((4, 4)) for _ in range(70)]
total = np.zeros(4)
for s in states[1:]:
    total += s @ np.ones(4)
print(total)
