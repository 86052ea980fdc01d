"""Features read through a sampling grid keep their channels and take the grid's size:
the head after the lookup expects twice the channels the encoder gives."""

import torch
import torch.nn as nn
import torch.nn.functional as F

features = torch.randn(2, 16, 8, 8)
grid = torch.rand(2, 4, 4, 2) * 2 - 1
sampled = F.grid_sample(features, grid, mode="bilinear", align_corners=True)
head = nn.Conv2d(32, 8, kernel_size=1)
out = head(sampled)
