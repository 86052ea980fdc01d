# Residual stages built in a loop whose channels change from one block to the next.
import torch
import torch.nn as nn
import torch.nn.functional as F


class Block(nn.Module):
    def __init__(self, cin, cout, stride):
        super().__init__()
        self.conv1 = nn.Conv2d(cin, cout, 3, stride=stride, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(cout)
        self.conv2 = nn.Conv2d(cout, cout, 3, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(cout)
        self.shortcut = nn.Sequential()
        if stride != 1 or cin != cout:
            self.shortcut = nn.Sequential(nn.Conv2d(cin, cout, 1, stride=stride, bias=False), nn.BatchNorm2d(cout))

    def forward(self, x):
        out = F.relu(self.bn1(self.conv1(x)))
        out = self.bn2(self.conv2(out))
        return F.relu(out + self.shortcut(x))


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.cin = 16
        self.stem = nn.Conv2d(3, 16, 3, padding=1)
        self.stage1 = self._stage(16, 2, 1)
        self.stage2 = self._stage(32, 2, 2)
        self.stage3 = self._stage(64, 2, 2)
        self.fc = nn.Linear(64, 10)

    def _stage(self, cout, n, stride):
        blocks = []
        for s in [stride] + [1] * (n - 1):
            blocks.append(Block(self.cin, cout, s))
            self.cin = cout
        return nn.Sequential(*blocks)

    def forward(self, x):
        x = self.stage3(self.stage2(self.stage1(self.stem(x))))
        x = F.avg_pool2d(x, 8)
        return self.fc(x.view(x.size(0), -1))


print(Net()(torch.randn(2, 3, 32, 32)).shape)
