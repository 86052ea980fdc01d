"""A module whose constructor assigns its layers in an order that depends on an argument: its
children come in the order of the path taken, which the analysis cannot read from the source
alone — it must not assume the first branch's order (that order would make this clean program
fail)."""

from collections import OrderedDict

import torch
from torch import nn


class Two(nn.Module):
    def __init__(self, project_first):
        super().__init__()
        if project_first:
            self.a = nn.Conv2d(3, 8, 1)
            self.b = nn.Conv2d(8, 4, 1)
        else:
            self.b = nn.Conv2d(3, 8, 1)
            self.a = nn.Conv2d(8, 4, 1)


net = nn.Sequential(OrderedDict(Two(False).named_children()))
y = net(torch.zeros(1, 3, 4, 4))
