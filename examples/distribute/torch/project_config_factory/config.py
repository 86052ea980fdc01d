"""A configuration that names classes, and the factory that builds them by name."""

SETTINGS = {
    "optimizer": {"type": "SGD", "args": {"lr": 0.05, "momentum": 0.9}},
    "lr_scheduler": {"type": "StepLR", "args": {"step_size": 2, "gamma": 0.5}},
    "epochs": 4,
}


class Config:
    def __init__(self, settings):
        self.settings = settings

    def __getitem__(self, key):
        return self.settings[key]

    def init_obj(self, name, module, *args, **kwargs):
        """`config.init_obj("optimizer", torch.optim, params)` is `torch.optim.SGD(params, ...)`."""
        spec = self.settings[name]
        spec_args = dict(spec["args"])
        spec_args.update(kwargs)
        return getattr(module, spec["type"])(*args, **spec_args)
