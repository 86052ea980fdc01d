# torch's named tuples: topk/sort/max/min/median with a dim give (values, indices) with fields;
# a 1-element tensor can still be indexed and `.item()` reads a 0-d one.
import torch

scores = torch.randn(4, 10)
top = scores.topk(3, dim=-1)
picked = torch.gather(scores, -1, top.indices)
assert picked.shape == top.values.shape == (4, 3)
ordered = torch.sort(scores, dim=1, descending=True)
best = scores.max(dim=1)
worst = torch.min(scores, 1)
assert ordered.indices.shape == (4, 10) and best.values.shape == worst.indices.shape == (4,)
one = scores.sum(dim=1, keepdim=True)[0]
total = scores.sum()
print(one[0].item(), total.item())
