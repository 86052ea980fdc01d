"""A segmentation head picks the backbone's stages by a marker attribute some blocks set
(`getattr(block, "_is_cn", False)`), iterating an `nn.Sequential` and a subclass of one; the
auxiliary head is built for the last stage's channels but given an earlier stage's map."""

import torch
from torch import nn
import torch.nn.functional as F


class Down(nn.Module):
    def __init__(self, cin, cout, stride):
        super().__init__()
        self._is_cn = stride > 1
        self.conv = nn.Conv2d(cin, cout, 3, stride=stride, padding=1)
        self.out_channels = cout

    def forward(self, x):
        return F.relu(self.conv(x))


class Stem(nn.Sequential):
    def __init__(self, cout):
        super().__init__(nn.Conv2d(3, cout, 3, padding=1), nn.ReLU())
        self.out_channels = cout


class Pool(nn.Sequential):
    def __init__(self, c):
        super().__init__(nn.AdaptiveAvgPool2d(1), nn.Conv2d(c, c, 1))

    def forward(self, x):
        size = x.shape[-2:]
        for mod in self:
            x = mod(x)
        return F.interpolate(x, size=size, mode="nearest")


features = nn.Sequential(Stem(8), Down(8, 16, 2), Down(16, 16, 1), Down(16, 32, 2), Down(32, 32, 1))
stages = [0] + [i for i, b in enumerate(features) if getattr(b, "_is_cn", False)] + [len(features) - 1]
out_pos, aux_pos = stages[-1], stages[-3]
head = nn.Sequential(Pool(features[out_pos].out_channels), nn.Conv2d(32, 4, 1))
aux = nn.Conv2d(features[out_pos].out_channels, 4, 1)

x = torch.randn(2, 3, 32, 32)
maps = {}
for i, block in enumerate(features):
    x = block(x)
    if i in (aux_pos, out_pos):
        maps[i] = x
logits = head(maps[out_pos])
aux_logits = aux(maps[aux_pos])
