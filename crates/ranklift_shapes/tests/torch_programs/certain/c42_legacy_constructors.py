# PyTorch-GAN's idiom: a legacy typed constructor picked by device, and Variable around every
# tensor. The noise is made with one feature less than the generator's first layer takes.
import torch
import torch.nn as nn
from torch.autograd import Variable

cuda = True if torch.cuda.is_available() else False
Tensor = torch.cuda.FloatTensor if cuda else torch.FloatTensor

generator = nn.Sequential(nn.Linear(100, 256), nn.ReLU(), nn.Linear(256, 784), nn.Tanh())
imgs = torch.randn(32, 1, 28, 28)
valid = Variable(Tensor(imgs.size(0), 1).fill_(1.0), requires_grad=False)
z = Variable(Tensor(torch.randn(imgs.shape[0], 99).numpy()))
gen_imgs = generator(z)
