# A GPT-style block as minGPT and makemore write it: the MLP's layers in an `nn.ModuleDict`,
# run through a lambda kept on the module; a graph layer takes its activation as a lambda.
# The projection back is sized for the wrong width.
import torch
import torch.nn as nn


class Block(nn.Module):
    def __init__(self, n_embd):
        super().__init__()
        self.ln = nn.LayerNorm(n_embd)
        self.mlp = nn.ModuleDict(dict(
            c_fc=nn.Linear(n_embd, 4 * n_embd),
            c_proj=nn.Linear(2 * n_embd, n_embd),
        ))
        m = self.mlp
        self.mlpf = lambda x: m.c_proj(torch.relu(m.c_fc(x)))

    def forward(self, x):
        return x + self.mlpf(self.ln(x))


class Graph(nn.Module):
    def __init__(self, n_in, n_out, act=lambda x: x):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(n_in, n_out))
        self.act = act

    def forward(self, x, adj):
        return self.act(adj @ (x @ self.weight))


h = Graph(8, 16)(torch.randn(5, 8), torch.eye(5))
print(Block(16)(h.unsqueeze(0)).shape)
