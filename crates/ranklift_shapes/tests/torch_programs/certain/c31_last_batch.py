# A training loop that hard-codes the batch size when flattening: every full batch of 32 works,
# the last one (100 = 3 * 32 + 4) is flattened into 32 rows of the wrong width, and the loss
# sees 32 predictions for 4 targets.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

BATCH = 32
data = TensorDataset(torch.randn(100, 1, 8, 8), torch.randint(0, 10, (100,)))
loader = DataLoader(data, batch_size=BATCH, shuffle=True)
head = nn.Linear(64, 10)
for step, (x, y) in enumerate(loader):
    feats = x.view(BATCH, -1)
    logits = head(feats[:, :64])
    loss = F.cross_entropy(logits, y)
