"""Horovod's TensorFlow API over TensorFlow's own collectives (TensorFlow >= 2.16, Keras 3).

`ranklift distribute --target-tf 2.16` (or newer) writes programs that do
``import ranklift_tf as hvd`` and use the part of Horovod's API that ranklift's rules emit:
``init``, ``size``, ``rank``, ``local_rank``, ``DistributedGradientTape``,
``DistributedOptimizer``, ``broadcast_variables``, ``broadcast_object``, ``allreduce`` and the
Keras callbacks. Horovod itself cannot serve TensorFlow >= 2.16: its last release (0.28.1, 2023)
does not build against TensorFlow 2.21 and fails on Keras 3 (horovod#4290). This module runs the
same programs on ``tf.distribute.MultiWorkerMirroredStrategy``'s collectives, through public
TensorFlow APIs only (``Strategy.run`` and ``ReplicaContext.all_reduce``); the model, the
optimizer and the data pipeline stay the program's own, outside any strategy scope (Keras 3's
``fit`` under a multi-worker strategy scope fails: keras-team/keras#20585).

The cluster comes from the environment, as for ``MultiWorkerMirroredStrategy``:

- ``TF_CONFIG`` (set by ``ranklift launch``, Kubeflow's TFJob, or by hand): one process per
  worker; the rank is the task's position in the cluster (a ``chief`` first);
- under SLURM without ``TF_CONFIG`` (``srun python train.py``): ``SlurmClusterResolver``;
- neither: one process, rank 0 of 1 (every collective is the identity).

Stdlib and TensorFlow only; ranklift writes this file next to the program it distributes.
"""

import os
import pickle
import sys

import tensorflow as tf

__all__ = [
    "init",
    "size",
    "rank",
    "local_rank",
    "local_size",
    "is_initialized",
    "allreduce",
    "broadcast_variables",
    "broadcast_object",
    "DistributedGradientTape",
    "DistributedOptimizer",
    "callbacks",
    "Average",
    "Sum",
]

Average = tf.distribute.ReduceOp.MEAN
Sum = tf.distribute.ReduceOp.SUM

_state = {"strategy": None, "rank": 0, "size": 1, "local_rank": 0, "local_size": 1}


def _cluster(n_gpus):
    """(resolver, rank, size) from TF_CONFIG, SLURM, or nothing (one process)."""
    resolver = None
    if os.environ.get("TF_CONFIG"):
        resolver = tf.distribute.cluster_resolver.TFConfigClusterResolver()
    elif os.environ.get("SLURM_PROCID") is not None and _env_int("SLURM_STEP_NUM_TASKS", "SLURM_NTASKS", default=1) > 1:
        # The GPUs are counted by TensorFlow (the resolver would run nvidia-smi, which a CPU
        # node does not have) and pinned by init() itself. With none, the resolver cannot hand
        # out zero GPUs per task (a range with step 0): it is given one "slot" per task, which
        # only sets CUDA_VISIBLE_DEVICES, read by nothing once TensorFlow has started.
        if n_gpus:
            resolver = tf.distribute.cluster_resolver.SlurmClusterResolver(gpus_per_node=n_gpus)
        else:
            per_node = max(_slurm_tasks_per_node(), 1)
            resolver = tf.distribute.cluster_resolver.SlurmClusterResolver(gpus_per_node=per_node, gpus_per_task=1)
    if resolver is None:
        return None, 0, 1
    spec = resolver.cluster_spec().as_dict()
    order = [(job, i) for job in ("chief", "worker") for i in range(_job_size(spec.get(job)))]
    if not order:
        return resolver, 0, 1
    me = (resolver.task_type, int(resolver.task_id))
    if me not in order:
        raise RuntimeError(f"ranklift_tf: this process is {me[0]}:{me[1]}, which is not a chief or worker of the cluster {spec}")
    return resolver, order.index(me), len(order)


