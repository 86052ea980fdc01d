# A ModuleList appended to, initialised through nn.Module's methods, measured and iterated.
import torch
import torch.nn as nn


def init_weights(block: nn.Module):
    for layer in block.modules():
        if isinstance(layer, nn.Linear):
            nn.init.xavier_uniform_(layer.weight)


class Tower(nn.Module):
    def __init__(self, width, depth):
        super().__init__()
        self.layers = nn.ModuleList([nn.Linear(width, width) for _ in range(depth)])
        self.layers.append(nn.Linear(width, 1))
        init_weights(self.layers)

    def forward(self, x):
        for i in range(len(self.layers) - 1):
            x = torch.relu(self.layers[i](x))
        return self.layers[-1](x)


print(Tower(16, 3)(torch.randn(4, 16)).shape)
