"""Generate a large PyChoral choreography for bench/choreo.sh.

Usage: python3 bench/gen_choreo.py OUT.py [LINES]   (default 2000)

Three roles and many role classes; every method mixes communications, a choice at one role told
to the others with selections (and merged at the role that only forwards), a `while` loop driven by
selections, local computation and a choreographic call to the previous method, so checking and
projecting it exercises every pass. The result runs (the benchmark runs it once with threads).
"""

import sys

HEADER = '''from enum import Enum

from pychoral import Ch3, Channel, Role, At, entry

A = Role("A")
B = Role("B")
C = Role("C")


class Choice(Enum):
    HI = "HI"
    LO = "LO"


def mix(a: int, b: int) -> int:
    return (a * 31 + b) % 1000
'''

METHOD = '''
    def step{j}(self, x: At[int, A]) -> At[int, A]:
        y: At[int, B] = self.ab.com(mix(x, {j}))
        z: At[int, C] = self.bc.com(y * 2 + 1)
        if z % 3 == {r}:
            self.ca.select(Choice.HI @ C)
            self.bc.select(Choice.HI @ C)
            w: At[int, A] = self.ca.com(z - 1)
            print("{k}.{j} hi", w)
        else:
            self.ca.select(Choice.LO @ C)
            self.bc.select(Choice.LO @ C)
            w = self.ca.com(z + 1)
        n: At[int, A] = 0
        while n < 2:
            self.ab.select(Choice.HI @ A)
            self.ca.select(Choice.HI @ A)
            v: At[int, B] = self.ab.com(mix(w, n))
            acc: At[int, C] = self.bc.com(v)
            n += 1
        else:
            self.ab.select(Choice.LO @ A)
            self.ca.select(Choice.LO @ A)
        return {ret}
'''


def main():
    out, target = sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 2000
    parts = [HEADER]
    lines = HEADER.count("\n")
    k = 0
    classes = []
    while lines < target - 20:
        parts.append(
            f"\n\nclass Proto{k}(Ch3[A, B, C]):\n"
            "    def __init__(self, ab: Channel[object, A, B], bc: Channel[object, B, C], "
            "ca: Channel[object, C, A]) -> None:\n"
            "        self.ab = ab\n        self.bc = bc\n        self.ca = ca\n"
        )
        lines += 7
        j = 0
        while j < 10 and lines < target - 20:
            ret = f"self.step{j - 1}(mix(w, 1))" if j > 0 else "w"
            m = METHOD.format(j=j, k=k, r=j % 3, ret=ret)
            parts.append(m)
            lines += m.count("\n")
            j += 1
        classes.append((k, j))
        k += 1
    parts.append(
        "\n\nclass Main(Ch3[A, B, C]):\n    @entry\n    @staticmethod\n    def main() -> None:\n"
        '        ab: Channel[object, A, B] = Channel.open("ab")\n'
        '        bc: Channel[object, B, C] = Channel.open("bc")\n'
        '        ca: Channel[object, C, A] = Channel.open("ca")\n'
        "        total: At[int, A] = 0\n"
    )
    for k, j in classes:
        parts.append(
            f"        total = total + Proto{k}[A, B, C](ab, bc, ca).step{j - 1}(total + {k})\n"
        )
    parts.append('        print("total", total)\n')
    with open(out, "w") as f:
        f.write("".join(parts))


if __name__ == "__main__":
    main()
