# A block whose BatchNorm normalises the input's channels, not the convolution's.
import torch
import torch.nn as nn
import torch.nn.functional as F


class ConvBlock(nn.Module):
    def __init__(self, cin, cout):
        super().__init__()
        self.conv = nn.Conv2d(cin, cout, 3, padding=1, bias=False)
        self.bn = nn.BatchNorm2d(cin)

    def forward(self, x):
        return F.relu(self.bn(self.conv(x)))


block = ConvBlock(16, 32)
y = block(torch.randn(2, 16, 8, 8))
