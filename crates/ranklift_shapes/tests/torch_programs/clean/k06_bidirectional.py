# A bidirectional GRU doubles the features its head must take.
import torch
import torch.nn as nn


class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.gru = nn.GRU(40, 64, num_layers=2, batch_first=True, bidirectional=True)
        self.head = nn.Linear(2 * 64, 5)

    def forward(self, x):
        h0 = torch.zeros(4, x.size(0), 64)
        out, h = self.gru(x, h0)
        return self.head(out[:, -1, :])


print(Encoder()(torch.randn(3, 11, 40)).shape)
