"""The recorder `ranklift distribute --verify` puts into the user's PyTorch processes.

`ranklift` writes this file as `sitecustomize.py` into a directory of its own and puts that
directory first on PYTHONPATH, so Python imports it at start-up in the original run and in every
torchrun worker. Nothing in the user's program is edited: everything below hooks PyTorch and the
standard library, and only while RANKLIFT_VERIFY_OUT is set.

What one process records (a JSON file, `$RANKLIFT_VERIFY_OUT/rank<R>.json`, R = torchrun's RANK,
0 for the original), read by `ranklift_distribute::verify`:

- `steps`: for every optimizer step, the time, the learning rate of each parameter group and a
  digest of every parameter the optimizers hold (blake2b of the tensor's bytes), so replicas can
  be compared bit for bit after each step and the first parameter that diverged named;
- `losses`: every scalar that `backward()` was called on;
- `passes`: every pass over a DataLoader — which loader (the order of construction), its length,
  its sampler's class, whether an optimizer stepped during it (a training pass), the first
  sample indices it drew, and the batches and rows (first dimension) it handed out;
- `saves`: every `torch.save` — the file, the keys and shapes of its state dicts, and whether a
  DistributedDataParallel wrapper was pickled into it;
- `schedules`: every learning-rate scheduler's plain state (numbers, strings) after each step;
- `examples`: for a step whose batch came from no DataLoader (hand-built batches), one hash per
  row of the first tensor the model was called with;
- `process_group_left`: whether torch.distributed's process group was still up at exit;
- and what every recorder records (`ranklift_verify_record`, written beside this file: which
  process records, writes, prints, redirected paths, synthetic datasets).

The step budget: after RANKLIFT_VERIFY_STEPS optimizer steps (0: no budget), a training loader's
next pass is empty where a `for` loop draws it (RANKLIFT_VERIFY_DRAIN=1), so the epochs left run
no steps and the program goes on to its end — evaluation, saving, reading back what rank 0
wrote, the teardown; otherwise (a `next()` draws it, or draining is off) the process ends there
(exit status 0), the end-of-epoch code of the last pass having run; a program with no training
loader ends at the budget's step. Every pass over a loader is cut after RANKLIFT_VERIFY_PASS batches (0: uncut), so
several epochs fit in a small budget.
"""

import atexit
import hashlib
import os

import ranklift_verify_record as _r

