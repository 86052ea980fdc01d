"""Loaded into every Python process of a real-program sweep run (PYTHONPATH): the offline data
layer (`ranklift_offline`), then the e2e probes (`scripts/e2e_torch/sitecustomize.py`: losses,
parameters, the samples each rank reads, files and prints per rank)."""
import importlib.util
import os

import ranklift_offline  # noqa: F401

_probe = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "e2e_torch", "sitecustomize.py")
_spec = importlib.util.spec_from_file_location("ranklift_e2e_probe", _probe)
_mod = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_mod)
