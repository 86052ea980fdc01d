# Cross-attention from decoder states of one width onto encoder states of the attention's.
import torch
import torch.nn as nn

attn = nn.MultiheadAttention(embed_dim=64, num_heads=8, batch_first=True)
memory = torch.randn(2, 10, 64)
queries = torch.randn(2, 7, 32)
out, weights = attn(queries, memory, memory)
