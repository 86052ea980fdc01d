# Causal language modelling: the targets are the tokens shifted by one, and so is the mask of
# the positions that count; selecting the hidden states with the shifted mask does not fit.
import torch
from torch import nn

batch, seq, hidden, vocab = 4, 16, 32, 100
hidden_states = torch.randn(batch, seq, hidden)
tokens = torch.randint(0, vocab, (batch, seq))
attention = torch.ones(batch, seq, dtype=torch.bool)
labels = tokens[:, 1:]
counted = attention[:, 1:] & (labels != 0)
selected = hidden_states[counted]
logits = nn.Linear(hidden, vocab)(selected)
loss = nn.functional.cross_entropy(logits, labels[counted])
