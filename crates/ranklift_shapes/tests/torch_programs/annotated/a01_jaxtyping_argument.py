# A jaxtyping-annotated encoder called with grayscale images: the annotation says 3 channels.
import torch
import torch.nn as nn
from beartype import beartype
from jaxtyping import Float, jaxtyped
from torch import Tensor


class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 16, 3, padding=1)
        self.pool = nn.AdaptiveAvgPool2d(1)

    @jaxtyped(typechecker=beartype)
    def forward(self, x: Float[Tensor, "b 3 h w"]) -> Float[Tensor, "b 16"]:
        return self.pool(self.conv(x)).flatten(1)


enc = Encoder()
feats = enc(torch.randn(4, 3, 32, 32))
feats = enc(torch.randn(4, 1, 32, 32))
