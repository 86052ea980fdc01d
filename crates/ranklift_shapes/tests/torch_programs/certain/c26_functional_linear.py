# A tied output projection with F.linear: the weight is the embedding's (vocab, width), but
# the hidden states come from a wider decoder.
import torch
import torch.nn as nn
import torch.nn.functional as F

emb = nn.Embedding(100, 32)
hidden = torch.randn(4, 10, 48)
logits = F.linear(hidden, emb.weight)
