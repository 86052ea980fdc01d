"""The attention kernel is imported optionally (`try: from torch.nn.functional import
scaled_dot_product_attention ... except ImportError:`) and chosen with the flag the import
sets; the values are projected to a width the output projection does not take."""

import torch
from torch import nn

try:
    from torch.nn.functional import scaled_dot_product_attention

    SDPA_AVAILABLE = True
except (ImportError, RuntimeError):
    scaled_dot_product_attention = None
    SDPA_AVAILABLE = False

q = torch.randn(2, 4, 6, 8)
v = torch.randn(2, 4, 6, 16)
out_proj = nn.Linear(32, 32)
if SDPA_AVAILABLE:
    a = scaled_dot_product_attention(q, q, v)
else:
    a = torch.softmax(q @ q.transpose(-1, -2), dim=-1) @ v
print(out_proj(a.permute(0, 2, 1, 3).flatten(start_dim=2)).shape)
