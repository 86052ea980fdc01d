# The head's annotation promises one logit per class; the body's last layer has 20 outputs.
import torch
import torch.nn as nn
from beartype import beartype
from jaxtyping import Float, jaxtyped
from torch import Tensor


class Head(nn.Module):
    def __init__(self, d=64, classes=10):
        super().__init__()
        self.fc1 = nn.Linear(d, 32)
        self.fc2 = nn.Linear(32, 20)

    @jaxtyped(typechecker=beartype)
    def forward(self, x: Float[Tensor, "batch 64"]) -> Float[Tensor, "batch 10"]:  # ranklift: W303 here
        return self.fc2(torch.relu(self.fc1(x)))


head = Head()
logits = head(torch.randn(8, 64))
