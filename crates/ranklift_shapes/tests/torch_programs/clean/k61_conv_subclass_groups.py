# A depthwise convolution built through a `Conv2d` subclass's `super().__init__`: the groups
# (the expanded channels) divide both channel counts.
import torch
import torch.nn as nn


class DepthwiseConv(nn.Conv2d):
    def __init__(self, in_channels, out_channels, kernel_size, groups):
        super().__init__(in_channels, out_channels, kernel_size, padding=kernel_size // 2, groups=groups)


expanded = 16 * 6
conv = DepthwiseConv(expanded, expanded, 3, groups=expanded)
print(conv(torch.randn(2, expanded, 8, 8)).shape)
