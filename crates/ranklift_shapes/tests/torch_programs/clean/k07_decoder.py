# A decoder of transposed convolutions back to the input's size.
import torch
import torch.nn as nn

decoder = nn.Sequential(
    nn.Linear(16, 64 * 7 * 7),
    nn.Unflatten(1, (64, 7, 7)),
    nn.ConvTranspose2d(64, 32, 3, stride=2, padding=1, output_padding=1),
    nn.ReLU(),
    nn.ConvTranspose2d(32, 1, 3, stride=2, padding=1, output_padding=1),
    nn.Sigmoid(),
)
print(decoder(torch.randn(2, 16)).shape)
