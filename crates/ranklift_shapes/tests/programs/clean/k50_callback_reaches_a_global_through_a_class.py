# A callback handed to a library function the analysis does not run (`functools.reduce` here; in
# the wild a TensorFlow Estimator's `model_fn`, whose `SessionRunHook` fills a module-level list in
# `after_run`) reaches a global through a method of a class it instantiates: after the call the
# list is not known to be empty, so `LOSSES[0]` is no IndexError.
import functools

import numpy as np

LOSSES = []


class Recorder:
    def after_run(self, value):
        LOSSES.append(value)
        return value


def model_fn(acc, x):
    return Recorder().after_run(acc + x)


functools.reduce(model_fn, [1.0, 2.0, 3.0], 0.0)
print("loss: %.3f -> %.3f" % (LOSSES[0], LOSSES[-1]))
print(np.array(LOSSES).shape)
