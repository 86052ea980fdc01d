# A decoder loop whose attention module fails on the first step (its query projection expects
# 25 features, the state has 24). What the loop computes after the call depends on the call's
# result; the analysis must stop the step at the call, not carry an unknown state round the loop.
import torch
import torch.nn as nn


class Attention(nn.Module):
    def __init__(self, enc_dim, dec_dim, att_dim):
        super().__init__()
        self.enc = nn.Linear(enc_dim, att_dim)
        self.dec = nn.Linear(dec_dim + 1, att_dim)
        self.score = nn.Linear(att_dim, 1)

    def forward(self, memory, hidden):
        e = self.score(torch.tanh(self.enc(memory) + self.dec(hidden).unsqueeze(1)))
        alpha = torch.softmax(e.squeeze(2), dim=1)
        return (memory * alpha.unsqueeze(2)).sum(1)


class Decoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.attention = Attention(64, 24, 32)
        self.cell = nn.LSTMCell(64, 24)

    def forward(self, memory, lengths):
        h = torch.zeros(memory.size(0), 24)
        c = torch.zeros(memory.size(0), 24)
        for t in range(int(lengths.max())):
            context = self.attention(memory, h)
            h, c = self.cell(context, (h, c))
        return h


print(Decoder()(torch.randn(3, 16, 64), torch.tensor([7, 5, 6])).shape)
