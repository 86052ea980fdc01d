# A residual block that changes the channels without projecting the shortcut.
import torch
import torch.nn as nn


class Residual(nn.Module):
    def __init__(self, cin, cout):
        super().__init__()
        self.body = nn.Sequential(
            nn.Conv2d(cin, cout, 3, padding=1),
            nn.BatchNorm2d(cout),
            nn.ReLU(),
            nn.Conv2d(cout, cout, 3, padding=1),
        )

    def forward(self, x):
        return torch.relu(self.body(x) + x)


r = Residual(64, 128)
y = r(torch.randn(2, 64, 16, 16))
