# Legacy typed constructors (sizes or data, CPU or CUDA by a flag) and Variable: shapes as torch
# gives them.
import torch
import torch.nn as nn
from torch.autograd import Variable

cuda = True if torch.cuda.is_available() else False
Tensor = torch.cuda.FloatTensor if cuda else torch.FloatTensor
LongTensor = torch.cuda.LongTensor if cuda else torch.LongTensor

discriminator = nn.Sequential(nn.Flatten(), nn.Linear(784, 1), nn.Sigmoid())
imgs = torch.randn(16, 1, 28, 28)
valid = Variable(Tensor(imgs.size(0), 1).fill_(1.0), requires_grad=False)
real_imgs = Variable(imgs.type(Tensor))
loss = nn.BCELoss()(discriminator(real_imgs), valid)
labels = Variable(LongTensor([1, 0, 3, 2]))
emb = nn.Embedding(4, 8)(labels)
assert emb.shape == (4, 8) and loss.dim() == 0