def _slurm_tasks_per_node():
    """The most tasks on one node, from SLURM_STEP_TASKS_PER_NODE (`2(x3),1`: 2 on three
    nodes, 1 on the next) or SLURM_TASKS_PER_NODE."""
    spec = os.environ.get("SLURM_STEP_TASKS_PER_NODE") or os.environ.get("SLURM_TASKS_PER_NODE") or "1"
    counts = [part.split("(")[0] for part in spec.split(",")]
    return max((int(c) for c in counts if c.strip().isdigit()), default=1)


def _job_size(job):
    if job is None:
        return 0
    return len(job) if isinstance(job, (list, dict)) else 1


def _env_int(*names, default=0):
    for name in names:
        value = os.environ.get(name)
        if value is not None and value.strip().isdigit():
            return int(value)
    return default


def init():
    """Join the cluster: pin this process's GPU (by local rank) and create the collectives.

    Call it first, before the program runs any TensorFlow operation: TensorFlow configures
    collective operations once, when its runtime starts.
    """
    if _state["strategy"] is not None:
        return
    local = _env_int("RANKLIFT_LOCAL_RANK", "SLURM_LOCALID", "OMPI_COMM_WORLD_LOCAL_RANK")
    local_n = _env_int("RANKLIFT_LOCAL_SIZE", "SLURM_NTASKS_PER_NODE", "OMPI_COMM_WORLD_LOCAL_SIZE", default=1)
    gpus = tf.config.list_physical_devices("GPU")
    try:
        for gpu in gpus:
            tf.config.experimental.set_memory_growth(gpu, True)
        if gpus:
            tf.config.set_visible_devices(gpus[local % len(gpus)], "GPU")
    except RuntimeError as e:
        raise RuntimeError(
            "ranklift_tf.init() must run before any TensorFlow operation (it pins the GPU and starts "
            f"the collectives): {e}"
        ) from None
    resolver, rank_, size_ = _cluster(len(gpus))
    # A worker that is alive but never reaches a collective (stuck in its own code) blocks the
    # others: with RANKLIFT_COLLECTIVE_TIMEOUT set, every collective gives up after that many
    # seconds with an error that says so (`_reduce`). Not by default: TensorFlow holds one
    # thread per collective for the whole timeout, so a timeout of minutes keeps thousands of
    # threads per worker alive at hundreds of steps a second, until thread creation fails
    # ("Resource temporarily unavailable", the worker aborts: a 30-epoch loop of 700-step
    # `fit`s did at epoch 12 with 1800 s).
    options = tf.distribute.experimental.CommunicationOptions(timeout_seconds=_collective_timeout())
    try:
        strategy = tf.distribute.MultiWorkerMirroredStrategy(
            cluster_resolver=resolver, communication_options=options
        )
    except (RuntimeError, ValueError) as e:
        raise RuntimeError(
            "ranklift_tf.init() could not start TensorFlow's collectives (call it before any other "
            f"TensorFlow operation, and check TF_CONFIG): {e}"
        ) from None
    _state.update(strategy=strategy, rank=rank_, size=size_, local_rank=local, local_size=max(local_n, 1))


def _collective_timeout():
    """RANKLIFT_COLLECTIVE_TIMEOUT in seconds, or None (no timeout: unset, 0, or not a number)."""
    value = os.environ.get("RANKLIFT_COLLECTIVE_TIMEOUT", "").strip()
    try:
        seconds = float(value) if value else 0.0
    except ValueError:
        seconds = 0.0
    return seconds if seconds > 0 else None


def is_initialized():
    return _state["strategy"] is not None


def _strategy():
    if _state["strategy"] is None:
        raise ValueError("ranklift_tf has not been initialized; call hvd.init() first")
    return _state["strategy"]


def size():
    """The number of processes (workers) in the cluster."""
    _strategy()
    return _state["size"]


def rank():
    """This process's rank: 0 for the chief (or the first worker), up to size() - 1."""
    _strategy()
    return _state["rank"]


