"""The recorder `ranklift distribute --verify` puts into the user's TensorFlow processes.

`ranklift` writes this file as `sitecustomize.py` into a directory of its own (with
`ranklift_verify_record.py`, what every recorder shares, and `ranklift_synthetic_data.py`, whose
post-import hook runs the patches below once TensorFlow and Keras are imported) and puts that
directory first on PYTHONPATH, so Python imports it in the original run and in every worker that
`ranklift launch` or `horovodrun` starts. Nothing in the user's program is edited.

What one process records, besides the shared record (the fields `ranklift_distribute::verify`
reads, as the PyTorch recorder writes them):

- `steps`: for every optimizer step — Keras 3's `Optimizer.apply`, Keras 2's and tf_keras'
  `apply_gradients` (Horovod's and `ranklift_tf`'s distributed optimizers step through them) —
  the time, the learning rate and a digest (blake2b) of every variable the optimizer updated, as
  they are just before that optimizer's next step (or at exit) — so a broadcast of rank 0's
  weights after the first batch (Horovod's callback and tape pattern) is part of step 1. Inside
  a `tf.function` (Keras `fit`, a compiled train step) `py_function`s around the update record
  when the graph runs;
- `losses`: every floating scalar a `GradientTape` differentiates (`fit` differentiates through
  one too);
- `examples`: for every step, one 63-bit hash per example of its batch (all of the example's
  tensors: inputs and labels): in Keras `train_step`, or the batch last drawn from an eager
  `tf.data` iterator before the step; `example_passes`: the pass over the data each step's
  batch came from (a `fit` epoch, or an iterator). Two ranks that train on disjoint shards
  have disjoint sets in each pass; `pass_batches`: the batches a finite `tf.data` pass holds
  (its cardinality), by pass — a rank whose pass holds as many as the original's reads it whole;
- `saves`: every `Model.save`/`save_weights` (ModelCheckpoint's too) with the path and each
  weight's name and shape; their paths, `load_model`/`load_weights`, checkpoints, summary
  writers and `tf.io.gfile` writes go through the shared redirect, and count as writes.

The step budget (RANKLIFT_VERIFY_STEPS, 0: none): in `fit`, an added callback stops training at
the end of the batch that reaches it (`stop_training`: the epoch's end runs — validation,
ModelCheckpoint — and the program goes on after `fit`); in a loop over an eager `tf.data`
iterator, the loop's next pass over the training data is empty where a `for` loop draws it
(RANKLIFT_VERIFY_DRAIN=1: the epochs left take no steps and the program goes on to its end —
the images rank 0 wrote read back, the model saved), else the process ends there, and each
pass is cut after RANKLIFT_VERIFY_PASS batches (not that of an endless, repeated dataset); a
loop that draws no such pass (`for step in range(n)`) ends at its next call of a tf.function that trains (or its next eager step) past
the budget — evaluation, prediction and saving after a stopped `fit` run on; a
TF1 graph, at its next `Session.run` of a training op past it. TF1 graphs: a training op built
by a `tf.compat.v1.train` optimizer is a step each time a `Session.run` (MonitoredSession's,
Estimator's) fetches it — its batch is the rows of the arrays fed to that run, its loss the
first floating scalar fetched with it. Not seen: a TF1 Keras `fit` (Keras' own session calls), a
training op run only through another op that depends on it, a step compiled with XLA
(`jit_compile=True`: a `py_function` cannot run there).

Example: a Keras 3 `model.fit(x, y, epochs=3)` distributed with `ranklift_tf` records, on each
rank, 8 steps whose digests must match the other rank's bit for bit.
"""

import atexit
import hashlib
import os
import sys

import ranklift_synthetic_data as _hooks
import ranklift_verify_record as _r

