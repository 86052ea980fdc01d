# A subclassed torch layer (super().forward), nn.Sequential over an OrderedDict, isinstance on
# the program's own objects, attention pooling through F.multi_head_attention_forward, a norm
# and a NumPy scalar in a parameter: the shapes stay known through all of them.
from collections import OrderedDict

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


class LayerNorm(nn.LayerNorm):
    def forward(self, x):
        return super().forward(x.type(torch.float32))


class Pool(nn.Module):
    def __init__(self, dim, heads, out):
        super().__init__()
        self.q = nn.Linear(dim, dim)
        self.k = nn.Linear(dim, dim)
        self.v = nn.Linear(dim, dim)
        self.c = nn.Linear(dim, out)
        self.heads = heads

    def forward(self, x):
        y, _ = F.multi_head_attention_forward(
            query=x[:1], key=x, value=x, embed_dim_to_check=x.shape[-1], num_heads=self.heads,
            q_proj_weight=self.q.weight, k_proj_weight=self.k.weight, v_proj_weight=self.v.weight,
            in_proj_weight=None, in_proj_bias=torch.cat([self.q.bias, self.k.bias, self.v.bias]),
            bias_k=None, bias_v=None, add_zero_attn=False, dropout_p=0,
            out_proj_weight=self.c.weight, out_proj_bias=self.c.bias,
            use_separate_proj_weight=True, training=self.training, need_weights=False)
        return y.squeeze(0)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.pool = Pool(32, 2, 16)
        self.mlp = nn.Sequential(OrderedDict([("fc", nn.Linear(16, 8)), ("act", nn.ReLU())]))
        self.ln = LayerNorm(8)
        self.scale = nn.Parameter(torch.ones([]) * np.log(1 / 0.07))

    def forward(self, x):
        if isinstance(self.pool, Pool):
            x = self.pool(x)
        x = self.ln(self.mlp(x))
        x = x / x.norm(dim=1, keepdim=True)
        return self.scale.exp() * x @ torch.randn(16, 4)


Net()(torch.randn(5, 2, 32))
