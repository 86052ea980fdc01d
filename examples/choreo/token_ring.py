"""A token ring of three roles: for a fixed number of rounds (a role-free `for` loop every role
runs), the token travels A -> B -> C -> A and each holder adds its weight to it."""

from pychoral import Ch3, Channel, Role, At, entry

A = Role("A")
B = Role("B")
C = Role("C")

ROUNDS = 3
WEIGHTS = {"A": 1, "B": 10, "C": 100}


class TokenRing(Ch3[A, B, C]):
    def __init__(self, ab: Channel[object, A, B], bc: Channel[object, B, C], ca: Channel[object, C, A]) -> None:
        self.ab = ab
        self.bc = bc
        self.ca = ca

    def circulate(self, token: At[int, A]) -> At[int, A]:
        for r in range(ROUNDS):
            at_b: At[int, B] = self.ab.com(token + WEIGHTS["A"])
            print("round", r, "B holds", at_b)
            at_c: At[int, C] = self.bc.com(at_b + WEIGHTS["B"])
            print("round", r, "C holds", at_c)
            token = self.ca.com(at_c + WEIGHTS["C"])
            print("round", r, "A holds", token)
        return token

    @entry
    @staticmethod
    def main() -> None:
        ab: Channel[object, A, B] = Channel.open("ab")
        bc: Channel[object, B, C] = Channel.open("bc")
        ca: Channel[object, C, A] = Channel.open("ca")
        final: At[int, A] = TokenRing[A, B, C](ab, bc, ca).circulate(0 @ A)
        print("final token", final)
