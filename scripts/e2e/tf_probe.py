"""What a TensorFlow process did, recorded from hooks on TensorFlow itself: loaded by
`sitecustomize.py` when `RANKLIFT_E2E_PROBE=DIR` is set, so that programs nobody here wrote (the
real-program sweep) and our own examples are checked the same way, without editing them.

At exit the process of rank R (HOROVOD_RANK; 0 for a single process) writes `DIR/probe<R>.npz`
and `DIR/probe<R>.json`:

- **weights** (npz): the final value of every variable an optimizer stepped, in the order the
  optimizer first saw them (Keras optimizers, legacy and new, and TF1 `train.Optimizer`; Horovod's
  wrappers step through them). TF1 graph variables are read from the session when it closes.
- **losses**: every scalar a `GradientTape` differentiates (Keras `fit` differentiates through
  one too); inside a `tf.function` through a `py_function`. TF1 graph losses are not seen.
- **batches**: for each optimizer step, one 63-bit hash per training example of its batch:
  in Keras a `py_function` in `train_step`; in eager loops the batch last drawn from a
  `tf.data` iterator before the step; in TF1 the arrays fed to a `Session.run` that runs a
  training op. A row's hash covers all of its tensors (inputs and labels), so a dict of CSV
  columns is one example, not many. Two ranks that train on disjoint shards have disjoint sets.
- **writes**: every path this process opened for writing (`open`, h5py, `tf.io.gfile`, summary
  writers, checkpoints, `Model.save`/`save_weights`, SavedModel), but for caches, the record
  itself and /dev, /proc.
"""
import atexit
import builtins
import hashlib
import json
import os

import numpy as np

OUT = os.environ["RANKLIFT_E2E_PROBE"]
RANK = os.environ.get("HOROVOD_RANK", "0")
_rec = {"losses": [], "loss_keys": [], "batches": [], "writes": [], "steps_seen": 0}
_vars = []  # strong references, first-seen order
_var_ids = set()
_graph_values = {}  # id(var) -> value read when its session closed
_pending = []  # hashes of the batch last drawn from an eager tf.data iterator
_SKIP = tuple(os.path.realpath(p) for p in (OUT, os.path.expanduser("~/.cache"), "/dev", "/proc"))


def _note_write(path):
    try:
        p = os.path.realpath(os.fsdecode(path))
    except (TypeError, ValueError):
        return
    if not p.startswith(_SKIP) and "__pycache__" not in p and "__autograph_generated" not in p:
        _rec["writes"].append(p)


_orig_open = builtins.open
# Files opened for update ("r+"), with their state then: Keras 2 opens a `.keras` file "r+b" to
# load it, and writes nothing. Counted as written only if they changed by the end.
_updates = []


def _note_open(path, mode):
    mode = str(mode)
    if any(c in mode for c in "wax"):
        _note_write(path)
    elif "+" in mode:
        try:
            st = os.stat(path)
            _updates.append((path, st.st_mtime_ns, st.st_size))
        except (OSError, TypeError, ValueError):
            _note_write(path)


def _changed_updates():
    for path, mtime, size in _updates:
        try:
            st = os.stat(path)
        except OSError:
            continue
        if (st.st_mtime_ns, st.st_size) != (mtime, size):
            _note_write(path)


def _open(file, mode="r", *a, **k):
    if isinstance(file, (str, bytes, os.PathLike)):
        _note_open(file, mode)
    return _orig_open(file, mode, *a, **k)


builtins.open = _open


def _row_hashes(arrays):
    """One hash per example over every array whose first dimension is the batch."""
    arrays = [np.asarray(a) for a in arrays]
    arrays = [a for a in arrays if a.ndim >= 1 and a.dtype != object]
    if not arrays:
        return []
    n = arrays[0].shape[0]
    arrays = [a for a in arrays if a.shape[0] == n]
    out = []
    for i in range(n):
        h = hashlib.blake2b(digest_size=8)
        for a in arrays:
            h.update(np.ascontiguousarray(a[i]).tobytes())
        out.append(int.from_bytes(h.digest(), "little") >> 1)
    return out


def _commit():
    """An optimizer step: the batch last drawn from an eager iterator was trained on."""
    _rec["steps_seen"] += 1
    if _pending:
        _rec["batches"].append(list(_pending))
        _pending.clear()


def _track(var_list):
    for v in var_list:
        if v is not None and id(v) not in _var_ids:
            _var_ids.add(id(v))
            _vars.append(v)


