# A model builder behind a keyword-only adapter (the way a model zoo keeps old positional calls
# working for `resnet(*, weights=None, **kwargs)`): the call passes no positional argument, so
# the adapter's `args[:k]` and `args[k:]` are empty whatever `k` is, and the keywords reach the
# builder untouched; clean.
import functools
import inspect

import torch
from torch import nn


def kwonly_to_pos_or_kw(fn):
    params = inspect.signature(fn).parameters
    start = next(i for i, p in enumerate(params.values()) if p.kind == p.KEYWORD_ONLY)
    names = tuple(params)[start:]

    @functools.wraps(fn)
    def adapter(*args, **kwargs):
        args, moved = args[:start], args[start:]
        if moved:
            kwargs.update(dict(zip(names, moved)))
        return fn(*args, **kwargs)

    return adapter


class Net(nn.Module):
    def __init__(self, width, num_classes):
        super().__init__()
        self.body = nn.Sequential(nn.Conv2d(3, width, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1))
        self.head = nn.Linear(width, num_classes)

    def forward(self, x):
        return self.head(torch.flatten(self.body(x), 1))


@kwonly_to_pos_or_kw
def small_net(*, weights=None, width=16, num_classes=10):
    return Net(width, num_classes)


net = small_net(weights=None, num_classes=5)
print(net(torch.randn(2, 3, 32, 32)).shape)
