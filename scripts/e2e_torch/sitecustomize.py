"""Imported by every Python process of the PyTorch end-to-end check (through PYTHONPATH).

Always: the synthetic datasets stand in for torchvision's downloads (no example needs a network).

Inactive unless RANKLIFT_E2E_OUT is set. Then, for the process of rank R (torchrun's RANK; 0 for
the original single-process run), nothing in the examples is edited — the record comes from
hooks on PyTorch itself:

- `tempfile` puts files under `$RANKLIFT_E2E_TMP/rank<R>` (torchrun runs only), so the check can
  tell which rank wrote checkpoints and logs;
- with RANKLIFT_E2E_DESYNC=1, `torch.manual_seed` is offset on ranks != 0, so the ranks start
  from different random weights, as unseeded programs would: identical final weights then prove
  that DDP broadcast rank 0's; the negative control without the wrap proves they would differ;
- a global optimizer step hook counts steps and remembers the optimizers; `Tensor.backward`
  records the value of every scalar loss; `DistributedSampler.__iter__` records the order of
  indices of every pass; `DataLoader` iterators count the rows of every batch; `torch.save` records the keys and shapes of every state dict saved;
  `open` records every file opened for writing (outside caches and the record itself);
- at exit, `$RANKLIFT_E2E_OUT/rank<R>.pt` holds: steps, losses, the final parameters of every
  optimizer (in the order they first stepped), sampler orders, saves and writes.
"""
import atexit
import importlib.util
import os

# The synthetic datasets (python/ranklift/synthetic_data.py, what `--synthetic-data` loads), so
# an example reading torchvision's MNIST runs without the network, in every process.
_hook = importlib.util.spec_from_file_location(
    "tf_hook", os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "e2e", "tf_hook.py"))
_hook_mod = importlib.util.module_from_spec(_hook)
_hook.loader.exec_module(_hook_mod)
_hook_mod.product_module().install()