if _r.active:
    _rec = _r.rec
    _state = {"over": False, "pending": [], "trained": set(), "last": None, "saving": 0,
              "calling": [], "training_functions": set(),
              "last_of": {}, "variables": {}, "fitting": 0, "sources": [],
              "passes": 0, "pass": 0}
    # RANKLIFT_VERIFY_DESYNC=1 (the 2-process run): ranks other than 0 draw Python's `random`
    # from other seeds — what Keras' unseeded initialisers draw from (Keras 2 from `random`
    # itself, Keras 3 from the `random.Random(seed)` of `set_random_seed`) — so weights that
    # are equal only because every rank seeded alike differ unless the rewrite broadcasts rank
    # 0's: a missing broadcast shows in `replicas` instead of waiting for the first unseeded
    # run. TensorFlow's and NumPy's seeds stay: every rank must shuffle a seeded pipeline alike
    # to take its own shard of one order.
    _offset = 7919 * int(_r.rank) if os.environ.get("RANKLIFT_VERIFY_DESYNC") == "1" and _r.rank.isdigit() else 0
    if _offset:
        import random as _random

        _original_seed = _random.seed

        def _seed(a=None, version=2):
            return _original_seed(a + _offset if isinstance(a, int) else a, version)

        _random.seed = _seed

        class _OffsetRandom(_random.Random):
            # Keras' `set_random_seed` also builds `random.Random(seed)` for its seed generator.
            def __init__(self, x=None):
                super().__init__(x + _offset if isinstance(x, int) else x)

        _random.Random = _OffsetRandom

    _row_hashes = _r.row_hashes
    _SEED = 1234

    def _digests(values):
        return [hashlib.blake2b(v.tobytes(), digest_size=8).hexdigest() for v in values]

    def _open_step(key, lr, names, values):
        """An optimizer step was taken: its time, learning rate, the batch it trained on (the
        last drawn from an eager iterator, when Keras' train_step did not say) and the digests
        of the variables it updated — for now: `_settle_step` replaces them when this optimizer
        steps again, or at exit."""
        _rec["steps"].append({"t": _r.now(), "lr": [] if lr is None else [float(lr)], "params": _digests(values)})
        _state["last_of"][key] = len(_rec["steps"]) - 1
        for i, name in enumerate(names):
            _rec["names"].setdefault(str(i), name)
        if len(_rec["examples"]) < min(len(_rec["steps"]), 10000):
            _rec["examples"].append(list(_state["pending"]))
            _rec["example_passes"].append(_state["pass"])
        _state["pending"] = []
        if _state["last"] is not None:
            _state["trained"].add(_state["last"])
        n = len(_rec["steps"])
        _r.heartbeat(n)
        if _r.budget and n >= _r.budget:
            _state["over"] = True

    def _settle_step(key, values):
        """The variables of optimizer `key` as they are now — after its last step and whatever
        ran since, such as a broadcast of rank 0's weights after the first batch (Horovod's
        callback and tape pattern) — are that step's digests."""
        i = _state["last_of"].get(key)
        if i is not None:
            _rec["steps"][i]["params"] = _digests(values)

    def _patch(tf):
        import keras

        # An unseeded program (the Keras guides draw `np.random.random` data and unseeded
        # initial weights) draws anew in every run, and the original and the rewrite on 1
        # process would be compared across two draws. The original and the 1-process run start
        # from the same seeds instead; a program that seeds itself does so later, and its seeds
        # win. In the 2-process run the ranks other than 0 draw Python's `random` from other
        # seeds (the offset above applies to the seed given here), as unseeded ranks would: a
        # missing broadcast still shows in `replicas`; TensorFlow's global seed, and NumPy's,
        # stay the same on every rank (a pipeline shuffled with an op seed, `shuffle_seed=0`,
        # takes its order from both, and its shards are disjoint only if every rank has it).
        try:
            keras.utils.set_random_seed(_SEED)
        except Exception:  # noqa: BLE001 - an old Keras without it: left unseeded
            pass

        kerases = [keras]
        try:
            import tf_keras

            kerases.append(tf_keras)
        except ImportError:
            pass

        def name_of(v):
            return str(getattr(v, "path", None) or getattr(v, "name", "variable"))

        def read(variables):
            return [tf.convert_to_tensor(v).numpy() for v in variables]

        def around_step(opt, variables, apply):
            """Run `apply` (the optimizer's update of `variables`): settle this optimizer's
            previous step with the variables' values before it, record this one after it.
            Inside a tf.function, `py_function`s do the same when the graph runs, in program
            order (automatic control dependencies: they read the variables the update writes)."""
            variables = [v for v in variables if v is not None]
            names = [f"{name_of(v)} {tuple(v.shape)}" for v in variables]
            key = id(opt)
            _state["variables"][key] = variables
            try:
                lr = tf.cast(tf.convert_to_tensor(opt.learning_rate), tf.float64)
            except Exception:  # a schedule object, a legacy optimizer: no rate recorded
                lr = None
            if tf.executing_eagerly():
                if _state["over"] and not _state["fitting"] and not _state["trained"]:
                    _r.stop(f"the step budget ({_r.budget} steps)")
                _settle_step(key, read(variables))
                out = apply()
                _open_step(key, None if lr is None else lr.numpy(), names, read(variables))
                return out
            # Traced inside a tf.function: every function being called now trains.
            _state["training_functions"].update(_state["calling"])
            tensors = lambda: [tf.convert_to_tensor(v) for v in variables]  # noqa: E731
            try:
                tf.py_function(lambda *t: _settle_step(key, [x.numpy() for x in t]) or [], tensors(), [])
            except Exception:  # the recorder never breaks the program
                pass
            out = apply()
            try:
                if lr is None:
                    tf.py_function(lambda *t: _open_step(key, None, names, [x.numpy() for x in t]) or [],
                                   tensors(), [])
                else:
                    tf.py_function(lambda r, *t: _open_step(key, r.numpy(), names, [x.numpy() for x in t]) or [],
                                   [lr] + tensors(), [])
            except Exception:  # the recorder never breaks the program
                pass
            return out

        def settle_at_exit():
            for key, variables in _state["variables"].items():
                try:
                    _settle_step(key, read(variables))
                except Exception:  # TensorFlow torn down: the step keeps its first digests
                    pass

        atexit.register(settle_at_exit)

        def wrap_apply_gradients(cls):
            original = cls.apply_gradients

            def apply_gradients(self, grads_and_vars, *a, **k):
                pairs = list(grads_and_vars)
                return around_step(self, [v for _, v in pairs], lambda: original(self, pairs, *a, **k))

            cls.apply_gradients = apply_gradients

        def wrap_apply_keras3(cls):
            original = cls.apply

            def apply(self, grads, trainable_variables=None, *a, **k):
                variables = trainable_variables if trainable_variables is not None else self._trainable_variables
                return around_step(self, list(variables),
                                   lambda: original(self, grads, trainable_variables, *a, **k))

            cls.apply = apply

        classes = set()
        for module in kerases:
            for cls in (getattr(module.optimizers, "Optimizer", None),
                        getattr(getattr(module.optimizers, "legacy", None), "Optimizer", None)):
                # Keras 3's `optimizers.legacy.Optimizer` only raises: it has no apply.
                if isinstance(cls, type) and hasattr(cls, "apply_gradients"):
                    classes.add(cls)
        for cls in classes:
            if cls.__module__.startswith("keras.src") and hasattr(cls, "apply"):
                wrap_apply_keras3(cls)
            else:
                wrap_apply_gradients(cls)

        # ----- losses: what a tape differentiates
        def record_loss(value):
            if len(_rec["losses"]) < 100000:
                _rec["losses"].append(float(value))
            return []

        original_gradient = tf.GradientTape.gradient

        def gradient(self, target, sources, *a, **k):
            if isinstance(target, tf.Tensor) and target.dtype.is_floating:
                try:
                    mean = tf.reduce_mean(target)
                    if tf.executing_eagerly():
                        record_loss(mean.numpy())
                    else:
                        tf.py_function(lambda t: record_loss(t.numpy()), [mean], [])
                except Exception:  # the recorder never breaks the program
                    pass
            return original_gradient(self, target, sources, *a, **k)

        tf.GradientTape.gradient = gradient

        # ----- examples: Keras train_step, eager iterators
        def record_batch(*tensors):
            _state["pending"] = _row_hashes([t.numpy() for t in tensors])
            return []

        def wrap_train_step(model_cls):
            original_train_step = model_cls.train_step

            def train_step(self, data):
                leaves = [t for t in tf.nest.flatten(data) if isinstance(t, tf.Tensor)]
                if leaves:
                    try:
                        tf.py_function(record_batch, leaves, [])
                    except Exception:  # the recorder never breaks the program
                        pass
                return original_train_step(self, data)

            model_cls.train_step = train_step

        for module in kerases:
            wrap_train_step(module.Model)

        from tensorflow.python.data.ops import iterator_ops

        original_init = iterator_ops.OwnedIterator.__init__

        def source_of(dataset, depth=0):
            """The dataset a pipeline starts from (`from_tensor_slices(...)`): the same object every
            epoch even where the loop shards, batches or maps it anew (`for b in ds.shard(...)`)."""
            while depth < 100:
                inner = getattr(dataset, "_input_dataset", None)
                if inner is None:
                    inner = (getattr(dataset, "_datasets", None) or [None])[0]
                if inner is None:
                    return dataset
                dataset, depth = inner, depth + 1
            return dataset

        def __init__(self, dataset=None, *a, **k):
            source = source_of(dataset) if dataset is not None else None
            key = id(source) if source is not None else None
            if source is not None and len(_state["sources"]) < 1000:
                _state["sources"].append(source)  # alive, so that its id stays its own
            drained = None
            if _state["over"] and key is not None and key in _state["trained"] and tf.executing_eagerly():
                drained = f"the step budget ({_r.budget} steps), at the next pass over the training data"
                if not _r.drain_pass(drained):
                    _r.stop(drained)
            original_init(self, dataset, *a, **k)
            self._ranklift_dataset = key
            self._ranklift_drained = drained
            if drained:  # an emptied pass: not a pass over the data
                return
            self._ranklift_batches = 0
            # An infinite dataset (`repeat()`) has no passes to cut: a program draws from it with
            # `next(iterator)` as long as it trains, and a cut would raise StopIteration there.
            try:
                cardinality = int(dataset.cardinality())
            except Exception:  # a dataset without cardinality: cut as any other
                cardinality = -2
            self._ranklift_endless = cardinality == -1
            _state["passes"] += 1
            self._ranklift_pass = _state["passes"]
            if cardinality >= 0 and len(_rec["pass_batches"]) < 1000:
                _rec["pass_batches"][str(_state["passes"])] = cardinality

        iterator_ops.OwnedIterator.__init__ = __init__

        original_next = iterator_ops.OwnedIterator.__next__

        def __next__(self):
            drained = getattr(self, "_ranklift_drained", None)
            if drained:
                _r.end_empty_pass(drained, sys._getframe(1))
            key = getattr(self, "_ranklift_dataset", None)
            if tf.executing_eagerly() and key in _state["trained"]:
                if _r.cut and self._ranklift_batches >= _r.cut and not getattr(self, "_ranklift_endless", False):
                    raise StopIteration
                if _r.budget and len(_rec["steps"]) >= 4 * _r.budget:
                    _r.stop(f"four times the step budget ({_r.budget} steps) within one pass over the data")
            element = original_next(self)
            if tf.executing_eagerly():
                self._ranklift_batches = getattr(self, "_ranklift_batches", 0) + 1
                _state["last"] = key
                _state["pass"] = getattr(self, "_ranklift_pass", 0)
                leaves = [t for t in tf.nest.flatten(element) if isinstance(t, tf.Tensor)]
                try:
                    _state["pending"] = _row_hashes([t.numpy() for t in leaves])
                except Exception:  # the recorder never breaks the program
                    _state["pending"] = []
            return element

        iterator_ops.OwnedIterator.__next__ = __next__

        # ----- the step budget of a loop that draws no tf.data pass (`for step in range(n)` over
        # a compiled train step): the process ends at the next call of a tf.function once the
        # budget is reached — outside `fit`, which stops at its own batch's end (below).
        function_classes = []
        for path in ("tensorflow.python.eager.polymorphic_function.polymorphic_function",
                     "tensorflow.python.eager.def_function"):
            try:
                module = __import__(path, fromlist=["Function"])
                if isinstance(getattr(module, "Function", None), type):
                    function_classes.append(module.Function)
            except ImportError:
                pass
        for function_cls in set(function_classes):
            original_call = function_cls.__call__

            def __call__(self, *a, _original=original_call, **k):
                # Only a function that trains (an optimizer step was traced in it) ends the
                # run: evaluation, prediction or a save after a stopped `fit` go on running.
                if (_state["over"] and not _state["fitting"] and not _state["trained"]
                        and id(self) in _state["training_functions"] and tf.executing_eagerly()):
                    _r.stop(f"the step budget ({_r.budget} steps)")
                _state["calling"].append(id(self))
                try:
                    return _original(self, *a, **k)
                finally:
                    _state["calling"].pop()

            function_cls.__call__ = __call__

        # ----- the step budget in fit: a callback that stops training
        for module in kerases:
            callback_base = module.callbacks.Callback

            class Budget(callback_base):
                def on_epoch_begin(self, epoch, logs=None):
                    _state["passes"] += 1
                    _state["pass"] = _state["passes"]

                def on_train_batch_end(self, batch, logs=None):
                    if _state["over"]:
                        if _rec["stopped"] is None:
                            _rec["stopped"] = f"the step budget ({_r.budget} steps), at the end of fit's epoch"
                        self.model.stop_training = True

            def wrap_fit(model_cls, budget_cls):
                original_fit = model_cls.fit

                def fit(self, *a, **k):
                    if _r.budget:
                        a = list(a)
                        if len(a) >= 6:
                            a[5] = list(a[5] or []) + [budget_cls()]
                        else:
                            k["callbacks"] = list(k.get("callbacks") or []) + [budget_cls()]
                    _state["fitting"] += 1
                    try:
                        return original_fit(self, *a, **k)
                    finally:
                        _state["fitting"] -= 1

                model_cls.fit = fit

            wrap_fit(module.Model, Budget)

        # ----- TF1 graphs run by a Session: the op a `tf.compat.v1.train` optimizer's
        # apply_gradients (or minimize) built is one training step each time Session.run
        # fetches it (MonitoredSession and Estimator run through the same Session.run)
        try:
            from tensorflow.python.client import session as session_lib
            from tensorflow.python.training import optimizer as v1_optimizer
        except ImportError:
            session_lib = None
        if session_lib is not None:
            _patch_sessions(tf, session_lib, v1_optimizer.Optimizer, name_of, record_loss)

        # ----- saves, loads and other writes through TensorFlow's own file layer
        def weights_of(model):
            out = {}
            for v in getattr(model, "weights", [])[:10000]:
                out[name_of(v)] = [int(d) if d is not None else -1 for d in v.shape]
            return out

        def wrap_save(owner, attr, via):
            original = getattr(owner, attr, None)
            if original is None:
                return

            def save(self, filepath, *a, **k):
                if _state["saving"]:
                    return original(self, filepath, *a, **k)
                _state["saving"] += 1
                try:
                    if isinstance(filepath, (str, bytes)) or hasattr(filepath, "__fspath__"):
                        if len(_rec["saves"]) < 200:
                            _rec["saves"].append({"path": _r.shown(filepath), "keys": weights_of(self),
                                                  "wraps_ddp": False, "at": _r.user_line(), "via": via})
                        filepath = _r.place(filepath, True)
                    return original(self, filepath, *a, **k)
                finally:
                    _state["saving"] -= 1

            setattr(owner, attr, save)

        def wrap_path(owner, attr, writing, index=0):
            original = getattr(owner, attr, None)
            if original is None:
                return

            def call(*a, **k):
                a = list(a)
                if len(a) > index and isinstance(a[index], (str, bytes)):
                    if writing:
                        _r.note_write(a[index])
                    a[index] = _r.place(a[index], writing)
                return original(*a, **k)

            setattr(owner, attr, call)

        for module in kerases:
            wrap_save(module.Model, "save", "Model.save")
            wrap_save(module.Model, "save_weights", "Model.save_weights")
            wrap_path(module.Model, "load_weights", False, 1)
            for holder in (module.models, getattr(module, "saving", None)):
                if holder is not None:
                    wrap_path(holder, "load_model", False)
        wrap_path(tf.summary, "create_file_writer", True)
        wrap_path(tf.train.Checkpoint, "save", True, 1)
        wrap_path(tf.train.Checkpoint, "write", True, 1)

        original_gfile = tf.io.gfile.GFile.__init__

        def gfile_init(self, name, mode="r"):
            writing = any(c in str(mode) for c in "wa")
            if writing:
                _r.note_write(name)
            original_gfile(self, _r.place(name, writing), mode)

        tf.io.gfile.GFile.__init__ = gfile_init

    def _patch_sessions(tf, session_lib, optimizer_cls, name_of, record_loss):
        """Record the steps of a TF1 graph: a training op is remembered when an optimizer
        builds it; a Session.run that fetches one settles that optimizer's previous step with
        the variables as they are before it, runs, and records the step — the rate, the rows of
        every fed array as its batch, the first floating scalar it fetched as the loss, and the
        variables' digests after it. The step budget ends the process at the next run of a
        training op past it."""
        import numpy as np

        train_ops = {}  # id(op) -> (optimizer key, variables, their names, rate, op)

        def leaves(x, depth=0, out=None):
            """The fetches of a structure as Session.run walks it (lists, tuples, dicts by their
            own order: MonitoredSession keys a dict by hook objects, which `tf.nest` would sort)."""
            out = [] if out is None else out
            if len(out) > 10000 or depth > 20:
                return out
            if isinstance(x, dict):
                for v in x.values():
                    leaves(v, depth + 1, out)
            elif isinstance(x, (list, tuple)):
                for v in x:
                    leaves(v, depth + 1, out)
            else:
                out.append(x)
            return out
        original_apply = optimizer_cls.apply_gradients

        def apply_gradients(self, grads_and_vars, global_step=None, name=None):
            pairs = list(grads_and_vars)
            op = original_apply(self, pairs, global_step, name)
            if not tf.executing_eagerly() and len(train_ops) < 1000:
                variables = [v for g, v in pairs if g is not None and v is not None]
                names = [f"{name_of(v)} {tuple(v.shape)}" for v in variables]
                train_ops[id(op)] = (id(self), variables, names, getattr(self, "_learning_rate", None), op)
            return op

        optimizer_cls.apply_gradients = apply_gradients
        original_run = session_lib.BaseSession.run
        inside = [0]

        def run(self, fetches, feed_dict=None, options=None, run_metadata=None):
            plain = lambda: original_run(self, fetches, feed_dict, options, run_metadata)  # noqa: E731
            if inside[0] or not train_ops:
                return plain()
            hits = [train_ops[id(x)] for x in leaves(fetches) if id(x) in train_ops]
            if not hits:
                return plain()
            inside[0] += 1
            try:
                if _state["over"]:
                    _r.stop(f"the step budget ({_r.budget} steps)")
                try:
                    for key, variables, _, _, _ in hits:
                        _settle_step(key, original_run(self, variables))
                    if feed_dict:
                        _state["pending"] = _row_hashes(list(feed_dict.values()))
                except Exception:  # the recorder never breaks the program
                    pass
                out = plain()
                try:
                    values = leaves(out)
                    losses = [float(v) for v in values if np.ndim(v) == 0
                              and np.issubdtype(np.asarray(v).dtype, np.floating)]
                    if losses:
                        record_loss(losses[0])
                    for key, variables, names, rate, _ in hits:
                        if isinstance(rate, (tf.Tensor, tf.Variable)):
                            rate = original_run(self, rate)
                        lr = float(rate) if isinstance(rate, (int, float, np.floating)) else None
                        _open_step(key, lr, names, original_run(self, variables))
                except Exception:  # the recorder never breaks the program
                    pass
                return out
            finally:
                inside[0] -= 1

        session_lib.BaseSession.run = run

    _hooks.on_tensorflow(_patch)
