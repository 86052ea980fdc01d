"""Imported by every Python process of the end-to-end check's Horovod runs (through PYTHONPATH).

It changes nothing for a process that horovodrun did not start as a worker. For a worker of rank R:

- `tempfile` puts its files under `$RANKLIFT_E2E_TMP/rank<R>`, so the check can tell which rank
  wrote checkpoints, saved models and logs;
- with `RANKLIFT_E2E_DESYNC=1`, TensorFlow's global seed and Python's `random` seed are offset by the rank, so the ranks start
  from different random weights — as an unseeded program would. Identical final weights then prove
  that the rewritten program broadcasts rank 0's state; the negative controls prove that without the
  broadcast they would differ.

Every process of a run (the original too) starts from the same seeds when TensorFlow is imported
(`set_random_seed`, offset on ranks other than 0 as above): an unseeded example then trains the
same in the original and on one rank, as `ranklift verify` makes it; a program that seeds itself
does so later, and its seeds win.
"""
import os
import sys

# `ranklift launch` (TensorFlow's collectives) numbers its workers in RANKLIFT_RANK; the examples
# and the probes name files by HOROVOD_RANK, so a worker of either launcher has one.
if os.environ.get("RANKLIFT_RANK") is not None and os.environ.get("HOROVOD_RANK") is None:
    os.environ["HOROVOD_RANK"] = os.environ["RANKLIFT_RANK"]
_rank = os.environ.get("HOROVOD_RANK")
# Functions run on the `tensorflow` module right after it is imported (one import hook below).
_TF_PATCHES = []

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

        _TF_PATCHES.append(_patch)

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

# ----- Counting the training steps (the end-to-end check must prove the work is split).
#
# With RANKLIFT_E2E_COUNT=DIR, any process (the original too, which horovodrun did not start)
# writes DIR/count<rank>.json at exit: {"steps": N}, the number of optimizer steps it ran.
# - TF2 / Keras: every optimizer (new and legacy Keras classes) counts its own steps in
#   `optimizer.iterations`, in graph code too (`@tf.function`, `fit`); the largest count among
#   the optimizers created is taken (a GAN's two optimizers step together; Horovod's Keras wrapper
#   is a second optimizer object that does the stepping).
# - TF1: a training op is what `Optimizer.apply_gradients` (hence `minimize`) returns; every
#   `Session.run` whose fetches contain one is a step (MonitoredSession and Estimator run through
#   it too). In eager mode (`enable_eager_execution`) each TF1 `apply_gradients` is a step.
# Nothing in the examples is edited for this: the counting lives only here.
if os.environ.get("RANKLIFT_E2E_COUNT"):
    import atexit as _atexit
    import json as _json

    _optimizers = []  # strong references: a local optimizer is gone by exit time
    _train_ops = set()  # ids of training ops (tensors are unhashable under TF2 behaviour)
    _keep = []  # the ops themselves, so that their ids stay theirs

    def _leaves(x, depth=0):
        """Every fetch inside a nested fetch structure (lists, dicts, SessionRunArgs)."""
        if depth > 20:
            return
        if isinstance(x, dict):
            for v in x.values():
                yield from _leaves(v, depth + 1)
        elif isinstance(x, (list, tuple)):
            for v in x:
                yield from _leaves(v, depth + 1)
        else:
            yield x
    _session_steps = [0]

    def _count_patch(tf):
        bases = []
        for _name in ("keras", "tf_keras"):
            try:
                _keras = __import__(_name)
            except Exception:  # noqa: BLE001 - not installed (tf_keras before TF 2.16)
                continue
            for _path in ("Optimizer", "legacy.Optimizer"):
                _cls = _keras.optimizers
                for _part in _path.split("."):
                    _cls = getattr(_cls, _part, None)
                if isinstance(_cls, type) and hasattr(_cls, "apply_gradients") and _cls not in bases:
                    bases.append(_cls)
        for base in bases:
            original_init = base.__init__

            def __init__(self, *args, _original=original_init, **kwargs):
                _original(self, *args, **kwargs)
                if not any(o is self for o in _optimizers):
                    _optimizers.append(self)

            base.__init__ = __init__
        v1 = tf.compat.v1.train.Optimizer
        original_apply = v1.apply_gradients

        def apply_gradients(self, *args, **kwargs):
            op = original_apply(self, *args, **kwargs)
            if not tf.executing_eagerly():
                _train_ops.add(id(op))
                _keep.append(op)
            else:  # TF1 optimizer in eager mode (`enable_eager_execution`): each call is a step
                _session_steps[0] += 1
            return op

        v1.apply_gradients = apply_gradients
        from tensorflow.python.client import session as _session

        original_run = _session.BaseSession.run

        def run(self, fetches, *args, **kwargs):
            if _train_ops and any(id(f) in _train_ops for f in _leaves(fetches)):
                _session_steps[0] += 1
            return original_run(self, fetches, *args, **kwargs)

        _session.BaseSession.run = run

        def report():
            steps = 0
            for opt in list(_optimizers):
                n = None
                try:
                    n = int(opt.iterations.numpy())
                except Exception:  # noqa: BLE001 - a graph-mode variable
                    try:
                        n = int(tf.compat.v1.keras.backend.get_value(opt.iterations))
                    except Exception:  # noqa: BLE001
                        n = None
                if n is not None:
                    steps = max(steps, n)
            steps = max(steps, _session_steps[0])
            rank = os.environ.get("HOROVOD_RANK", "0")
            path = os.path.join(os.environ["RANKLIFT_E2E_COUNT"], f"count{rank}.json")
            with open(path, "w") as f:
                _json.dump({"steps": steps}, f)

        _atexit.register(report)

    _TF_PATCHES.append(_count_patch)

# ----- The full record (weights, losses, the examples each step trained on, writes),
# for programs that write no record of their own: scripts/e2e/tf_probe.py.
if os.environ.get("RANKLIFT_E2E_PROBE"):
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import tf_probe as _tf_probe

    sys.path.pop(0)
    _TF_PATCHES.append(_tf_probe.patch)


if os.environ.get("RANKLIFT_E2E_COUNT"):

    def _seed_patch(tf):
        try:
            tf.keras.utils.set_random_seed(1234)
        except Exception:  # noqa: BLE001 - a Keras without it: left unseeded
            pass

    _TF_PATCHES.append(_seed_patch)

if _TF_PATCHES:
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import tf_hook as _tf_hook

    sys.path.pop(0)
    for _patch_fn in _TF_PATCHES:
        _tf_hook.on_tensorflow(_patch_fn)
