"""A feature extractor that rebuilds a backbone from its children, in order, up to the last
layer it returns (as segmentation models do); each head takes its own feature map."""

from collections import OrderedDict

import torch
from torch import nn


class Backbone(nn.Module):
    def __init__(self):
        super().__init__()
        self.stem = nn.Conv2d(3, 8, 3, padding=1)
        self.act = nn.ReLU()
        self.layer1 = nn.Conv2d(8, 16, 3, stride=2, padding=1)
        self.layer2 = nn.Conv2d(16, 32, 3, stride=2, padding=1)
        self.head = nn.Linear(32, 10)

    def forward(self, x):
        return self.head(self.layer2(self.layer1(self.act(self.stem(x)))).mean((2, 3)))


class Features(nn.ModuleDict):
    def __init__(self, model, return_layers):
        if not set(return_layers).issubset([name for name, _ in model.named_children()]):
            raise ValueError("return_layers are not present in model")
        wanted = dict(return_layers)
        layers = OrderedDict()
        for name, module in model.named_children():
            layers[name] = module
            if name in wanted:
                del wanted[name]
            if not wanted:
                break
        super().__init__(layers)
        self.return_layers = return_layers

    def forward(self, x):
        out = OrderedDict()
        for name, module in self.items():
            x = module(x)
            if name in self.return_layers:
                out[self.return_layers[name]] = x
        return out


class Segmenter(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = Features(Backbone(), {"layer2": "out", "layer1": "aux"})
        self.classifier = nn.Conv2d(32, 4, 1)
        self.aux = nn.Conv2d(16, 4, 1)

    def forward(self, x):
        features = self.backbone(x)
        y = self.classifier(features["out"])
        a = self.aux(features["aux"])
        return y, a


model = Segmenter()
out = model(torch.randn(2, 3, 32, 32))
