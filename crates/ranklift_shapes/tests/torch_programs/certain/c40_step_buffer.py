# Each decoding step writes its scores into a preallocated buffer; the head was given one class
# too many, so the first write fails.
import torch
import torch.nn as nn

vocab, steps, batch = 50, 6, 4
head = nn.Linear(24, vocab + 1)
scores = torch.zeros(batch, steps, vocab)
h = torch.randn(batch, 24)
for t in range(steps):
    scores[:, t, :] = head(h)
print(scores.shape)
