# A default configuration dataclass specialised per model size with `dataclasses.replace`
# (its `__post_init__` derives the head width again), and logged with `asdict`: the
# classifier is built for the default width, not the small model's.
import dataclasses
from dataclasses import dataclass

import torch
import torch.nn as nn


@dataclass
class Cfg:
    width: int = 64
    depth: int = 2
    classes: int = 10

    def __post_init__(self):
        self.head_width = self.width * 2


DEFAULT = Cfg()
small = dataclasses.replace(DEFAULT, width=32)
print(dataclasses.asdict(small))
body = nn.Sequential(*[nn.Linear(small.width, small.width) for _ in range(small.depth)])
expand = nn.Linear(small.width, small.head_width)
head = nn.Linear(DEFAULT.head_width, small.classes)
print(head(expand(body(torch.randn(4, 32)))).shape)