if _r.active:
    _rec = _r.rec
    _budget, _cut = _r.budget, _r.cut
    _user_line, _show, _place, _stop = _r.user_line, _r.show, _r.place, _r.stop
    _optimizers = []
    _names = {}  # id(parameter) -> name
    _loaders = [0]  # DataLoaders constructed so far
    _open_passes = []  # passes whose iterator has not ended, innermost last

    import torch
    import torch.optim.optimizer as _optim

    def _bytes(t):
        t = t.detach().cpu().contiguous().reshape(-1)
        try:
            return t.view(torch.uint8).numpy().tobytes()
        except Exception:  # no NumPy, or a dtype it lacks: the exact doubles' text
            return repr(t.double().tolist()).encode()

    def _learn_names():
        """Name parameters after the outermost module that holds them (a DDP wrapper's
        `module.` prefix dropped), once, at the first step."""
        import gc
        import warnings

        # Looking at every object touches deprecated module attributes (torch warns about
        # `torch.distributed.reduce_op`): none of that is the program's output.
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            for obj in gc.get_objects():
                if isinstance(obj, torch.nn.Module):
                    try:
                        for n, p in obj.named_parameters():
                            n = n[len("module."):] if n.startswith("module.") else n
                            if len(n) > len(_names.get(id(p), "")):
                                _names[id(p)] = n
                    except Exception:
                        pass

    def _post_step(opt, args, kwargs):
        if not any(o is opt for o in _optimizers):
            _optimizers.append(opt)
        if not _names:
            _learn_names()
        digests, lrs = [], []
        for o in _optimizers:
            for g in o.param_groups:
                lrs.append(float(g.get("lr", 0.0)))
                for i, p in enumerate(g["params"]):
                    digests.append(hashlib.blake2b(_bytes(p), digest_size=8).hexdigest())
                    key = str(len(digests) - 1)
                    if key not in _rec["names"]:
                        _rec["names"][key] = _names.get(id(p), f"parameter {i} {tuple(p.shape)}")
        current = _open_passes[-1]["id"] if _open_passes else None
        if _fed[0] is not None and len(_rec["examples"]) < 10000:
            _rec["examples"].append(_fed[0])
            _rec["example_passes"].append(0)
        _fed[0] = None
        _rec["steps"].append({"t": _r.now(), "lr": lrs, "params": digests, "pass": current})
        if _open_passes:
            _open_passes[-1]["trains"] = True
        n = len(_rec["steps"])
        _r.heartbeat(n)
        if _budget and n >= _budget and not any(p["trains"] for p in _rec["passes"]):
            _stop(f"the step budget ({_budget} steps)")
        if _budget and n >= 4 * _budget:
            _stop(f"four times the step budget ({_budget} steps) within one pass over the data")

    _optim.register_optimizer_step_post_hook(_post_step)

    # Every learning-rate scheduler's plain state after each of its steps: ranks that decide
    # their schedule apart (a plateau scheduler fed each rank's own loss) differ here before
    # their learning rates, and so their parameters, do.
    import torch.optim.lr_scheduler as _lrs

    _schedulers = []

    def _wrap_step(cls):
        orig = cls.step

        def step(self, *a, **k):
            out = orig(self, *a, **k)
            try:
                if not any(s is self for s in _schedulers):
                    _schedulers.append(self)
                idx = next(i for i, s in enumerate(_schedulers) if s is self)
                plain = {
                    key: v
                    for key, v in self.state_dict().items()
                    if isinstance(v, (int, float, str, bool, type(None)))
                }
                if len(_rec["schedules"]) < 10000:
                    _rec["schedules"].append({"scheduler": f"{type(self).__name__} #{idx}", "state": plain})
            except Exception:  # the recorder never breaks the program
                pass
            return out

        cls.step = step

    for _cls in {getattr(_lrs, "LRScheduler", None), getattr(_lrs, "_LRScheduler", None), _lrs.ReduceLROnPlateau}:
        if _cls is not None and "step" in vars(_cls):
            _wrap_step(_cls)

    _orig_backward = torch.Tensor.backward

    def _backward(self, *a, **k):
        if self.numel() == 1 and len(_rec["losses"]) < 100000:
            _rec["losses"].append(float(self.detach().float().cpu()))
        return _orig_backward(self, *a, **k)

    torch.Tensor.backward = _backward

    import torch.utils.data.dataloader as _tdl

    _orig_dl_init = _tdl.DataLoader.__init__

    def _dl_init(self, *a, **k):
        _orig_dl_init(self, *a, **k)
        self._ranklift_id = _loaders[0]
        _loaders[0] += 1

    _tdl.DataLoader.__init__ = _dl_init

    def _past_budget(lid):
        """Why a pass of loader `lid` starting now is past the step budget (it trained, and the
        budget's steps are taken), or None."""
        if _budget and len(_rec["steps"]) >= _budget and any(p["trains"] and p["loader"] == lid for p in _rec["passes"]):
            return f"the step budget ({_budget} steps), at the next pass over the training data"
        return None

    _orig_dl_iter = _tdl.DataLoader.__iter__

    def _dl_iter(self):
        why = _past_budget(getattr(self, "_ranklift_id", -1))
        if why and _r.drain_pass(why):
            return _r.EmptyPass(why)
        return _orig_dl_iter(self)

    _tdl.DataLoader.__iter__ = _dl_iter

    _orig_it_init = _tdl._BaseDataLoaderIter.__init__

    def _it_init(self, loader):
        lid = getattr(loader, "_ranklift_id", -1)
        why = _past_budget(lid)
        if why:  # a loader whose own __iter__ does not come through DataLoader's
            _stop(why)
        _orig_it_init(self, loader)
        try:
            length = len(loader)
        except TypeError:
            length = None
        sampler = getattr(loader, "sampler", None)
        batch_sampler = getattr(loader, "batch_sampler", None)
        rec = {
            "id": len(_rec["passes"]),
            "loader": lid,
            "len": length,
            "sampler": type(sampler).__name__ if sampler is not None else None,
            "batch_sampler": type(batch_sampler).__name__ if batch_sampler is not None else None,
            "epoch": getattr(sampler, "epoch", None),
            "shuffle": getattr(sampler, "shuffle", None),
            "replacement": getattr(sampler, "replacement", None),
            "indices": [],
            "batches": 0,
            "rows": 0,
            "trains": False,
            "cut": False,
        }
        _rec["passes"].append(rec)
        _open_passes.append(rec)
        self._ranklift_pass = rec

    _tdl._BaseDataLoaderIter.__init__ = _it_init

    _orig_next_index = _tdl._BaseDataLoaderIter._next_index

    def _flat(idx, out, limit):
        """The sample indices of a batch (ints, lists, tuples, tensors), at most `limit`."""
        if len(out) >= limit:
            return
        if isinstance(idx, torch.Tensor):
            out.extend(int(i) for i in idx.reshape(-1)[: limit - len(out)].tolist())
        elif isinstance(idx, (list, tuple)):
            for i in idx:
                _flat(i, out, limit)
        elif isinstance(idx, int):
            out.append(idx)

    def _next_index(self):
        idx = _orig_next_index(self)
        rec = getattr(self, "_ranklift_pass", None)
        if rec is not None and len(rec["indices"]) < 4096:
            try:
                _flat(idx, rec["indices"], 4096)
            except Exception:  # the recorder never breaks the program
                pass
        return idx

    _tdl._BaseDataLoaderIter._next_index = _next_index

    _orig_next = _tdl._BaseDataLoaderIter.__next__

    def _end(rec):
        if rec in _open_passes:
            _open_passes.remove(rec)

    def _next(self):
        rec = getattr(self, "_ranklift_pass", None)
        if rec is not None and _cut and rec["batches"] >= _cut:
            rec["cut"] = True
            _end(rec)
            raise StopIteration
        try:
            batch = _orig_next(self)
        except StopIteration:
            if rec is not None:
                _end(rec)
            raise
        if rec is not None:
            rec["batches"] += 1
            first = batch
            while isinstance(first, (list, tuple)) and first:
                first = first[0]
            if isinstance(first, dict) and first:
                first = next(iter(first.values()))
            if isinstance(first, torch.Tensor) and first.dim() > 0:
                rec["rows"] += int(first.shape[0])
        return batch

    _tdl._BaseDataLoaderIter.__next__ = _next

    # Hand-built batches (no DataLoader pass open): the rows of the first tensor the outermost
    # module is called with, hashed one by one, for the step they feed (`examples`, which the
    # "data split" check compares between ranks as it does TensorFlow's batches).
    _depth, _fed = [0], [None]

    def _pre_forward(module, args):
        if _depth[0] == 0 and _fed[0] is None and not _open_passes and torch.is_grad_enabled():
            try:
                t = next((a for a in args if isinstance(a, torch.Tensor) and a.dim() > 0), None)
                if t is not None:
                    _fed[0] = _r.row_hashes([t.detach().cpu().numpy()])
            except Exception:  # the recorder never breaks the program
                pass
        _depth[0] += 1

    def _post_forward(module, args, out):
        _depth[0] -= 1

    import torch.nn.modules.module as _mm

    _mm.register_module_forward_pre_hook(_pre_forward)
    _mm.register_module_forward_hook(_post_forward, always_call=True)

    def _structure(obj, prefix="", depth=0):
        """Keys and shapes of the tensors in a saved object, and whether a DDP wrapper is in it."""
        out, wrapped = {}, False
        if depth > 6:
            return out, wrapped
        if isinstance(obj, torch.Tensor):
            out[prefix or "<tensor>"] = list(obj.shape)
        elif isinstance(obj, dict):
            for k, v in list(obj.items())[:10000]:
                sub, w = _structure(v, f"{prefix}{k}" if isinstance(v, torch.Tensor) else f"{prefix}{k}.", depth + 1)
                out.update(sub)
                wrapped = wrapped or w
        elif isinstance(obj, (list, tuple)):
            for i, v in enumerate(obj[:1000]):
                sub, w = _structure(v, f"{prefix}{i}" if isinstance(v, torch.Tensor) else f"{prefix}{i}.", depth + 1)
                out.update(sub)
                wrapped = wrapped or w
        elif isinstance(obj, torch.nn.Module):
            from torch.nn.parallel import DistributedDataParallel

            wrapped = isinstance(obj, DistributedDataParallel) or any(
                isinstance(m, DistributedDataParallel) for m in obj.modules()
            )
            sub, _ = _structure(obj.state_dict(), prefix + "<module>.", depth + 1)
            out.update(sub)
        return out, wrapped

    _orig_save = torch.save

    def _save(obj, f, *a, **k):
        path = f if isinstance(f, (str, os.PathLike)) else getattr(f, "name", None)
        keys, wrapped = _structure(obj)
        if len(_rec["saves"]) < 200:
            shown = None if path is None else _r.shown(path)
            _rec["saves"].append({"path": shown, "keys": keys, "wraps_ddp": wrapped, "at": _user_line()})
        return _orig_save(obj, _place(f, True), *a, **k)

    torch.save = _save

    _orig_load = torch.load

    def _load(f, *a, **k):
        return _orig_load(_place(f, False), *a, **k)

    torch.load = _load

    def _teardown():
        """Whether the program left its process group up at exit (it ended without
        `destroy_process_group()`)."""
        try:
            import torch.distributed as _dist

            _rec["process_group_left"] = bool(_dist.is_available() and _dist.is_initialized())
        except Exception:  # the recorder never breaks the program
            pass

    atexit.register(_teardown)
