"""Distributed merge sort (after Choral's Mergesort): the role holding the list splits it, the two
halves are sorted recursively with the roles rotated (`Mergesort[B, C, A]`, `Mergesort[C, A, B]`),
and the holder merges the results. Every role takes every part in turn."""

from enum import Enum

from pychoral import Ch3, Channel, Role, At, entry

A = Role("A")
B = Role("B")
C = Role("C")


class Step(Enum):
    SPLIT = "SPLIT"
    DONE = "DONE"


def merge(xs: list, ys: list) -> list:
    out = []
    i = j = 0
    while i < len(xs) and j < len(ys):
        if xs[i] <= ys[j]:
            out.append(xs[i])
            i += 1
        else:
            out.append(ys[j])
            j += 1
    return out + xs[i:] + ys[j:]


class Mergesort(Ch3[A, B, C]):
    def __init__(self, ab: Channel[object, A, B], bc: Channel[object, B, C], ca: Channel[object, C, A]) -> None:
        self.ab = ab
        self.bc = bc
        self.ca = ca

    def sort(self, xs: At[list, A]) -> At[list, A]:
        if len(xs) > 1:
            self.ab.select(Step.SPLIT @ A)
            self.ca.select(Step.SPLIT @ A)
            half: At[int, A] = len(xs) // 2
            left: At[list, B] = self.ab.com(xs[:half])
            right: At[list, C] = self.ca.com(xs[half:])
            print("split", xs)
            left_sorted: At[list, B] = Mergesort[B, C, A](self.bc, self.ca, self.ab).sort(left)
            right_sorted: At[list, C] = Mergesort[C, A, B](self.ca, self.ab, self.bc).sort(right)
            return merge(self.ab.com(left_sorted), self.ca.com(right_sorted))
        else:
            self.ab.select(Step.DONE @ A)
            self.ca.select(Step.DONE @ A)
            return xs

    @entry
    @staticmethod
    def main() -> None:
        ab: Channel[object, A, B] = Channel.open("ab")
        bc: Channel[object, B, C] = Channel.open("bc")
        ca: Channel[object, C, A] = Channel.open("ca")
        result: At[list, A] = Mergesort[A, B, C](ab, bc, ca).sort([5, 3, 8, 1, 9, 2, 7] @ A)
        print("sorted", result)
