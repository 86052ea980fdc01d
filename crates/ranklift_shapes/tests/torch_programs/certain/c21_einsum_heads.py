# Attention scores by einsum, with the key's head dim transposed into the wrong place.
import torch

q = torch.randn(2, 4, 10, 16)
k = torch.randn(2, 4, 16, 10)
scores = torch.einsum("bhqd,bhkd->bhqk", q, k)
