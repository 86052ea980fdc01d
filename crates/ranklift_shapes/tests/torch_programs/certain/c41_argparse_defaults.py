# Every size comes from the command line's defaults (PyTorch-GAN's shape): the noise has one
# feature more than the generator's first layer takes.
import argparse

import torch
import torch.nn as nn

parser = argparse.ArgumentParser()
parser.add_argument("--n_epochs", type=int, default=200, help="number of epochs of training")
parser.add_argument("--batch-size", type=int, default=64)
parser.add_argument("--latent_dim", type=int, default=100)
parser.add_argument("--img_size", type=int, default="28")
parser.add_argument("--channels", type=int, default=1)
parser.add_argument("--cuda", action="store_true")
opt = parser.parse_args()

img_shape = (opt.channels, opt.img_size, opt.img_size)


class Generator(nn.Module):
    def __init__(self):
        super().__init__()
        self.model = nn.Sequential(
            nn.Linear(opt.latent_dim, 128),
            nn.LeakyReLU(0.2),
            nn.Linear(128, opt.channels * opt.img_size * opt.img_size),
        )

    def forward(self, z):
        img = self.model(z)
        return img.view(img.size(0), *img_shape)


generator = Generator()
if opt.cuda:
    generator.cuda()
z = torch.randn(opt.batch_size, opt.latent_dim + 1)
gen_imgs = generator(z)
