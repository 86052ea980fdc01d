# Five 2x2 poolings of a 16x16 image: the last one has nothing left to pool.
import torch
import torch.nn as nn

layers = []
channels = 3
for width in [16, 32, 64, 128, 256]:
    layers += [nn.Conv2d(channels, width, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2)]
    channels = width
encoder = nn.Sequential(*layers)
z = encoder(torch.randn(2, 3, 16, 16))
