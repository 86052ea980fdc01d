# A DenseNet-shaped model: a ModuleDict subclass adding its layers with add_module and
# concatenating their outputs over self.items(), a Sequential subclass registering its
# children by assignment, both added to a Sequential built from an OrderedDict, and a
# classifier one feature too wide.
from collections import OrderedDict

import torch
from torch import Tensor, nn


class DenseLayer(nn.Module):
    def __init__(self, in_features, growth):
        super().__init__()
        self.norm = nn.BatchNorm2d(in_features)
        self.conv = nn.Conv2d(in_features, growth, kernel_size=3, padding=1)

    def forward(self, inputs):
        if isinstance(inputs, Tensor):
            inputs = [inputs]
        return self.conv(torch.relu(self.norm(torch.cat(inputs, 1))))


class DenseBlock(nn.ModuleDict):
    def __init__(self, num_layers, in_features, growth):
        super().__init__()
        for i in range(num_layers):
            self.add_module("denselayer%d" % (i + 1), DenseLayer(in_features + i * growth, growth))

    def forward(self, x):
        features = [x]
        for name, layer in self.items():
            features.append(layer(features))
        return torch.cat(features, 1)


class Transition(nn.Sequential):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.conv = nn.Conv2d(in_features, out_features, kernel_size=1)
        self.pool = nn.AvgPool2d(2)


features = nn.Sequential(OrderedDict([("conv0", nn.Conv2d(3, 16, 3, padding=1))]))
channels = 16
for i, n in enumerate((2, 2)):
    features.add_module("denseblock%d" % (i + 1), DenseBlock(n, channels, 8))
    channels = channels + n * 8
    if i == 0:
        features.add_module("transition1", Transition(channels, channels // 2))
        channels = channels // 2
classifier = nn.Linear(channels + 1, 10)
x = torch.randn(2, 3, 16, 16)
assert features.conv0(x).shape == (2, 16, 16, 16)
out = features(x).mean((2, 3))
print(classifier(out).shape)
