# Layer factories passed as partials, padding, row selection and one-hot targets keep their
# shapes known: the wrong normalisation size at the end is found through all of them.
from functools import partial

import torch
import torch.nn as nn
import torch.nn.functional as F


class Block(nn.Module):
    def __init__(self, dim, norm_layer=partial(nn.LayerNorm, eps=1e-6)):
        super().__init__()
        self.norm = norm_layer(dim)
        self.fc = nn.Linear(dim, dim)

    def forward(self, x):
        x = F.pad(x, (0, 1, 0, 1))              # (2, 3, 8, 8)
        x = x.roll(1, dims=2).flatten(2)        # (2, 3, 64)
        x = torch.index_select(x, 1, torch.tensor([0, 2]))  # (2, 2, 64)
        return self.fc(self.norm(x))


targets = F.one_hot(torch.zeros(2, dtype=torch.long), 10)  # (2, 10)
block = Block(10)
out = block(torch.zeros(2, 3, 7, 7))
