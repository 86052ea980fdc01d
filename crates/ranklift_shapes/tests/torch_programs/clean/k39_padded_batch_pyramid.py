"""Images of one size are padded into a batch (`new_full`, with an exporter's path chosen by
`torch._C._get_tracing_state()`), a feature pyramid is built top-down (`results.insert(0, ...)`)
and returned as an `OrderedDict`; the classifier on the finest level is sized for its 32 x 32
positions."""

import math
from collections import OrderedDict

import torch
from torch import nn
import torch.nn.functional as F


def batch_images(images, size_divisible=32):
    if torch._C._get_tracing_state():
        return torch.stack(images)
    max_size = list(images[0].shape)
    for img in images[1:]:
        max_size = [max(a, b) for a, b in zip(max_size, img.shape)]
    max_size[1] = int(math.ceil(max_size[1] / size_divisible) * size_divisible)
    max_size[2] = int(math.ceil(max_size[2] / size_divisible) * size_divisible)
    batched = images[0].new_full([len(images)] + max_size, 0)
    for i, img in enumerate(images):
        batched[i, : img.shape[0], : img.shape[1], : img.shape[2]].copy_(img)
    return batched


class Pyramid(nn.Module):
    def __init__(self, in_channels, out_channels):
        super().__init__()
        self.inner = nn.ModuleList(nn.Conv2d(c, out_channels, 1) for c in in_channels)
        self.layer = nn.ModuleList(nn.Conv2d(out_channels, out_channels, 3, padding=1) for _ in in_channels)

    def forward(self, feats):
        names = list(feats.keys())
        xs = list(feats.values())
        last = self.inner[-1](xs[-1])
        results = [self.layer[-1](last)]
        for idx in range(len(xs) - 2, -1, -1):
            lateral = self.inner[idx](xs[idx])
            last = lateral + F.interpolate(last, size=lateral.shape[-2:], mode="nearest")
            results.insert(0, self.layer[idx](last))
        return OrderedDict([(k, v) for k, v in zip(names, results)])


class Backbone(nn.Module):
    def __init__(self):
        super().__init__()
        self.c1 = nn.Conv2d(3, 8, 3, stride=2, padding=1)
        self.c2 = nn.Conv2d(8, 16, 3, stride=2, padding=1)
        self.c3 = nn.Conv2d(16, 32, 3, stride=2, padding=1)

    def forward(self, x):
        a = self.c1(x)
        b = self.c2(a)
        return OrderedDict([("p3", a), ("p4", b), ("p5", self.c3(b))])


backbone, fpn = Backbone(), Pyramid([8, 16, 32], 8)
images = batch_images([torch.rand(3, 60, 60), torch.rand(3, 64, 50)])
features = fpn(backbone(images))
if isinstance(features, torch.Tensor):
    features = OrderedDict([("0", features)])
finest = list(features.values())[0]
classifier = nn.Linear(8 * 32 * 32, 10)
print(classifier(finest.flatten(1)).shape)
