# Stages built from a drop-path schedule (`torch.linspace(...).tolist()` sliced per stage) and
# grown with `+=`: the first block of each stage halves the grid, and the head is sized for a
# grid halved once too few.
import torch
from torch import nn


class Net(nn.Module):
    def __init__(self, depths, widths, drop_path):
        super().__init__()
        schedule = torch.linspace(0, drop_path, sum(depths)).tolist()
        self.blocks = nn.ModuleList()
        cin, start = 3, 0
        for depth, width in zip(depths, widths):
            for i, p in enumerate(schedule[start : start + depth]):
                stride = 2 if i == 0 else 1
                self.blocks += [nn.Conv2d(cin, width, 3, stride=stride, padding=1)]
                cin = width
            start += depth
        self.head = nn.Linear(widths[-1] * 8 * 8, 10)

    def forward(self, x):
        for block in self.blocks:
            x = torch.relu(block(x))
        return self.head(x.flatten(1))


net = Net([2, 1, 1], [8, 16, 32], 0.1)
print(net(torch.randn(2, 3, 32, 32)).shape)
