# Teacher forcing over a caption of unknown length: each step takes the embeddings of word t,
# `emb[:, t, :]`, (batch, 16), and the step's layer was sized for the 32-wide attention context
# instead. Whatever t is, the slice's shape is the same; the layer fails at the first step.
import torch
import torch.nn as nn

emb = nn.Embedding(100, 16)(torch.randint(0, 100, (4, 9)))
lengths = torch.tensor([9, 7, 8, 5])
step = nn.Linear(32, 24)
outs = []
for t in range(int(lengths.max()) - 1):
    outs.append(step(emb[:, t, :]))
print(len(outs))
