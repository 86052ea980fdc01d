"""A detector reuses a VGG-style backbone: it finds the max-pools among the backbone's layers
(`isinstance(layer, nn.MaxPool2d)`), patches the second to round up (`ceil_mode = True`) so
that a 75 x 75 map pools to 38 x 38, and cuts the backbone there; the head is sized for the
38 x 38 map."""

import torch
from torch import nn

backbone = nn.Sequential(
    nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
    nn.Conv2d(8, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
    nn.Conv2d(16, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
)
_, second, third = (i for i, layer in enumerate(backbone) if isinstance(layer, nn.MaxPool2d))
backbone[second].ceil_mode = True
features = nn.Sequential(*backbone[:third])
head = nn.Linear(16 * 38 * 38, 4)
x = features(torch.rand(2, 3, 150, 150))
print(head(x.flatten(1)).shape)