_out = os.environ.get("RANKLIFT_E2E_OUT")
# Under torchrun (RANKLIFT_E2E_TMP set) only the workers record, not the launcher itself.
if _out and ("RANK" in os.environ or not os.environ.get("RANKLIFT_E2E_TMP")):
    import torch
    import torch.optim.optimizer as _optim

    _rank = os.environ.get("RANK", "0")
    _base = os.environ.get("RANKLIFT_E2E_TMP")
    if _base:
        import tempfile

        _dir = os.path.join(_base, f"rank{_rank}")
        os.makedirs(_dir, exist_ok=True)
        tempfile.tempdir = _dir

    if os.environ.get("RANKLIFT_E2E_DESYNC") == "1" and _rank != "0":
        _orig_seed = torch.manual_seed

        def _seed(seed, _orig=_orig_seed, _off=7919 * int(_rank)):
            return _orig(int(seed) + _off)

        torch.manual_seed = _seed
        torch.random.manual_seed = _seed

    _rec = {"steps": 0, "losses": [], "orders": [], "saves": [], "writes": [], "rows": 0, "draws": []}
    _optimizers = []

    def _post_step(opt, args, kwargs):
        _rec["steps"] += 1
        if not any(o is opt for o in _optimizers):
            _optimizers.append(opt)

    _optim.register_optimizer_step_post_hook(_post_step)

    _subset_pass = []
    _orig_backward = torch.Tensor.backward

    def _backward(self, *a, **k):
        if self.numel() == 1:
            _rec["losses"].append(float(self.detach().float().cpu()))
        # The pass of a SubsetRandomSampler that this step trains on (validation passes never
        # reach a backward, so their orders are not recorded).
        if _subset_pass:
            _rec["orders"].append(_subset_pass.pop())
        return _orig_backward(self, *a, **k)

    torch.Tensor.backward = _backward

    import torch.utils.data.distributed as _tud

    _orig_iter = _tud.DistributedSampler.__iter__

    def _iter(self):
        order = list(_orig_iter(self))
        _rec["orders"].append(order)
        return iter(order)

    _tud.DistributedSampler.__iter__ = _iter

    # The first draws of every pass of a sampler that samples with replacement (RandomSampler
    # told so, WeightedRandomSampler by default; its passes may be "infinite": recorded lazily,
    # never materialised): two ranks must draw apart.
    import torch.utils.data.sampler as _tds

    def _recording_draws(orig_iter):
        def _iter(self):
            if not self.replacement:
                yield from orig_iter(self)
                return
            drawn = []
            _rec["draws"].append(drawn)
            for i, x in enumerate(orig_iter(self)):
                if i < 2000:
                    drawn.append(int(x))
                yield x

        return _iter

    for _cls in (_tds.RandomSampler, _tds.WeightedRandomSampler):
        _cls.__iter__ = _recording_draws(_cls.__iter__)

    # Every pass of a SubsetRandomSampler (a shuffle of an index list): its order joins "orders"
    # at the first backward it feeds, so that the ranks' shares are compared like a
    # DistributedSampler's.
    _orig_sub_iter = _tds.SubsetRandomSampler.__iter__

    def _sub_iter(self):
        order = [int(i) for i in _orig_sub_iter(self)]
        _subset_pass[:] = [order]
        return iter(order)

    _tds.SubsetRandomSampler.__iter__ = _sub_iter

    # Rows drawn from every DataLoader (the first dimension of a batch's first tensor): the
    # work a rank did when a library's own sampler splits batches rather than steps (Opacus'
    # Poisson sampling keeps the step count and shrinks each rank's batches).
    import torch.utils.data.dataloader as _tdl

    _orig_next = _tdl._BaseDataLoaderIter.__next__

    def _next(self):
        batch = _orig_next(self)
        first = batch
        while isinstance(first, (list, tuple)) and first:
            first = first[0]
        if isinstance(first, torch.Tensor) and first.dim() > 0:
            _rec["rows"] += int(first.shape[0])
        return batch

    _tdl._BaseDataLoaderIter.__next__ = _next

    def _shapes(obj, prefix=""):
        out = {}
        if isinstance(obj, torch.Tensor):
            out[prefix] = list(obj.shape)
        elif isinstance(obj, dict):
            for k, v in obj.items():
                out.update(_shapes(v, f"{prefix}{k}." if not isinstance(v, torch.Tensor) else f"{prefix}{k}"))
        elif isinstance(obj, torch.nn.Module):
            out.update(_shapes(obj.state_dict(), prefix + "<module>."))
        return out

    _orig_save = torch.save

    def _save(obj, f, *a, **k):
        path = f if isinstance(f, (str, os.PathLike)) else getattr(f, "name", "?")
        _rec["saves"].append({"name": os.path.basename(str(path)), "keys": _shapes(obj)})
        return _orig_save(obj, f, *a, **k)

    torch.save = _save

    # Every file this process opens for writing (PIL and torchvision's save_image, np.save,
    # savefig, json.dump, torch.save all go through `open`), but for caches and the record.
    import builtins

    _orig_open = builtins.open
    _skip = tuple(os.path.realpath(p) for p in (_out, os.path.expanduser("~/.cache"), "/dev", "/proc"))

    def _open(file, mode="r", *a, **k):
        if isinstance(file, (str, bytes, os.PathLike)) and any(c in str(mode) for c in "wax+"):
            path = os.path.realpath(os.fsdecode(file))
            if not path.startswith(_skip) and "__pycache__" not in path:
                _rec["writes"].append(path)
        return _orig_open(file, mode, *a, **k)

    builtins.open = _open

    def _dump():
        params = []
        for opt in _optimizers:
            for g in opt.param_groups:
                params.extend(p.detach().cpu().clone() for p in g["params"])
        rec = dict(_rec, params=params)
        _orig_save(rec, os.path.join(_out, f"rank{_rank}.pt"))

    atexit.register(_dump)
