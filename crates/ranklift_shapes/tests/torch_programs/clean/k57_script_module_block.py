# A residual block written as a `torch.jit.ScriptModule` with a scripted `forward` (as older
# CIFAR model zoos do): the classifier after two blocks takes the features they give.
import torch
import torch.nn as nn


class Block(torch.jit.ScriptModule):
    def __init__(self, channels):
        super().__init__()
        self.conv = nn.Conv2d(channels, channels, kernel_size=3, padding=1)
        self.bn = nn.BatchNorm2d(channels)

    @torch.jit.script_method
    def forward(self, x):
        return torch.relu(self.bn(self.conv(x))) + x


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.stem = nn.Conv2d(3, 16, kernel_size=3, padding=1)
        self.blocks = nn.Sequential(Block(16), Block(16))
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Linear(16, 10)

    def forward(self, x):
        x = self.pool(self.blocks(self.stem(x)))
        return self.fc(x.flatten(1))


net = Net().eval()
print(net(torch.randn(2, 3, 8, 8)).shape)
