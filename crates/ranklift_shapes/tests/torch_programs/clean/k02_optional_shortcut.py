# A shortcut that exists only when the block downsamples, tested with hasattr.
import torch
import torch.nn as nn


class PreAct(nn.Module):
    def __init__(self, cin, cout, stride=1):
        super().__init__()
        self.bn = nn.BatchNorm2d(cin)
        self.conv = nn.Conv2d(cin, cout, 3, stride=stride, padding=1)
        if stride != 1 or cin != cout:
            self.shortcut = nn.Conv2d(cin, cout, 1, stride=stride)

    def forward(self, x):
        out = torch.relu(self.bn(x))
        shortcut = self.shortcut(out) if hasattr(self, "shortcut") else x
        return self.conv(out) + shortcut


a = PreAct(8, 8)
b = PreAct(8, 16, 2)
print(b(a(torch.randn(2, 8, 16, 16))).shape)
