# A vision transformer in the style of the ViT ports: image and patch sizes normalised with
# `_pair`, the encoder's blocks deep copies of one block, sizes from a configuration class.
# The classification head expects twice the hidden size.
import copy

import torch
import torch.nn as nn
from torch.nn.modules.utils import _pair


class Config:
    hidden_size = 16
    transformer = {"num_heads": 2, "mlp_dim": 32, "num_layers": 2}
    patches = {"size": (4, 4)}


class Block(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.norm = nn.LayerNorm(config.hidden_size)
        self.fc1 = nn.Linear(config.hidden_size, config.transformer["mlp_dim"])
        self.fc2 = nn.Linear(config.transformer["mlp_dim"], config.hidden_size)

    def forward(self, x):
        return x + self.fc2(torch.relu(self.fc1(self.norm(x))))


class ViT(nn.Module):
    def __init__(self, config, img_size=16, num_classes=10):
        super().__init__()
        img_size = _pair(img_size)
        patch = _pair(config.patches["size"])
        n_patches = (img_size[0] // patch[0]) * (img_size[1] // patch[1])
        self.embed = nn.Conv2d(3, config.hidden_size, kernel_size=patch, stride=patch)
        self.pos = nn.Parameter(torch.zeros(1, n_patches + 1, config.hidden_size))
        self.cls = nn.Parameter(torch.zeros(1, 1, config.hidden_size))
        block = Block(config)
        self.layers = nn.ModuleList(
            [copy.deepcopy(block) for _ in range(config.transformer["num_layers"])]
        )
        self.head = nn.Linear(2 * config.hidden_size, num_classes)

    def forward(self, x):
        x = self.embed(x).flatten(2).transpose(1, 2)
        x = torch.cat((self.cls.expand(x.shape[0], -1, -1), x), dim=1) + self.pos
        for layer in self.layers:
            x = layer(x)
        return self.head(x[:, 0])


print(ViT(Config())(torch.randn(2, 3, 16, 16)).shape)
