"""Globals that functions reassign (`global X`) hold whatever the last call stored (pymoo's
gradient toolbox switch; scikit-learn's test flags)."""
import numpy as np

TOOLBOX = "numpy"


def activate(name):
    global TOOLBOX
    TOOLBOX = name


def value_and_grad(x):
    if TOOLBOX == "jax.numpy":
        out, grad = {"F": x.sum()}, {"F": np.ones_like(x)}
    elif TOOLBOX == "autograd.numpy":
        out, grad = {"F": x.sum()}, {"F": 2 * np.ones_like(x)}
    for k, v in grad.items():
        out["d" + k] = np.array(v)
    return out


activate("autograd.numpy")
assert value_and_grad(np.ones(3))["dF"].shape == (3,)


def make_validator():
    global cause_skip
    cause_skip = False

    def is_data_valid(X, y):
        global cause_skip
        if not cause_skip:
            cause_skip = True
            return True
        return X.shape[0] == y.shape[0]

    return is_data_valid


valid = make_validator()
assert valid(np.ones((3, 2)), np.ones(3))
