"""Karatsuba multiplication over three roles (after Choral's Karatsuba): the role holding the
numbers splits them and the three sub-products are computed recursively, each with the roles
rotated, so every role takes every part in turn."""

from enum import Enum
from pychoral import Role, At, Channel, Ch3, entry

A = Role("A")
B = Role("B")
C = Role("C")

class Step(Enum):
    RECUR = "RECUR"
    DONE = "DONE"

def split(n: int, m: int) -> int:
    return max(len(str(n)), len(str(m))) // 2

class Karatsuba(Ch3[A, B, C]):
    @staticmethod
    def multiply(ab: Channel[object, A, B], bc: Channel[object, B, C], ca: Channel[object, C, A],
                 n1: At[int, A], n2: At[int, A]) -> At[int, A]:
        if n1 < 10 or n2 < 10:
            ab.select(Step.DONE @ A)
            ca.select(Step.DONE @ A)
            return n1 * n2
        else:
            ab.select(Step.RECUR @ A)
            ca.select(Step.RECUR @ A)
            m: At[int, A] = split(n1, n2)
            h1: At[int, A] = n1 // 10 ** m
            l1: At[int, A] = n1 % 10 ** m
            h2: At[int, A] = n2 // 10 ** m
            l2: At[int, A] = n2 % 10 ** m
            z0: At[int, A] = Karatsuba[A, B, C].multiply(ab, bc, ca, l1, l2)
            z2b: At[int, B] = Karatsuba[B, C, A].multiply(bc, ca, ab, ab.com(h1), ab.com(h2))
            z1c: At[int, C] = Karatsuba[C, A, B].multiply(ca, ab, bc, ca.com(l1 + h1), ca.com(l2 + h2))
            z2: At[int, A] = ab.com(z2b)
            z1: At[int, A] = ca.com(z1c) - z2 - z0
            return z2 * 10 ** (2 * m) + z1 * 10 ** m + z0

    @entry
    @staticmethod
    def main() -> None:
        ab: Channel[object, A, B] = Channel.open("ab")
        bc: Channel[object, B, C] = Channel.open("bc")
        ca: Channel[object, C, A] = Channel.open("ca")
        r: At[int, A] = Karatsuba[A, B, C].multiply(ab, bc, ca, 1234 @ A, 5678 @ A)
        print("1234 * 5678 =", r, r == 1234 * 5678)
