# word_language_model's RNNModel picks its recurrent layer by name (`getattr(nn, rnn_type)`);
# the embeddings fed to it are one wider than the layer's input size.
import torch
import torch.nn as nn


class RNNModel(nn.Module):
    def __init__(self, rnn_type, ninp, nhid):
        super().__init__()
        if rnn_type in ['LSTM', 'GRU']:
            self.rnn = getattr(nn, rnn_type)(ninp, nhid)
        else:
            self.rnn = nn.RNN(ninp, nhid)

    def forward(self, x):
        out, _ = self.rnn(x)
        return out


m = RNNModel("LSTM", 8, 16)
y = m(torch.randn(5, 2, 9))
