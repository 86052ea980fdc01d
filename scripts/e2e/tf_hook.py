"""Run functions on the `tensorflow` module once TensorFlow *and* Keras are imported, whichever
the program imports first: the product's hook (`python/ranklift/synthetic_data.py`, whose
`on_tensorflow` the synthetic datasets use too), loaded once per process under one name so the
e2e probes and the stand-ins share it."""
import importlib.util
import os
import sys

NAME = "ranklift_synthetic_data"


def product_module():
    """`python/ranklift/synthetic_data.py`, imported once as `ranklift_synthetic_data`."""
    if NAME not in sys.modules:
        repo = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
        path = os.path.join(repo, "python", "ranklift", "synthetic_data.py")
        spec = importlib.util.spec_from_file_location(NAME, path)
        module = importlib.util.module_from_spec(spec)
        sys.modules[NAME] = module
        spec.loader.exec_module(module)
    return sys.modules[NAME]


on_tensorflow = product_module().on_tensorflow
