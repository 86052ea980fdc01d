# A model's configuration as a `typing.NamedTuple`, built by position and unpacked: the output
# layer is sized from the hidden width where the vocabulary belongs.
from typing import NamedTuple

import torch
import torch.nn as nn


class Config(NamedTuple):
    vocab: int
    width: int
    layers: int = 2


config = Config(100, 32)
vocab, width, layers = config
embed = nn.Embedding(config.vocab, config.width)
body = nn.Sequential(*[nn.Linear(width, width) for _ in range(config[2])])
head = nn.Linear(vocab, vocab)
print(head(body(embed(torch.randint(0, vocab, (2, 5))))).shape)
