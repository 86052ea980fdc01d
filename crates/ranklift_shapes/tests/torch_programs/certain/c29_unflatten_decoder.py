# A VAE decoder that unflattens its projection into feature maps of the wrong spatial size.
import torch
import torch.nn as nn

decoder = nn.Sequential(
    nn.Linear(16, 64 * 7 * 7),
    nn.Unflatten(1, (64, 8, 8)),
    nn.ConvTranspose2d(64, 32, 4, stride=2, padding=1),
)
img = decoder(torch.randn(5, 16))
