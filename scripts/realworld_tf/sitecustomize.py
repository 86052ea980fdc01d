"""Loaded into every Python process of the TensorFlow real-program sweep (PYTHONPATH): the
synthetic datasets (`python/ranklift/synthetic_data.py`, shared with the PyTorch sweep and
`--synthetic-data`: `tf.keras.datasets`, `get_file`, downloads), then the Horovod e2e probes
(`scripts/e2e/sitecustomize.py` with `tf_probe.py`: weights, losses, the examples each step
trained on, writes and seeds per rank)."""
import importlib.util
import os
import sys

_scripts = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(_scripts, "e2e"))
import tf_hook  # noqa: E402

del sys.path[0]
tf_hook.product_module().install()
_spec = importlib.util.spec_from_file_location("ranklift_e2e_probe", os.path.join(_scripts, "e2e", "sitecustomize.py"))
_mod = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_mod)
