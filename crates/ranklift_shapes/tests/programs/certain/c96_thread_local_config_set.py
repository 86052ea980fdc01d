"""The twin of a configuration kept per thread: the caller turns the dispatch on first
(`set_config`), so the other branch runs, and there the arrays are multiplied the wrong way
round: (3, 2) @ (5, 3)."""

import threading

import numpy as np

_global_config = {"array_api_dispatch": False, "working_memory": 1024}
_threadlocal = threading.local()


def _get_threadlocal_config():
    if not hasattr(_threadlocal, "global_config"):
        _threadlocal.global_config = _global_config.copy()
    return _threadlocal.global_config


def set_config(array_api_dispatch=None):
    local_config = _get_threadlocal_config()
    if array_api_dispatch is not None:
        local_config["array_api_dispatch"] = array_api_dispatch


def get_config():
    return _get_threadlocal_config().copy()


def project(x, basis):
    if get_config()["array_api_dispatch"]:
        return basis @ x
    return x @ basis


set_config(array_api_dispatch=True)
print(project(np.ones((5, 3)), np.ones((3, 2))).shape)
