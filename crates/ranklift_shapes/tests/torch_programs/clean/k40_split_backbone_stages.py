"""A builder merges its defaults with the caller's options (`{**defaults, **kwargs}`) and the
model splits a backbone of stages into an early and a late part (`backbone[:split]`,
`nn.Sequential(*backbone[split:])`); the classifier is sized for the last stage's channels."""

import torch
from torch import nn


class Extractor(nn.Module):
    def __init__(self, num_classes, in_size=None, channels=None, split=2):
        super().__init__()
        backbone = nn.Sequential(
            *[nn.Sequential(nn.Conv2d(a, b, 3, stride=2, padding=1), nn.ReLU())
              for a, b in zip(channels, channels[1:])]
        )
        self.early = backbone[:split]
        self.late = nn.Sequential(*backbone[split:])
        side = in_size // 2 ** (len(channels) - 1)
        self.fc = nn.Linear(channels[-1] * side * side, num_classes)

    def forward(self, x):
        return self.fc(self.late(self.early(x)).flatten(1))


def build(num_classes, **kwargs):
    defaults = {"in_size": 32, "channels": [3, 8, 16, 32]}
    kwargs = {**defaults, **kwargs}
    return Extractor(num_classes, **kwargs)


net = build(10, in_size=64)
print(net(torch.rand(2, 3, 64, 64)).shape)
