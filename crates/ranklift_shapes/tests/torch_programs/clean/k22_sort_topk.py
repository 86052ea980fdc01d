# Sorting a batch by length, top-k accuracy, a beam's best candidates and argsort ranks.
import torch
import torch.nn as nn

lengths = torch.tensor([[7], [5], [6]])
lengths, order = lengths.squeeze(1).sort(dim=0, descending=True)
feats = torch.randn(3, 16, 64)[order]
proj = nn.Linear(64, 8)
print(proj(feats.mean(1)).shape, order.shape)

logits = torch.randn(8, 10)
_, pred = logits.topk(5, 1, True, True)
correct = pred.t().eq(torch.randint(0, 10, (8,)).view(1, -1).expand_as(pred.t()))
print(correct[:5].reshape(-1).float().sum(0))

scores = torch.randn(4, 30)
best, idx = torch.topk(scores.view(-1), 4)
ranks = torch.argsort(scores, dim=1, descending=True)
values, _ = scores.sort()
print(best.shape, idx.shape, ranks.shape, (values + scores.msort()).shape)
