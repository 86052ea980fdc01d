"""Loaded into every Python process of a real-program sweep run (PYTHONPATH): the e2e probes
(`scripts/e2e_torch/sitecustomize.py`: the synthetic datasets of `python/ranklift/synthetic_data.py`,
the layer `--synthetic-data` uses; losses, parameters, the samples each rank reads, files and
prints per rank)."""
import importlib.util
import os

_scripts = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_spec = importlib.util.spec_from_file_location("ranklift_e2e_probe", os.path.join(_scripts, "e2e_torch", "sitecustomize.py"))
_mod = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_mod)

if os.environ.get("RANKLIFT_SWEEP_CUDA_ON_CPU") == "1":
    # A program written for a GPU (`.cuda()` with no test) runs on this CPU-only machine: tensors
    # and modules stay where they are. `torch.cuda.is_available()` is still False, so the
    # rewrite's own device choices (gloo, no device_ids) are the ones a CPU run makes.
    import torch

    torch.Tensor.cuda = lambda self, *a, **k: self
    torch.nn.Module.cuda = lambda self, *a, **k: self
