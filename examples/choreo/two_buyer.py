"""The two-buyer protocol (Honda, Yoshida and Carbone, "Multiparty asynchronous session types",
POPL 2008): Buyer1 asks the Seller for a title; the Seller quotes the price to both buyers;
Buyer1 says how much it will pay; Buyer2 accepts if it can pay the rest, and then sends its
address and gets a delivery date, or it quits. Only the Seller must learn Buyer2's choice."""

from enum import Enum

from pychoral import Ch3, Channel, Role, At, entry

Buyer1 = Role("Buyer1")
Buyer2 = Role("Buyer2")
Seller = Role("Seller")

PRICES = {"War and Peace": 150, "Ulysses": 300}
LIMIT2 = 99


class Answer(Enum):
    OK = "OK"
    QUIT = "QUIT"


class TwoBuyer(Ch3[Buyer1, Buyer2, Seller]):
    def __init__(self, b1s: Channel[object, Buyer1, Seller], b2s: Channel[object, Buyer2, Seller],
                 b12: Channel[object, Buyer1, Buyer2]) -> None:
        self.b1s = b1s
        self.b2s = b2s
        self.b12 = b12

    def buy(self, title: At[str, Buyer1], share1: At[int, Buyer1]) -> None:
        wanted: At[str, Seller] = self.b1s.com(title)
        quote1: At[int, Buyer1] = self.b1s.com(PRICES[wanted])
        quote2: At[int, Buyer2] = self.b2s.com(PRICES[wanted])
        print("quote", quote1, "for", title)
        contribution: At[int, Buyer2] = self.b12.com(min(share1, quote1))
        if quote2 - contribution <= LIMIT2:
            self.b2s.select(Answer.OK @ Buyer2)
            address: At[str, Seller] = self.b2s.com("1 Infinite Loop" @ Buyer2)
            date: At[str, Buyer2] = self.b2s.com(("3 days to " + address) @ Seller)
            print("Buyer2 pays", quote2 - contribution, "delivery in", date)
        else:
            self.b2s.select(Answer.QUIT @ Buyer2)
            print("Buyer2 quits: would pay", quote2 - contribution)
            print("no sale of", wanted)

    @entry
    @staticmethod
    def main() -> None:
        b1s: Channel[object, Buyer1, Seller] = Channel.open("b1s")
        b2s: Channel[object, Buyer2, Seller] = Channel.open("b2s")
        b12: Channel[object, Buyer1, Buyer2] = Channel.open("b12")
        p: TwoBuyer[Buyer1, Buyer2, Seller] = TwoBuyer[Buyer1, Buyer2, Seller](b1s, b2s, b12)
        p.buy("War and Peace" @ Buyer1, 60 @ Buyer1)
        p.buy("Ulysses" @ Buyer1, 100 @ Buyer1)