def local_rank():
    """This process's rank among the processes on its host (picks its GPU)."""
    _strategy()
    return _state["local_rank"]


def local_size():
    _strategy()
    return _state["local_size"]


def _dense(t):
    if isinstance(t, tf.IndexedSlices):
        return tf.convert_to_tensor(t)
    return t


def _reduce(values, op):
    """All-reduce a list of tensors (None entries pass through) across the workers."""
    strategy = _strategy()
    positions = [i for i, v in enumerate(values) if v is not None]
    if not positions:
        return list(values)
    tensors = [_dense(tf.convert_to_tensor(values[i])) for i in positions]
    if _state["size"] == 1:
        reduced = tensors
    else:

        # One collective per dtype: the all-reduce packs its tensors into one buffer.
        reduced = list(tensors)
        groups = {}
        for j, t in enumerate(tensors):
            groups.setdefault(t.dtype, []).append(j)
        for dtype in sorted(groups, key=lambda d: d.name):
            members = groups[dtype]
            try:
                per_replica = _run_reduce(strategy, op)([tensors[j] for j in members])
            except (tf.errors.DeadlineExceededError, tf.errors.UnavailableError) as e:
                others = [r for r in range(size()) if r != rank()]
                who = f"worker {others[0]}" if len(others) == 1 else f"one of workers {others}"
                raise RuntimeError(
                    f"ranklift_tf: worker {rank()} of {size()}: a collective did not complete within "
                    f"{_collective_timeout():g} s: {who} never reached it (stuck, or much slower) or "
                    "is gone; set RANKLIFT_COLLECTIVE_TIMEOUT (seconds) to wait longer. "
                    f"TensorFlow said: {str(e).splitlines()[0] if str(e) else type(e).__name__}"
                ) from None
            for j, r in zip(members, per_replica):
                reduced[j] = strategy.experimental_local_results(r)[0]
    out = list(values)
    for i, r in zip(positions, reduced):
        out[i] = r
    return out


_reduce_fns = {}


def _run_reduce(strategy, op):
    """A `tf.function` that all-reduces a list of tensors with `op` (eager `Strategy.run` is slow
    and warns at every call; inside the program's own `tf.function` it is traced inline)."""
    fn = _reduce_fns.get(op)
    if fn is None:

        device = strategy.extended.worker_devices[0]

        def replica_fn(*ts):
            # Placed on this worker's device: in a traced function a tensor has no device yet,
            # and the all-reduce takes its destination from it ("destinations can not be empty").
            with tf.device(device):
                ts = [tf.identity(t) for t in ts]
            return tf.distribute.get_replica_context().all_reduce(op, ts)

        def run(ts):
            return strategy.run(replica_fn, args=tuple(ts))

        fn = _reduce_fns[op] = tf.function(run, reduce_retracing=True)
    return fn


def allreduce(tensor, average=None, op=None, name=None):
    """The mean (default) or sum of `tensor` over all workers."""
    if op is None:
        op = Sum if average is False else Average
    return _reduce([tensor], op)[0]


def _from_root(values, root_rank):
    """Each value as `root_rank` holds it: a sum to which only the root contributes."""
    mine = rank() == root_rank
    out = []
    casts = []
    for v in values:
        t = tf.convert_to_tensor(v)
        cast = t.dtype if t.dtype == tf.bool else None
        if cast is not None:
            t = tf.cast(t, tf.int32)
        casts.append(cast)
        out.append(t if mine else tf.zeros_like(t))
    summed = _reduce(out, Sum)
    return [tf.cast(s, c) if c is not None else s for s, c in zip(summed, casts)]


def broadcast_variables(variables, root_rank=0):
    """Give every worker `root_rank`'s values of `variables` (model or optimizer state)."""
    variables = list(variables)
    if _strategy() is not None and _state["size"] == 1:
        return
    for var, value in zip(variables, _from_root([_read(v) for v in variables], root_rank)):
        var.assign(value)


