"""A detector checks what it is given before building its head — the backbone must declare
`out_channels`, the anchor generator is optional — and sizes the head from the backbone's
declared channels; the backbone declares 32 channels but its last block makes 64."""

import torch
from torch import nn


class Backbone(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(
            nn.Conv2d(3, 32, 3, stride=2, padding=1), nn.ReLU(),
            nn.Conv2d(32, 64, 3, stride=2, padding=1), nn.ReLU(),
        )
        self.out_channels = 32

    def forward(self, x):
        return self.body(x)


class Anchors:
    def __init__(self, sizes=((16,), (32,)), ratios=((1.0,),)):
        self.sizes = sizes
        self.ratios = ratios * len(sizes)

    def per_location(self):
        return [len(s) * len(r) for s, r in zip(self.sizes, self.ratios)]


class Detector(nn.Module):
    def __init__(self, backbone, num_classes, anchors=None):
        super().__init__()
        if not hasattr(backbone, "out_channels"):
            raise ValueError("the backbone must declare out_channels")
        if not isinstance(anchors, (Anchors, type(None))):
            raise TypeError(f"anchors must be Anchors or None, got {type(anchors)}")
        if anchors is None:
            anchors = Anchors()
        self.backbone = backbone
        self.anchors = anchors
        self.head = nn.Conv2d(backbone.out_channels, anchors.per_location()[0] * num_classes, 1)

    def forward(self, x):
        return self.head(self.backbone(x))


net = Detector(Backbone(), num_classes=4)
print(net(torch.rand(1, 3, 64, 64)).shape)
