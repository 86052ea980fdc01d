#!/usr/bin/env python3
"""Checks of the sweeps' judgement of losses (scripts/realworld_common.py), each with the case it
must reject: a judgement that cannot fail proves nothing."""
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from realworld_common import loss_fall_error, loss_fall_error_by_model  # noqa: E402


def falling(start, end, n, rng):
    return [start + (end - start) * i / (n - 1) + rng.gauss(0, 0.01) for i in range(n)]


def run(rec_losses):
    keys, losses = [], []
    for key, xs in rec_losses:
        keys += [key] * len(xs)
        losses += xs
    return {"losses": losses, "loss_keys": keys}


def main():
    rng = random.Random(7)
    # A guide: a regression model (loss 1.0 -> 0.4), then a GAN (loss 0.7 -> 0.6). Rank 0 runs
    # half the steps of each, and its regression starts from another initialisation (0.25).
    orig = run([("(32, 1)|(1,)", falling(1.0, 0.4, 96, rng)), ("(64, 1)", falling(0.7, 0.6, 40, rng))])
    good = run([("(32, 1)|(1,)", falling(0.25, 0.2, 48, rng)), ("(64, 1)", falling(0.7, 0.55, 20, rng))])
    # Concatenated, the first tenth is the regression's and the last the GAN's: rank 0 "did not
    # fall" (0.25 -> 0.55) although each of its models learned.
    assert loss_fall_error(orig["losses"], good["losses"]) is not None
    assert loss_fall_error_by_model(orig, good) is None, loss_fall_error_by_model(orig, good)
    # Negative control: a rank 0 whose GAN unlearned (its losses reversed) is rejected, and the
    # message names that model.
    bad = run([("(32, 1)|(1,)", falling(0.25, 0.2, 48, rng)), ("(64, 1)", falling(0.55, 0.7, 20, rng))])
    why = loss_fall_error_by_model(orig, bad)
    assert why is not None and "(64, 1)" in why, why
    # Runs recorded without tags are judged as one sequence, as before.
    flat_orig, flat_bad = {"losses": orig["losses"]}, {"losses": orig["losses"][::-1]}
    assert loss_fall_error_by_model(flat_orig, flat_bad) is not None
    print("realworld_common: loss judgement checks passed (4)")


if __name__ == "__main__":
    main()
