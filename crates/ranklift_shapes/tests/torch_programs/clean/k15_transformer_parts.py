# The attention layers of torch.nn used as intended: sequence-first and batch-first
# MultiheadAttention, an encoder with a final norm, a decoder over memory, einsum and
# split/chunk/unbind of every form.
import torch
import torch.nn as nn

mha = nn.MultiheadAttention(16, 4)
out, w = mha(torch.randn(5, 2, 16), torch.randn(7, 2, 16), torch.randn(7, 2, 16))
print(out.shape, w.shape)
mhb = nn.MultiheadAttention(16, 4, batch_first=True)
out, w = mhb(torch.randn(2, 5, 16), torch.randn(2, 7, 16), torch.randn(2, 7, 16), average_attn_weights=False)
print(out.shape, w.shape)
cross = nn.MultiheadAttention(16, 2, kdim=8, vdim=12)
out, _ = cross(torch.randn(5, 2, 16), torch.randn(7, 2, 8), torch.randn(7, 2, 12))
enc = nn.TransformerEncoder(nn.TransformerEncoderLayer(16, 4, 32), num_layers=3, norm=nn.LayerNorm(16))
mem = enc(torch.randn(9, 2, 16))
dec = nn.TransformerDecoder(nn.TransformerDecoderLayer(16, 4, 32), num_layers=2)
y = dec(torch.randn(6, 2, 16), mem)
print(y.shape + (1,))
a, b, c = torch.randn(3, 8).unbind(0)
parts = torch.randn(2, 10).split([3, 7], dim=1)
first, rest = parts[0], parts[1]
chunks = torch.randn(6).chunk(4)
s = torch.einsum("ij,jk", torch.randn(2, 3), torch.randn(3, 5))
t = torch.einsum("...ij,...jk->...ik", torch.randn(7, 2, 3), torch.randn(1, 3, 5))
u = torch.einsum("ii->i", torch.randn(4, 4))
print(a.shape, first.shape, rest.shape, len(chunks), s.shape, t.shape, u.shape)
gn = nn.GroupNorm(4, 16)
print(gn(torch.randn(2, 16, 5, 5)).shape)
heads = nn.ModuleDict({"cls": nn.Linear(16, 3), "reg": nn.Linear(16, 1)})
for key in heads:
    print(key, heads[key](y).shape)
heads.update({"aux": nn.Linear(16, 2)})
print(heads["aux"](y).shape, list(heads.keys()))
