# An LSTM fed embeddings of another width than it was built for.
import torch
import torch.nn as nn


class Tagger(nn.Module):
    def __init__(self, vocab, emb, hidden, tags):
        super().__init__()
        self.embed = nn.Embedding(vocab, emb)
        self.lstm = nn.LSTM(hidden, hidden, batch_first=True)
        self.out = nn.Linear(hidden, tags)

    def forward(self, tokens):
        h, _ = self.lstm(self.embed(tokens))
        return self.out(h)


tagger = Tagger(1000, 64, 128, 9)
scores = tagger(torch.randint(0, 1000, (4, 20)))