def _read(var):
    value = getattr(var, "value", None)
    if value is not None and not callable(value):
        return value
    return tf.convert_to_tensor(var)


def broadcast_object(obj, root_rank=0, name=None):
    """`obj` as the root holds it, on every worker (pickled). Every worker waits for the root:
    ranklift's rewrites use `broadcast_object(None)` as a barrier after a rank-0-only write."""
    if _strategy() is not None and _state["size"] == 1:
        return obj
    mine = rank() == root_rank
    data = pickle.dumps(obj) if mine else b""
    (n,) = _from_root([tf.constant(len(data), tf.int64)], root_rank)
    n = int(n.numpy())
    # The bytes travel as 32-bit words (a sum to which only the root contributes is exact in
    # any integer type, and int32 is one the collectives reduce): cost linear in the size, with
    # no Python object per byte.
    words = (n + 3) // 4
    if mine:
        buf = tf.io.decode_raw(tf.constant(data + b"\0" * (4 * words - n)), tf.int32)
    else:
        buf = tf.zeros([words], tf.int32)
    (got,) = _from_root([tf.reshape(buf, [words])], root_rank)
    return obj if mine else pickle.loads(got.numpy().tobytes()[:n])


class DistributedGradientTape:
    """A `tf.GradientTape` whose `gradient` averages the gradients over all workers."""

    def __init__(self, gradtape, op=Average, **_ignored):
        self._tape = gradtape
        self._op = op

    def gradient(self, target, sources, output_gradients=None, **kwargs):
        grads = self._tape.gradient(target, sources, output_gradients, **kwargs)
        flat = tf.nest.flatten(grads, expand_composites=False)
        return tf.nest.pack_sequence_as(grads, _reduce(flat, self._op))

    def __enter__(self):
        self._tape.__enter__()
        return self

    def __exit__(self, *exc):
        return self._tape.__exit__(*exc)

    def __getattr__(self, name):
        return getattr(self._tape, name)


def _average_grads(grads):
    return _reduce(list(grads), Average)


def DistributedOptimizer(optimizer, name=None, op=Average, **_ignored):
    """`optimizer`, averaging gradients over all workers before it applies them.

    Keras 3 optimizers apply through `apply(grads, variables)` (which `apply_gradients` calls);
    tf_keras ones through `apply_gradients(grads_and_vars)`. The object keeps its class name,
    configuration and state (its class becomes a subclass that reduces first).
    """
    cls = type(optimizer)
    if getattr(cls, "_ranklift_distributed", False):
        return optimizer
    keras3 = cls.__module__.startswith("keras.") and hasattr(cls, "apply") and not cls.__module__.startswith("keras._tf_keras")
    body = {"_ranklift_distributed": True, "__module__": cls.__module__}
    if keras3:

        def apply(self, grads, trainable_variables=None):
            return super(sub, self).apply(_average_grads(grads), trainable_variables)

        body["apply"] = apply
    else:

        def apply_gradients(self, grads_and_vars, *args, **kwargs):
            pairs = list(grads_and_vars)
            grads = _average_grads([g for g, _ in pairs])
            return super(sub, self).apply_gradients(list(zip(grads, [v for _, v in pairs])), *args, **kwargs)

        body["apply_gradients"] = apply_gradients
    sub = type(cls.__name__, (cls,), body)
    optimizer.__class__ = sub
    return optimizer


def _keras():
    """The Keras the program trains with: tf_keras under TF_USE_LEGACY_KERAS=1 (or when only it
    is imported), else Keras 3."""
    legacy = os.environ.get("TF_USE_LEGACY_KERAS", "").lower() in ("1", "true", "yes")
    if legacy or ("tf_keras" in sys.modules and "keras" not in sys.modules):
        import tf_keras

        return tf_keras
    import keras

    return keras


def _optimizer_variables(optimizer):
    variables = getattr(optimizer, "variables", [])
    return list(variables() if callable(variables) else variables)


