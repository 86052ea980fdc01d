# A CIFAR DenseNet and ResNeXt in an older style: the number of layers per block chosen by
# comparing the block class (`block == BasicBlock`), and the layers run by calling their
# `forward` methods directly. The test is inverted: the bottleneck gets twice the layers.
import torch
import torch.nn as nn


class BasicBlock(nn.Module):
    expansion = 1


class Bottleneck(nn.Module):
    expansion = 4


class Net(nn.Module):
    def __init__(self, depth=10, block=Bottleneck, growth=4):
        super().__init__()
        n = (depth - 4) // 3 if block != BasicBlock else (depth - 4) // 6
        self.conv = nn.Conv2d(3, 2 * growth, 3, padding=1)
        self.block = nn.Sequential(*[nn.Conv2d(2 * growth, 2 * growth, 3, padding=1) for _ in range(n)])
        self.fc = nn.Linear(2 * growth * block.expansion * n, 10)

    def forward(self, x):
        x = self.conv.forward(x)
        x = self.block.forward(x)
        x = x.mean(dim=(2, 3)).repeat(1, 4)
        return self.fc.forward(x)


print(Net()(torch.randn(2, 3, 8, 8)).shape)
