"""A prompt-conditioned mask decoder repeats the image's embedding once per prompt
(`torch.repeat_interleave(..., n_prompts, dim=0)`) and adds the dense prompt embeddings; the
dense embeddings were made with one channel too many."""

import torch

image_embedding = torch.randn(1, 32, 8, 8)
tokens = torch.randn(3, 7, 32)
dense = torch.randn(3, 33, 8, 8)
src = torch.repeat_interleave(image_embedding, tokens.shape[0], dim=0)
src = src + dense
print(src.shape)
