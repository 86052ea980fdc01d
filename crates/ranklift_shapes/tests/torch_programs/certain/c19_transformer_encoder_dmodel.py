# A classifier over token embeddings whose width is not the encoder's d_model.
import torch
import torch.nn as nn


class Classifier(nn.Module):
    def __init__(self, vocab, emb, d_model, classes):
        super().__init__()
        self.embed = nn.Embedding(vocab, emb)
        layer = nn.TransformerEncoderLayer(d_model, nhead=4, dim_feedforward=64, batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, num_layers=2)
        self.head = nn.Linear(d_model, classes)

    def forward(self, tokens):
        x = self.encoder(self.embed(tokens))
        return self.head(x.mean(dim=1))


model = Classifier(vocab=100, emb=24, d_model=32, classes=3)
y = model(torch.randint(0, 100, (8, 12)))
