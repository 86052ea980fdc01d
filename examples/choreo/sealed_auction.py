"""A sealed-bid auction: the Auctioneer runs rounds while the reserve price is not met; in each
round both bidders bid (each decides locally from its own budget), the auctioneer compares, and
a nested choice tells the bidders who leads. The loop and both choices are announced with
selections; the bidders' loops are driven by the auctioneer's labels."""

from enum import Enum

from pychoral import Ch3, Channel, Role, At, entry

Auctioneer = Role("Auctioneer")
Ann = Role("Ann")
Bob = Role("Bob")


class Round(Enum):
    BID = "BID"
    CLOSE = "CLOSE"


class Lead(Enum):
    ANN = "ANN"
    BOB = "BOB"


def next_bid(budget: int, asked: int, step: int) -> int:
    return min(budget, asked + step)


class SealedAuction(Ch3[Auctioneer, Ann, Bob]):
    def __init__(self, ca: Channel[object, Auctioneer, Ann], cb: Channel[object, Auctioneer, Bob]) -> None:
        self.ca = ca
        self.cb = cb

    def run(self, reserve: At[int, Auctioneer], ann_budget: At[int, Ann], bob_budget: At[int, Bob]) -> At[int, Auctioneer]:
        best: At[int, Auctioneer] = 0
        while best < reserve:
            self.ca.select(Round.BID @ Auctioneer)
            self.cb.select(Round.BID @ Auctioneer)
            ask_a: At[int, Ann] = self.ca.com(best)
            ask_b: At[int, Bob] = self.cb.com(best)
            bid_a: At[int, Auctioneer] = self.ca.com(next_bid(ann_budget, ask_a, 30))
            bid_b: At[int, Auctioneer] = self.cb.com(next_bid(bob_budget, ask_b, 20))
            if bid_a >= bid_b:
                self.ca.select(Lead.ANN @ Auctioneer)
                self.cb.select(Lead.ANN @ Auctioneer)
                best = bid_a
                print("Ann leads" @ Ann)
            else:
                self.ca.select(Lead.BOB @ Auctioneer)
                self.cb.select(Lead.BOB @ Auctioneer)
                best = bid_b
                print("Bob leads" @ Bob)
            print("best bid so far", best)
        else:
            self.ca.select(Round.CLOSE @ Auctioneer)
            self.cb.select(Round.CLOSE @ Auctioneer)
            print("Ann: auction closed" @ Ann)
            print("Bob: auction closed" @ Bob)
        return best

    @entry
    @staticmethod
    def main() -> None:
        ca: Channel[object, Auctioneer, Ann] = Channel.open("auct_ann")
        cb: Channel[object, Auctioneer, Bob] = Channel.open("auct_bob")
        price: At[int, Auctioneer] = SealedAuction[Auctioneer, Ann, Bob](ca, cb).run(100 @ Auctioneer, 90 @ Ann, 150 @ Bob)
        print("sold for", price)
