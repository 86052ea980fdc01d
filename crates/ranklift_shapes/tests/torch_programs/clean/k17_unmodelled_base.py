# A language model that subclasses nn.Transformer (as pytorch/examples' word_language_model
# does) and uses only its encoder, plus nn.Parameter and F.linear/F.layer_norm used correctly.
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class LM(nn.Transformer):
    def __init__(self, ntoken, ninp, nhead, nhid, nlayers):
        super().__init__(d_model=ninp, nhead=nhead, dim_feedforward=nhid, num_encoder_layers=nlayers)
        self.emb = nn.Embedding(ntoken, ninp)
        self.pos = nn.Parameter(torch.zeros(64, 1, ninp))
        self.gain = nn.Parameter(torch.ones(ninp))
        self.ninp = ninp

    def forward(self, src):
        x = self.emb(src) * math.sqrt(self.ninp) + self.pos[: src.size(0)]
        x = self.encoder(x)
        x = F.layer_norm(x, (self.ninp,), self.gain)
        return F.log_softmax(F.linear(x, self.emb.weight), dim=-1)


lm = LM(100, 32, 4, 64, 2)
print(lm(torch.randint(0, 100, (12, 3))).shape)
