# An LSTM-like cell: the gates come from chunk(4), but the cell state has the hidden size of
# a different layer.
import torch
import torch.nn as nn


class Cell(nn.Module):
    def __init__(self, inp, hidden):
        super().__init__()
        self.gates = nn.Linear(inp + hidden, 4 * hidden)

    def forward(self, x, h, c):
        i, f, g, o = self.gates(torch.cat([x, h], dim=1)).chunk(4, dim=1)
        c = torch.sigmoid(f) * c + torch.sigmoid(i) * torch.tanh(g)
        return torch.sigmoid(o) * torch.tanh(c), c


cell = Cell(10, 20)
h, c = cell(torch.randn(3, 10), torch.zeros(3, 20), torch.zeros(3, 24))
