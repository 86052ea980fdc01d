"""Two-phase commit (Gray 1978): a coordinator asks two participants to prepare a transaction,
collects their votes, and tells both the outcome. Each participant votes locally (here: it can
only reserve up to its own limit)."""

from enum import Enum

from pychoral import Ch3, Channel, Role, At, entry

Coord = Role("Coord")
P1 = Role("P1")
P2 = Role("P2")

LIMITS = {"P1": 100, "P2": 50}


class Outcome(Enum):
    COMMIT = "COMMIT"
    ABORT = "ABORT"


def vote(who: str, amount: int) -> bool:
    return amount <= LIMITS[who]


class TwoPhaseCommit(Ch3[Coord, P1, P2]):
    def __init__(self, c1: Channel[object, Coord, P1], c2: Channel[object, Coord, P2]) -> None:
        self.c1 = c1
        self.c2 = c2

    def run(self, tx: At[str, Coord], amount: At[int, Coord]) -> At[bool, Coord]:
        # Phase 1: prepare and vote.
        tx1: At[str, P1] = self.c1.com(tx)
        a1: At[int, P1] = self.c1.com(amount)
        tx2: At[str, P2] = self.c2.com(tx)
        a2: At[int, P2] = self.c2.com(amount)
        yes1: At[bool, Coord] = self.c1.com(vote("P1", a1))
        yes2: At[bool, Coord] = self.c2.com(vote("P2", a2))
        # Phase 2: the decision, announced to both.
        if yes1 and yes2:
            self.c1.select(Outcome.COMMIT @ Coord)
            self.c2.select(Outcome.COMMIT @ Coord)
            print("P1 commits", tx1)
            print("P2 commits", tx2)
            return True
        else:
            self.c1.select(Outcome.ABORT @ Coord)
            self.c2.select(Outcome.ABORT @ Coord)
            print("P1 rolls back", tx1)
            print("P2 rolls back", tx2)
            return False

    @entry
    @staticmethod
    def main() -> None:
        c1: Channel[object, Coord, P1] = Channel.open("coord_p1")
        c2: Channel[object, Coord, P2] = Channel.open("coord_p2")
        tpc = TwoPhaseCommit[Coord, P1, P2](c1, c2)
        ok: At[bool, Coord] = tpc.run("tx-1" @ Coord, 40 @ Coord)
        print("tx-1 committed:", ok)
        ok = tpc.run("tx-2" @ Coord, 80 @ Coord)
        print("tx-2 committed:", ok)
