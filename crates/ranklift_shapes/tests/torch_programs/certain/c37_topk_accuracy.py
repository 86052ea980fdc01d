# The ImageNet example's top-k accuracy reused on a 4-class problem: top-5 of 4 logits.
import torch
import torch.nn as nn


def accuracy(output, target, topk=(1,)):
    maxk = max(topk)
    batch_size = target.size(0)
    _, pred = output.topk(maxk, 1, True, True)
    pred = pred.t()
    correct = pred.eq(target.view(1, -1).expand_as(pred))
    return [correct[:k].reshape(-1).float().sum(0) * 100.0 / batch_size for k in topk]


model = nn.Sequential(nn.Linear(20, 16), nn.ReLU(), nn.Linear(16, 4))
x, y = torch.randn(8, 20), torch.randint(0, 4, (8,))
print(accuracy(model(x), y, topk=(1, 5)))
