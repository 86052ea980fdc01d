# A model annotated with jaxtyping throughout (named, fixed, anonymous and variadic dims),
# checked at run time by beartype: every call satisfies its annotations.
import torch
import torch.nn as nn
from beartype import beartype
from jaxtyping import Float, Int, jaxtyped
from torch import Tensor


class TinyViT(nn.Module):
    def __init__(self, patch=4, dim=32, classes=10):
        super().__init__()
        self.embed = nn.Conv2d(3, dim, patch, stride=patch)
        layer = nn.TransformerEncoderLayer(dim, 4, 64, batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, 2)
        self.head = nn.Linear(dim, classes)

    @jaxtyped(typechecker=beartype)
    def forward(self, images: Float[Tensor, "b 3 h w"]) -> Float[Tensor, "b 10"]:
        x = self.embed(images).flatten(2).transpose(1, 2)
        x = self.encoder(x)
        return self.head(x.mean(dim=1))


@jaxtyped(typechecker=beartype)
def accuracy(logits: Float[Tensor, "b _"], labels: Int[Tensor, " b"]) -> Float[Tensor, ""]:
    return (logits.argmax(-1) == labels).float().mean()


@jaxtyped(typechecker=beartype)
def flatten_batch(x: Float[Tensor, "*batch d"]) -> Float[Tensor, "n d"]:
    return x.reshape(-1, x.shape[-1])


model = TinyViT()
logits = model(torch.randn(2, 3, 16, 16))
print(accuracy(logits, torch.tensor([1, 2])))
print(flatten_batch(torch.randn(2, 3, 5)).shape)
