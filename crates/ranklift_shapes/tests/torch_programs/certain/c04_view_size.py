# Flattening with a hard-coded size from another input resolution.
import torch
import torch.nn as nn

conv = nn.Sequential(nn.Conv2d(3, 16, 5), nn.MaxPool2d(2))
x = conv(torch.randn(10, 3, 32, 32))
flat = x.view(-1, 16 * 5 * 5)
