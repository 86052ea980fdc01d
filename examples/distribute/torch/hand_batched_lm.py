"""A language model trained on hand-made mini-batches: the token stream is cut into columns
(`batchify`) and read a window of rows at a time (`get_batch`), the hidden state carried from
one window to the next — no DataLoader anywhere.

Distributed, each rank trains on its own contiguous share of the rows, every share the same
length (so that the ranks take the same number of steps); evaluation keeps the whole
validation stream."""
import math

import torch
import torch.nn as nn

torch.manual_seed(0)
VOCAB, BPTT, BATCH = 50, 12, 8


def synthetic_stream(n, gen):
    """Tokens that follow a fixed rule most of the time, so that the loss can fall."""
    tokens = [0]
    for _ in range(n - 1):
        nxt = (tokens[-1] * 7 + 3) % VOCAB
        if torch.rand(1, generator=gen).item() < 0.1:
            nxt = int(torch.randint(VOCAB, (1,), generator=gen))
        tokens.append(nxt)
    return torch.tensor(tokens)


def batchify(data, bsz):
    nbatch = data.size(0) // bsz
    data = data.narrow(0, 0, nbatch * bsz)
    return data.view(bsz, -1).t().contiguous()


def get_batch(source, i):
    seq_len = min(BPTT, len(source) - 1 - i)
    return source[i:i + seq_len], source[i + 1:i + 1 + seq_len].reshape(-1)


class LM(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, 32)
        self.rnn = nn.LSTM(32, 32)
        self.out = nn.Linear(32, VOCAB)

    def forward(self, x, hidden=None):
        y, hidden = self.rnn(self.emb(x), hidden)
        return self.out(y).view(-1, VOCAB), hidden


gen = torch.Generator().manual_seed(1)
train_data = batchify(synthetic_stream(4000, gen), BATCH)
val_data = batchify(synthetic_stream(800, gen), BATCH)

model = LM()
optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
criterion = nn.CrossEntropyLoss()


def train():
    model.train()
    hidden = None
    for batch, i in enumerate(range(0, train_data.size(0) - 1, BPTT)):
        data, targets = get_batch(train_data, i)
        if hidden is not None:
            hidden = tuple(h.detach() for h in hidden)
        optimizer.zero_grad()
        output, hidden = model(data, hidden)
        loss = criterion(output, targets)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 0.5)
        optimizer.step()
    return loss.item()


def evaluate(source):
    model.eval()
    total, hidden = 0.0, None
    with torch.no_grad():
        for i in range(0, source.size(0) - 1, BPTT):
            data, targets = get_batch(source, i)
            output, hidden = model(data, hidden)
            total += len(data) * criterion(output, targets).item()
    return total / (len(source) - 1)


for epoch in range(3):
    loss = train()
    val_loss = evaluate(val_data)
    print(f"epoch {epoch}: train loss {loss:.3f}, valid ppl {math.exp(val_loss):.2f}")
