# A greedy decoder that steps an LSTMCell by hand: the state is built for the encoder's width
# (64) while the cell was made with hidden_size 128, so the first step fails.
import torch
import torch.nn as nn


class Decoder(nn.Module):
    def __init__(self, vocab, emb, hidden):
        super().__init__()
        self.embed = nn.Embedding(vocab, emb)
        self.cell = nn.LSTMCell(emb, hidden)
        self.out = nn.Linear(hidden, vocab)

    def forward(self, enc, steps):
        h = enc
        c = torch.zeros_like(enc)
        tok = torch.zeros(enc.size(0), dtype=torch.long)
        outs = []
        for _ in range(steps):
            h, c = self.cell(self.embed(tok), (h, c))
            logits = self.out(h)
            tok = logits.argmax(-1)
            outs.append(logits)
        return torch.stack(outs, 1)


dec = Decoder(vocab=50, emb=32, hidden=128)
enc = torch.randn(8, 64)
print(dec(enc, 5).shape)
