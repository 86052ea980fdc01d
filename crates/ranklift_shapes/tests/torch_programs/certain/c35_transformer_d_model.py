# The embedding was widened to 48 but the transformer still has d_model=32: torch checks both
# inputs' feature size before the encoder runs.
import torch
import torch.nn as nn


class Seq2Seq(nn.Module):
    def __init__(self, vocab=100, emb=48, d_model=32):
        super().__init__()
        self.embed = nn.Embedding(vocab, emb)
        self.core = nn.Transformer(d_model, 4, 1, 1, 64, batch_first=True)
        self.head = nn.Linear(d_model, vocab)

    def forward(self, src, tgt):
        return self.head(self.core(self.embed(src), self.embed(tgt)))


net = Seq2Seq()
print(net(torch.randint(0, 100, (2, 9)), torch.randint(0, 100, (2, 7))).shape)
