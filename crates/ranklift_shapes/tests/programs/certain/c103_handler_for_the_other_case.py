# An objective written for both a point and a batch of points: the 2-d case in the `try`
# body, the 1-d case in the handler of the `IndexError` a 1-d `x` raises there, which runs
# for the 1-d call: its product is sized for all five coordinates where `x[1:]` has four.
import numpy as np


def objective(x):
    try:
        return x[:, 0] ** 2 + np.sqrt(np.sum(x[:, 1:] ** 2, -1))
    except IndexError:
        return x[0] ** 2 + np.sqrt(x[1:] ** 2) @ np.ones(5)


rng = np.random.default_rng(3)
print(objective(rng.normal(size=(3, 5))).shape, np.shape(objective(rng.normal(size=5))))
