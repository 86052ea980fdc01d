# The masked positions' hidden states keep their width through a head, and the targets at the
# same positions line up with them.
import torch
from torch import nn

batch, seq, hidden, vocab = 4, 16, 32, 100
hidden_states = torch.randn(batch, seq, hidden)
tokens = torch.randint(0, vocab, (batch, seq))
is_masked = torch.rand(batch, seq) < 0.15
is_masked[:, 0] = True
selected = hidden_states[is_masked]
logits = nn.Linear(hidden, vocab)(selected)
loss = nn.functional.cross_entropy(logits, tokens[is_masked])
print(loss.shape)
