"""Imported by every Python process of the end-to-end check's Horovod runs (through PYTHONPATH).

It changes nothing for a process that horovodrun did not start as a worker. For a worker of rank R:

- `tempfile` puts its files under `$RANKLIFT_E2E_TMP/rank<R>`, so the check can tell which rank
  wrote checkpoints, saved models and logs;
- with `RANKLIFT_E2E_DESYNC=1`, TensorFlow's global seed and Python's `random` seed are offset by the rank, so the ranks start
  from different random weights — as an unseeded program would. Identical final weights then prove
  that the rewritten program broadcasts rank 0's state; the negative controls prove that without the
  broadcast they would differ.
"""
import importlib.abc
import importlib.machinery
import os
import sys

_rank = os.environ.get("HOROVOD_RANK")

if _rank is not None:
    _base = os.environ.get("RANKLIFT_E2E_TMP")
    if _base:
        import tempfile

        _dir = os.path.join(_base, f"rank{_rank}")
        os.makedirs(_dir, exist_ok=True)
        tempfile.tempdir = _dir

    if os.environ.get("RANKLIFT_E2E_DESYNC") == "1" and _rank != "0":
        _offset = 7919 * int(_rank)

        def _patch(tf):
            targets = [(tf.random, "set_seed"), (tf.compat.v2.random, "set_seed"), (tf.compat.v1, "set_random_seed")]
            for module, attr in targets:
                original = getattr(module, attr)

                def set_seed(seed, _original=original):
                    return _original(None if seed is None else seed + _offset)

                setattr(module, attr, set_seed)

        class _PatchTensorFlow(importlib.abc.MetaPathFinder):
            def find_spec(self, fullname, path, target=None):
                if fullname != "tensorflow":
                    return None
                sys.meta_path.remove(self)
                spec = importlib.machinery.PathFinder.find_spec(fullname, path)
                if spec is None or spec.loader is None:
                    return spec
                exec_module = spec.loader.exec_module

                def exec_and_patch(module):
                    exec_module(module)
                    _patch(module)

                spec.loader.exec_module = exec_and_patch
                return spec

        sys.meta_path.insert(0, _PatchTensorFlow())

        # Keras 2.13 draws unseeded initialisers from Python's `random`, which
        # `tf.keras.utils.set_random_seed` seeds: offset it too.
        import random as _random

        _original_seed = _random.seed

        def _seed(a=None, version=2):
            if isinstance(a, int):
                a = a + _offset
            return _original_seed(a, version)

        _random.seed = _seed

        class _OffsetRandom(_random.Random):
            # `set_random_seed` also builds `random.Random(seed)` for Keras's seed generator.
            def __init__(self, x=None):
                super().__init__(x + _offset if isinstance(x, int) else x)

        _random.Random = _OffsetRandom
