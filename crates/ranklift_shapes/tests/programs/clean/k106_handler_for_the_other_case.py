# An objective written for both a point and a batch of points: the 2-d case in the `try`
# body, the 1-d case in the handler of the `IndexError` a 1-d `x` raises there. Called with
# both; the handler's arithmetic is for a 1-d `x` only, and runs only for one.
import numpy as np


def objective(x):
    try:
        return x[:, 0] ** 2 + np.sqrt(np.sum(x[:, 1:] ** 2, -1))
    except IndexError:
        return x[0] ** 2 + np.sqrt(np.sum(x[1:] ** 2, -1))


rng = np.random.default_rng(3)
print(np.shape(objective(rng.normal(size=5))), objective(rng.normal(size=(3, 5))).shape)
