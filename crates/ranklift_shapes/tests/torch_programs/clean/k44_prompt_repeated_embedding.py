"""A prompt-conditioned mask decoder repeats the image's embedding once per prompt, adds the
dense prompt embeddings and expands per-prompt counts with a tensor of repeats."""

import torch

image_embedding = torch.randn(1, 32, 8, 8)
tokens = torch.randn(3, 7, 32)
dense = torch.randn(3, 32, 8, 8)
src = torch.repeat_interleave(image_embedding, tokens.shape[0], dim=0)
src = src + dense
counts = torch.tensor([1, 2, 1])
per_point = tokens.repeat_interleave(counts, dim=0)
flat = src.repeat_interleave(2)
print(src.shape, per_point.shape, flat.shape)
