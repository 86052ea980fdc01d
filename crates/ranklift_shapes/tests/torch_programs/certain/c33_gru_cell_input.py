# A character model whose GRUCell is fed one-hot vectors of the wrong width: the alphabet grew
# to 29 symbols, the cell still takes 27.
import torch
import torch.nn as nn

ALPHABET = "abcdefghijklmnopqrstuvwxyz .'"
cell = nn.GRUCell(27, 64)
head = nn.Linear(64, len(ALPHABET))
h = torch.zeros(4, 64)
x = torch.zeros(4, len(ALPHABET))
for t in range(10):
    h = cell(x, h)
    x = torch.softmax(head(h), -1)
print(x.shape)
