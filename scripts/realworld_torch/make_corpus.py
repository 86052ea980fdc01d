"""Offline data for the sweep: a seeded stand-in for a word-level text corpus (the WikiText-2
layout, `train.txt`, `valid.txt`, `test.txt` under the directory given), for fetched programs
whose snapshot leaves the corpus out. Sentences over a small vocabulary follow a few fixed
patterns, so that a language model's loss can fall.

Usage: python make_corpus.py DIR [TRAIN_LINES]"""
import random
import sys
from pathlib import Path

out = Path(sys.argv[1])
n_train = int(sys.argv[2]) if len(sys.argv) > 2 else 2000
rng = random.Random(0)
subjects = ["the cat", "a dog", "the model", "my friend", "the river", "a teacher", "the city"]
verbs = ["sees", "likes", "follows", "builds", "crosses", "reads", "finds"]
objects = ["the ball", "a book", "the road", "a tree", "the data", "a song", "the bridge"]
out.mkdir(parents=True, exist_ok=True)
for name, lines in (("train.txt", n_train), ("valid.txt", n_train // 10), ("test.txt", n_train // 10)):
    with open(out / name, "w") as f:
        for _ in range(lines):
            f.write(f" {rng.choice(subjects)} {rng.choice(verbs)} {rng.choice(objects)} . \n")
