# Attention scores with the keys not transposed.
import math
import torch

q = torch.randn(8, 10, 64)
k = torch.randn(8, 12, 64)
scores = torch.bmm(q, k) / math.sqrt(64)
