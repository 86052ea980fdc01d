# The three cells stepped by hand, batched and unbatched, with and without an initial state.
import torch
import torch.nn as nn

lstm = nn.LSTMCell(input_size=10, hidden_size=20)
gru = nn.GRUCell(10, 20)
rnn = nn.RNNCell(10, 20, nonlinearity="relu")
x = torch.randn(6, 3, 10)
h, c = torch.zeros(3, 20), torch.zeros(3, 20)
g = torch.zeros(3, 20)
outs = []
for t in range(x.size(0)):
    h, c = lstm(x[t], (h, c))
    g = gru(x[t], g)
    outs.append(h + g + rnn(x[t]))
y = torch.stack(outs)
single = rnn(torch.randn(10))
hs, cs = lstm(torch.randn(10), (torch.zeros(20), torch.zeros(20)))
print(y.shape, (single + hs + cs).shape, torch.cat([h, c], 1).shape)
