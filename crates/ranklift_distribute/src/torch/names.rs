//! Everything the PyTorch target knows about PyTorch and its ecosystem, as data: which qualified
//! names are optimizers, schedulers, data loaders, samplers, distributed APIs and the frameworks
//! that already distribute a program. The rules and checks ask these functions; nothing else in
//! `crate::torch` spells a PyTorch name.

/// `torch.optim.SGD`, `torch.optim.AdamW`, ... (not `torch.optim.Optimizer`, the base class, and
/// not the schedulers or SWA helpers).
pub fn is_optimizer(q: &str) -> bool {
    let Some(rest) = q.strip_prefix("torch.optim.") else {
        return false;
    };
    // `{getattr}`: a class of `torch.optim` chosen by name (`getattr(torch.optim, name)(...)`).
    rest == "{getattr}"
        || (!rest.contains('.')
            && rest != "Optimizer"
            && rest.starts_with(|c: char| c.is_ascii_uppercase()))
}

/// `torch.optim.lr_scheduler.X`.
pub fn is_scheduler(q: &str) -> bool {
    q.starts_with("torch.optim.lr_scheduler.")
}

/// Scheduler keyword arguments that count optimizer steps (they must shrink with the number of
/// processes when they are hard-coded): `OneCycleLR(total_steps=...)`, `LinearLR(total_iters=...)`,
/// `CosineAnnealingLR(T_max=...)` stepped per batch, ...
pub const SCHEDULER_STEP_KWARGS: &[&str] = &[
    "total_steps",
    "total_iters",
    "T_max",
    "T_0",
    "step_size_up",
    "step_size_down",
];

pub fn is_data_loader(q: &str) -> bool {
    matches!(
        q,
        "torch.utils.data.DataLoader" | "torch.utils.data.dataloader.DataLoader"
    )
}

/// `torch.utils.data.RandomSampler` (it samples with replacement when told to).
pub fn is_random_sampler(q: &str) -> bool {
    matches!(
        q,
        "torch.utils.data.RandomSampler" | "torch.utils.data.sampler.RandomSampler"
    )
}

/// `torch.utils.data.WeightedRandomSampler` (draws with replacement unless told not to).
pub fn is_weighted_sampler(q: &str) -> bool {
    matches!(
        q,
        "torch.utils.data.WeightedRandomSampler" | "torch.utils.data.sampler.WeightedRandomSampler"
    )
}

/// `torch.utils.data.SubsetRandomSampler` (a shuffle of the index list it is given).
pub fn is_subset_sampler(q: &str) -> bool {
    matches!(
        q,
        "torch.utils.data.SubsetRandomSampler" | "torch.utils.data.sampler.SubsetRandomSampler"
    )
}

/// Base classes of datasets that cannot take a sampler.
pub fn is_iterable_dataset_base(q: &str) -> bool {
    matches!(
        q,
        "torch.utils.data.IterableDataset"
            | "torch.utils.data.dataset.IterableDataset"
            | "torch.utils.data.IterDataPipe"
            | "torch.utils.data.datapipes.datapipe.IterDataPipe"
    )
}

pub fn is_data_parallel(q: &str) -> bool {
    matches!(
        q,
        "torch.nn.DataParallel"
            | "torch.nn.parallel.DataParallel"
            | "torch.nn.parallel.data_parallel.DataParallel"
    )
}

pub fn is_ddp(q: &str) -> bool {
    matches!(
        q,
        "torch.nn.parallel.DistributedDataParallel"
            | "torch.nn.parallel.distributed.DistributedDataParallel"
            | "torch.nn.parallel.DistributedDataParallel.DistributedDataParallel"
    )
}

pub fn is_distributed_sampler(q: &str) -> bool {
    matches!(
        q,
        "torch.utils.data.distributed.DistributedSampler" | "torch.utils.data.DistributedSampler"
    )
}

