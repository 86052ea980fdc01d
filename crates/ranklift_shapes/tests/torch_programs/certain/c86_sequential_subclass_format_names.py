# Dense blocks as `nn.Sequential` subclasses: their layers added with `add_module` under names
# made by `str.format` (plain fields in one, a format spec in the other), each layer running the
# sequence it is (`super().forward`) and joining its input to its output. The last norm is
# sized for one layer fewer than the second block has.
import torch
import torch.nn as nn


class DenseLayer(nn.Sequential):
    def __init__(self, cin, growth):
        super().__init__()
        self.add_module("norm", nn.BatchNorm2d(cin))
        self.add_module("conv", nn.Conv2d(cin, growth, 3, padding=1))

    def forward(self, x):
        return torch.cat([x, super().forward(x)], 1)


class DenseBlock(nn.Sequential):
    def __init__(self, layers, cin, growth, name="denselayer{}"):
        super().__init__()
        for i in range(layers):
            self.add_module(name.format(i + 1), DenseLayer(cin + i * growth, growth))


first = DenseBlock(3, 8, 4)
second = DenseBlock(2, 8 + 3 * 4, 4, name="layer{:02d}")
norm = nn.BatchNorm2d(8 + 3 * 4 + 4)
print(first.denselayer2.conv, second.layer01.conv)
print(norm(second(first(torch.randn(2, 8, 6, 6)))).shape)
