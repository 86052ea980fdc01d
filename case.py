from pychoral import Role, At, Channel, Ch2, entry

A = Role("A")
B = Role("B")

DOCS = ["x", "y", "z"]


def count(docs: list) -> int:
    return len(docs)


class T(Ch2[A, B]):
    @entry
    @staticmethod
    def main() -> None:
        ch: Channel[object, A, B] = Channel.open("ab")
        r: At[int, A] = 3 @ A
        q: At[int, B] = 4 @ B
        t: At[list, A] = [1, 2, 3, 4] @ A
        v = str(r).zfill(q)
        print(v)
