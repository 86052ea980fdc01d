# A decorator of the program itself wraps the Kalman step (simdkalman's `autoshape`): the
# analysis runs the decorator and calls through the wrapper it returns, so the mismatch inside
# the wrapped function is reached (`covariance @ mean` with the operands exchanged).
from functools import wraps

import numpy as np


def autoshape(func):
    def to_3d(v):
        if v.ndim == 1:
            return v[np.newaxis, :, np.newaxis]
        if v.ndim == 2:
            return v[np.newaxis, ...]
        return v

    @wraps(func)
    def wrapper(*args):
        return func(*[to_3d(a) for a in args])

    return wrapper


@autoshape
def predict(mean, covariance, transition):
    return np.matmul(mean, transition), covariance


print(predict(np.ones((4, 3, 1)), np.ones((4, 3, 3)), np.eye(3)))