def _set_lr(optimizer, value):
    lr = optimizer.learning_rate
    if hasattr(lr, "assign"):
        lr.assign(value)
    else:
        optimizer.learning_rate = value


def _get_lr(optimizer):
    lr = optimizer.learning_rate
    return float(lr.numpy() if hasattr(lr, "numpy") else lr)


def _callbacks():
    base = _keras().callbacks.Callback

    class BroadcastGlobalVariablesCallback(base):
        """Broadcast the model's and the optimizer's variables from `root_rank` after the first
        batch (the optimizer's state exists only once it has stepped)."""

        def __init__(self, root_rank=0, device=""):
            super().__init__()
            self.root_rank = root_rank
            self.broadcast_done = False

        def on_train_batch_end(self, batch, logs=None):
            if self.broadcast_done:
                return
            broadcast_variables(self.model.variables, root_rank=self.root_rank)
            if getattr(self.model, "optimizer", None) is not None:
                broadcast_variables(_optimizer_variables(self.model.optimizer), root_rank=self.root_rank)
            self.broadcast_done = True

    class MetricAverageCallback(base):
        """At the end of each epoch, replace every metric in the logs by its mean over the workers."""

        def on_epoch_end(self, epoch, logs=None):
            if not logs:
                return
            keys = sorted(k for k, v in logs.items() if _is_number(v))
            values = _reduce([tf.constant(float(logs[k]), tf.float64) for k in keys], Average)
            for k, v in zip(keys, values):
                logs[k] = float(v.numpy())

    class LearningRateWarmupCallback(base):
        """Horovod's warmup: the (already scaled) rate starts at its value / size() and reaches it
        linearly over `warmup_epochs`, batch by batch. `initial_lr` defaults to the optimizer's
        rate when training starts."""

        def __init__(self, initial_lr=None, warmup_epochs=5, momentum_correction=True, steps_per_epoch=None, verbose=0):
            super().__init__()
            self.initial_lr = initial_lr
            self.warmup_epochs = warmup_epochs
            self.steps_per_epoch = steps_per_epoch
            self.verbose = verbose
            self.current_epoch = 0

        def on_train_begin(self, logs=None):
            if self.initial_lr is None:
                self.initial_lr = _get_lr(self.model.optimizer)
            if self.steps_per_epoch is None:
                self.steps_per_epoch = (self.params or {}).get("steps")

        def on_epoch_begin(self, epoch, logs=None):
            self.current_epoch = epoch

        def on_train_batch_begin(self, batch, logs=None):
            if self.current_epoch >= self.warmup_epochs:
                return
            frac = batch / self.steps_per_epoch if self.steps_per_epoch else 0.0
            epoch = self.current_epoch + frac
            n = size()
            _set_lr(self.model.optimizer, self.initial_lr / n * (epoch * (n - 1) / self.warmup_epochs + 1))

        def on_epoch_end(self, epoch, logs=None):
            if epoch + 1 == self.warmup_epochs:
                _set_lr(self.model.optimizer, self.initial_lr)
                if self.verbose and rank() == 0:
                    print(f"\nEpoch {epoch + 1}: finished gradual learning rate warmup to {self.initial_lr:g}.")

    return {
        "BroadcastGlobalVariablesCallback": BroadcastGlobalVariablesCallback,
        "MetricAverageCallback": MetricAverageCallback,
        "LearningRateWarmupCallback": LearningRateWarmupCallback,
    }


def _is_number(v):
    try:
        float(v)
    except (TypeError, ValueError):
        return False
    return True


class _Callbacks:
    """`hvd.callbacks.X`: the classes are made on first use, on the Keras the program imported."""

    _made = {}

    def __getattr__(self, name):
        keras = _keras()
        classes = self._made.get(keras.__name__)
        if classes is None:
            classes = self._made[keras.__name__] = _callbacks()
        if name not in classes:
            raise AttributeError(f"ranklift_tf.callbacks has no {name!r}")
        return classes[name]


callbacks = _Callbacks()