def patch(tf):
    import keras

    # Under TF_USE_LEGACY_KERAS=1 (TensorFlow >= 2.16), `tf.keras` is tf_keras: hook it too.
    kerases = [keras]
    if os.environ.get("TF_USE_LEGACY_KERAS", "").lower() in ("1", "true", "yes"):
        try:
            import tf_keras

            kerases.append(tf_keras)
        except ImportError:
            pass

    # ----- variables an optimizer steps, and the step itself
    def wrap_apply(cls):
        original = cls.apply_gradients

        def apply_gradients(self, grads_and_vars, *a, **k):
            pairs = list(grads_and_vars)
            _track([v for _, v in pairs])
            if tf.executing_eagerly():
                _commit()
            else:  # a traced step (tf.function, fit): commit when the graph runs
                try:
                    tf.py_function(lambda: _commit() or [], [], [])
                except Exception:  # noqa: BLE001
                    pass
            return original(self, pairs, *a, **k)

        cls.apply_gradients = apply_gradients

    def wrap_apply_keras3(cls):
        # Keras 3 steps through `apply(grads, variables)`; `apply_gradients` calls it.
        original = cls.apply

        def apply(self, grads, trainable_variables=None, *a, **k):
            variables = trainable_variables if trainable_variables is not None else self._trainable_variables
            _track(list(variables))
            if tf.executing_eagerly():
                _commit()
            else:
                try:
                    tf.py_function(lambda: _commit() or [], [], [])
                except Exception:  # noqa: BLE001
                    pass
            return original(self, grads, trainable_variables, *a, **k)

        cls.apply = apply

    classes = {tf.compat.v1.train.Optimizer}
    for module in kerases:
        for cls in (getattr(module.optimizers, "Optimizer", None),
                    getattr(getattr(module.optimizers, "legacy", None), "Optimizer", None)):
            # Keras 3's `optimizers.legacy.Optimizer` is a class that only raises: no apply.
            if isinstance(cls, type) and hasattr(cls, "apply_gradients"):
                classes.add(cls)
    for cls in classes:
        if cls.__module__.startswith("keras.src") and hasattr(cls, "apply"):
            wrap_apply_keras3(cls)
        else:
            wrap_apply(cls)

    # ----- losses: what a tape differentiates
    def record_loss(value, key):
        _rec["losses"].append(float(np.mean(np.asarray(value))))
        _rec["loss_keys"].append(key)

    def sources_key(sources):
        """What a loss trains, as the shapes of the variables differentiated: a guide runs several
        models one after the other, and each one's loss is judged on its own."""
        try:
            return "|".join(str(tuple(v.shape)) for v in tf.nest.flatten(sources))
        except Exception:  # noqa: BLE001 - sources of an unusual kind: one group
            return ""

    original_gradient = tf.GradientTape.gradient

    def gradient(self, target, sources, *a, **k):
        if isinstance(target, tf.Tensor) and target.dtype.is_floating:
            try:
                key = sources_key(sources)
                if tf.executing_eagerly():
                    record_loss(target.numpy(), key)
                else:
                    tf.py_function(lambda t: record_loss(t.numpy(), key) or [], [tf.reduce_mean(target)], [])
            except Exception:  # noqa: BLE001 - a probe never breaks the program (XLA, TPU...)
                pass
        return original_gradient(self, target, sources, *a, **k)

    tf.GradientTape.gradient = gradient

    # ----- samples: Keras train_step, eager iterators, TF1 feeds
    def record_batch(*tensors):
        # Keras names the step's batch itself: one drawn earlier from an eager iterator (a
        # preview, `next(iter(ds))`) was not trained on, and must not be counted as a step's.
        _pending.clear()
        _rec["batches"].append(_row_hashes([t.numpy() for t in tensors]))
        return []

    def wrap_train_step(model_cls):
        original_train_step = model_cls.train_step

        def train_step(self, data):
            leaves = [t for t in tf.nest.flatten(data) if isinstance(t, tf.Tensor)]
            if leaves:
                try:
                    tf.py_function(record_batch, leaves, [])
                except Exception:  # noqa: BLE001
                    pass
            return original_train_step(self, data)

        model_cls.train_step = train_step

    for module in kerases:
        wrap_train_step(module.Model)

    from tensorflow.python.data.ops import iterator_ops

    original_next = iterator_ops.OwnedIterator.__next__

    def __next__(self):
        element = original_next(self)
        if tf.executing_eagerly():
            leaves = [t for t in tf.nest.flatten(element) if isinstance(t, tf.Tensor)]
            try:
                _pending[:] = _row_hashes([t.numpy() for t in leaves])
            except Exception:  # noqa: BLE001
                _pending.clear()
        return element

    iterator_ops.OwnedIterator.__next__ = __next__

    from tensorflow.python.client import session as session_lib

    train_ops = set()
    keep = []
    v1_apply = tf.compat.v1.train.Optimizer.apply_gradients

    def v1_apply_gradients(self, grads_and_vars, *a, **k):
        op = v1_apply(self, grads_and_vars, *a, **k)
        if not tf.executing_eagerly():
            train_ops.add(id(op))
            keep.append(op)
        return op

    tf.compat.v1.train.Optimizer.apply_gradients = v1_apply_gradients

    def leaves_of(x, depth=0):
        if depth > 20:
            return
        if isinstance(x, dict):
            for v in x.values():
                yield from leaves_of(v, depth + 1)
        elif isinstance(x, (list, tuple)):
            for v in x:
                yield from leaves_of(v, depth + 1)
        else:
            yield x

    original_run = session_lib.BaseSession.run

    def run(self, fetches, feed_dict=None, *a, **k):
        if train_ops and any(id(f) in train_ops for f in leaves_of(fetches)):
            _rec["steps_seen"] += 1
            if feed_dict:
                arrays = [np.asarray(v) for v in feed_dict.values()
                          if isinstance(v, (np.ndarray, list)) and np.asarray(v).ndim >= 1]
                _rec["batches"].append(_row_hashes(arrays))
        return original_run(self, fetches, feed_dict, *a, **k)

    session_lib.BaseSession.run = run

    original_close = session_lib.BaseSession.close

    def close(self):
        graph_vars = [v for v in _vars if getattr(v, "graph", None) is self.graph]
        if graph_vars and not getattr(self, "_closed", False):
            try:
                values = original_run(self, graph_vars)
                for v, value in zip(graph_vars, values):
                    _graph_values[id(v)] = value
            except Exception:  # noqa: BLE001
                pass
        return original_close(self)

    session_lib.BaseSession.close = close

    # ----- writes outside `open`
    def note_path(owner, name, index, keyword, opener=False):
        """Record argument `index` (or `keyword`) of owner.name as a path written."""
        original = getattr(owner, name, None)
        if original is None:
            return

        def wrapper(*a, **k):
            target = a[index] if len(a) > index else k.get(keyword)
            if isinstance(target, (str, bytes, os.PathLike)):
                if opener:
                    _note_open(target, a[index + 1] if len(a) > index + 1 else k.get("mode", "r"))
                else:
                    _note_write(target)
            return original(*a, **k)

        setattr(owner, name, wrapper)

    for module in kerases:
        note_path(module.Model, "save", 1, "filepath")
        note_path(module.Model, "save_weights", 1, "filepath")
    note_path(tf.train.Checkpoint, "save", 1, "file_prefix")
    note_path(tf.train.Checkpoint, "write", 1, "file_prefix")
    note_path(tf.compat.v1.train.Saver, "save", 2, "save_path")
    note_path(tf.io.gfile.GFile, "__init__", 1, "name", opener=True)
    try:
        import h5py

        note_path(h5py.File, "__init__", 1, "name", opener=True)
    except ImportError:
        pass
    for owner, name in ((tf.summary, "create_file_writer"), (tf.saved_model, "save")):
        original = getattr(owner, name)

        def wrapper(*a, _original=original, _name=name, **k):
            target = (a[1] if len(a) > 1 else k.get("export_dir")) if _name == "save" else (a[0] if a else k.get("logdir"))
            if isinstance(target, (str, bytes, os.PathLike)):
                _note_write(target)
            return _original(*a, **k)

        setattr(owner, name, wrapper)
    writer = tf.compat.v1.summary.FileWriter
    original_writer_init = writer.__init__

    def writer_init(self, logdir, *a, **k):
        _note_write(logdir)
        return original_writer_init(self, logdir, *a, **k)

    writer.__init__ = writer_init

    def dump():
        arrays = {}
        for i, v in enumerate(_vars):
            value = _graph_values.get(id(v))
            if value is None:
                try:
                    value = v.numpy()
                except Exception:  # noqa: BLE001 - a graph variable whose session never closed
                    try:
                        value = keras.backend.get_value(v)
                    except Exception:  # noqa: BLE001
                        value = None
            if value is not None:
                arrays[f"w{i:05}"] = np.asarray(value)
        _changed_updates()
        np.savez(os.path.join(OUT, f"probe{RANK}.npz"), **arrays)
        with _orig_open(os.path.join(OUT, f"probe{RANK}.json"), "w") as f:
            json.dump(_rec, f)

    atexit.register(dump)
