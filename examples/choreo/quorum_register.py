"""A replicated register with majority quorums (ABD-style, Attiya, Bar-Noy and Dolev): the
client writes a (timestamp, value) pair to three replicas, each of which keeps it only if its
timestamp is newer; a read asks all three and returns the newest value a majority (two) has.
Replica R3 misses the second write (it is "partitioned" for it), and the read still returns
the newest value, because any two replicas include one that has it."""

from pychoral import Ch4, Channel, Role, At, entry

Client = Role("Client")
R1 = Role("R1")
R2 = Role("R2")
R3 = Role("R3")


def newer(mine: tuple, theirs: tuple) -> tuple:
    return theirs if theirs[0] > mine[0] else mine


def majority(replies: list) -> tuple:
    """The newest (timestamp, value) held by at least two of the three replies."""
    best = (0, None)
    for r in replies:
        if sum(1 for x in replies if x[0] >= r[0]) >= 2 and r[0] > best[0]:
            best = r
    return best


class Register(Ch4[Client, R1, R2, R3]):
    def __init__(self, c1: Channel[object, Client, R1], c2: Channel[object, Client, R2],
                 c3: Channel[object, Client, R3]) -> None:
        self.c1 = c1
        self.c2 = c2
        self.c3 = c3

    def write(self, ts: At[int, Client], value: At[str, Client], reach3: At[bool, Client],
              s1: At[list, R1], s2: At[list, R2], s3: At[list, R3]) -> None:
        w1: At[tuple, R1] = self.c1.com((ts, value))
        s1[0] = newer(s1[0], w1)
        w2: At[tuple, R2] = self.c2.com((ts, value))
        s2[0] = newer(s2[0], w2)
        # R3 is cut off from this write: it receives the pair and drops it.
        w3: At[tuple, R3] = self.c3.com((ts, value) if reach3 else (0, None))
        s3[0] = newer(s3[0], w3)
        print("wrote", value, "at", ts)

    def read(self, s1: At[list, R1], s2: At[list, R2], s3: At[list, R3]) -> At[tuple, Client]:
        a: At[tuple, Client] = self.c1.com(s1[0])
        b: At[tuple, Client] = self.c2.com(s2[0])
        c: At[tuple, Client] = self.c3.com(s3[0])
        return majority([a, b, c])

    @entry
    @staticmethod
    def main() -> None:
        c1: Channel[object, Client, R1] = Channel.open("c1")
        c2: Channel[object, Client, R2] = Channel.open("c2")
        c3: Channel[object, Client, R3] = Channel.open("c3")
        reg: Register[Client, R1, R2, R3] = Register[Client, R1, R2, R3](c1, c2, c3)
        s1: At[list, R1] = [(0, None)] @ R1
        s2: At[list, R2] = [(0, None)] @ R2
        s3: At[list, R3] = [(0, None)] @ R3
        reg.write(1 @ Client, "blue" @ Client, True @ Client, s1, s2, s3)
        reg.write(2 @ Client, "green" @ Client, False @ Client, s1, s2, s3)
        print("read", reg.read(s1, s2, s3))
        print("R1 holds", s1[0])
        print("R2 holds", s2[0])
        print("R3 holds", s3[0])
