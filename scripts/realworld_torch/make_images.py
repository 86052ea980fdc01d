"""Offline data for the sweep: a seeded stand-in for a directory of labelled JPEG images (the
label as the file name's first character, `3_IMG_0042.jpg`), for fetched programs whose data
is built by a download script. Each class has its own mean colour, so a classifier can learn.

Usage: python make_images.py DIR COUNT [SIZE] [CLASSES]"""
import random
import sys
from pathlib import Path

from PIL import Image

out = Path(sys.argv[1])
count = int(sys.argv[2])
size = int(sys.argv[3]) if len(sys.argv) > 3 else 64
classes = int(sys.argv[4]) if len(sys.argv) > 4 else 6
rng = random.Random(sum(out.name.encode()))
out.mkdir(parents=True, exist_ok=True)
for i in range(count):
    label = i % classes
    base = (40 * label) % 256
    pixels = bytes(min(255, max(0, base + rng.randint(-40, 40))) for _ in range(size * size * 3))
    Image.frombytes("RGB", (size, size), pixels).save(out / f"{label}_IMG_{i:04d}.jpg")
