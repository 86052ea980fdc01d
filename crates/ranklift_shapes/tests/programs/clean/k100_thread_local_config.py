"""A library keeps its configuration per thread, as scikit-learn does: the defaults are copied
into a `threading.local` on first use, and a setting off by default (array-API dispatch) picks
the branch. Only the default branch runs; the other one would multiply mismatched arrays."""

import threading

import numpy as np

_global_config = {"array_api_dispatch": False, "working_memory": 1024}
_threadlocal = threading.local()


def _get_threadlocal_config():
    if not hasattr(_threadlocal, "global_config"):
        _threadlocal.global_config = _global_config.copy()
    return _threadlocal.global_config


def get_config():
    return _get_threadlocal_config().copy()


def project(x, basis):
    if get_config()["array_api_dispatch"]:
        return basis @ x
    return x @ basis


print(project(np.ones((5, 3)), np.ones((3, 2))).shape)