/// `torch.distributed` collectives and barriers: they must run on every rank.
pub fn is_collective(q: &str) -> bool {
    let Some(rest) = q.strip_prefix("torch.distributed.") else {
        return false;
    };
    matches!(
        rest,
        "barrier"
            | "all_reduce"
            | "all_gather"
            | "all_gather_object"
            | "all_gather_into_tensor"
            | "reduce"
            | "reduce_scatter"
            | "reduce_scatter_tensor"
            | "broadcast"
            | "broadcast_object_list"
            | "gather"
            | "gather_object"
            | "scatter"
            | "scatter_object_list"
            | "all_to_all"
            | "monitored_barrier"
    )
}

/// Calls that show a program is already distributed, with the launcher to use instead.
pub fn already_distributed(q: &str) -> Option<(&'static str, &'static str)> {
    if q == "torch.distributed.init_process_group" || is_ddp(q) {
        return Some((
            "torch.distributed",
            "torchrun --standalone --nproc-per-node gpu SCRIPT",
        ));
    }
    if q == "torch.multiprocessing.Process" || q.ends_with(".share_memory") {
        return Some((
            "torch.multiprocessing (Hogwild: processes sharing one model)",
            "python SCRIPT (it starts its own processes)",
        ));
    }
    if q.starts_with("accelerate.Accelerator") {
        return Some(("HuggingFace Accelerate", "accelerate launch SCRIPT"));
    }
    if q == "transformers.Trainer"
        || q == "transformers.trainer.Trainer"
        || q == "transformers.Seq2SeqTrainer"
    {
        return Some((
            "the HuggingFace Trainer",
            "torchrun --standalone --nproc-per-node gpu SCRIPT (the Trainer reads torchrun's environment)",
        ));
    }
    if matches!(
        q,
        "lightning.Trainer"
            | "pytorch_lightning.Trainer"
            | "lightning.pytorch.Trainer"
            | "lightning.Fabric"
            | "lightning.fabric.Fabric"
    ) {
        return Some((
            "Lightning",
            "its own launcher (Trainer(devices=N, strategy=\"ddp\"), or torchrun)",
        ));
    }
    None
}

/// `nn.Module` methods that a `DistributedDataParallel` wrapper answers for its module: reading
/// them through the wrapper is right. Everything else (the model's own attributes and methods,
/// `state_dict` and `load_state_dict`, whose keys the wrapper prefixes with `module.`) goes through
/// `.module`.
pub fn ddp_answers(attr: &str) -> bool {
    matches!(
        attr,
        "module"
            | "parameters"
            | "named_parameters"
            | "buffers"
            | "named_buffers"
            | "children"
            | "named_children"
            | "modules"
            | "named_modules"
            | "train"
            | "eval"
            | "training"
            | "zero_grad"
            | "to"
            | "cuda"
            | "cpu"
            | "float"
            | "double"
            | "half"
            | "bfloat16"
            | "requires_grad_"
            | "forward"
            | "no_sync"
            | "register_forward_hook"
            | "register_forward_pre_hook"
            | "register_full_backward_hook"
            | "apply"
    )
}

/// Module-level loggers: `logging.info(...)`, every call of MLflow's fluent API (`mlflow.*`:
/// runs, params, metrics, artifacts, models), and what `logging.getLogger` returns. (wandb is
/// not among them: every rank calls it, on a disabled run but rank 0's, rule `wandb_ranks`.)
pub fn is_logging_call(q: &str) -> bool {
    q.starts_with("mlflow.")
        || matches!(
            q,
            "logging.info"
                | "logging.warning"
                | "logging.debug"
                | "logging.error"
                | "logging.critical"
                | "logging.log"
                | "logging.exception"
        )
}

pub const LOGGER_METHODS: &[&str] = &[
    "info",
    "warning",
    "warn",
    "debug",
    "error",
    "critical",
    "log",
    "exception",
];

pub fn is_tqdm(q: &str) -> bool {
    matches!(
        q,
        "tqdm.tqdm" | "tqdm.auto.tqdm" | "tqdm.notebook.tqdm" | "tqdm.trange" | "tqdm.auto.trange"
    )
}

/// `torch.utils.tensorboard.SummaryWriter` and friends: writers whose files only rank 0 writes.
pub fn is_summary_writer(q: &str) -> bool {
    matches!(
        q,
        "torch.utils.tensorboard.SummaryWriter"
            | "torch.utils.tensorboard.writer.SummaryWriter"
            | "tensorboardX.SummaryWriter"
    )
}
