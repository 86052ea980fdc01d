# A configuration node in the style of minGPT's and yacs' (fields taken with
# `self.__dict__.update(kwargs)`, more set afterwards), sizing a GPT-style MLP. The projection
# back is built for the embedding width instead of the hidden one.
import torch
import torch.nn as nn


class CfgNode:
    def __init__(self, **kwargs):
        self.__dict__.update(kwargs)


class MLP(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.c_fc = nn.Linear(config.n_embd, config.mult * config.n_embd)
        self.c_proj = nn.Linear(config.n_embd, config.n_embd)

    def forward(self, x):
        return self.c_proj(torch.relu(self.c_fc(x)))


C = CfgNode(n_embd=16)
C.mult = 4
print(MLP(C)(torch.randn(2, 16)).shape)
