# Two inputs that must share the batch size "b": the mask comes from a different batch.
import torch
from beartype import beartype
from jaxtyping import Bool, Float, jaxtyped
from torch import Tensor


@jaxtyped(typechecker=beartype)
def masked_mean(x: Float[Tensor, "b t d"], mask: Bool[Tensor, "b t"]) -> Float[Tensor, "b d"]:
    m = mask.unsqueeze(-1).float()
    return (x * m).sum(1) / m.sum(1).clamp(min=1)


out = masked_mean(torch.randn(4, 7, 16), torch.ones(4, 7, dtype=torch.bool))
out = masked_mean(torch.randn(4, 7, 16), torch.ones(5, 7, dtype=torch.bool))
