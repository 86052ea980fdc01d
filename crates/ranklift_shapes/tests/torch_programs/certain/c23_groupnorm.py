# GroupNorm after a convolution whose output channels changed.
import torch
import torch.nn as nn

block = nn.Sequential(nn.Conv2d(3, 48, 3, padding=1), nn.GroupNorm(8, 64), nn.SiLU())
y = block(torch.randn(2, 3, 16, 16))
