# The initial state of a 2-layer LSTM built for one layer.
import torch
import torch.nn as nn

rnn = nn.LSTM(28, 128, num_layers=2, batch_first=True)
x = torch.randn(16, 28, 28)
h0 = torch.zeros(1, x.size(0), 128)
c0 = torch.zeros(1, x.size(0), 128)
out, _ = rnn(x, (h0, c0))
