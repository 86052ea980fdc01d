"""The higher-order bookseller (HasChor's `bookseller'`): the buyer asks the seller for a book's
price, then a *decision choreography passed in as an argument* decides whether to buy. Two
decisions share one interface: `Alone` (the buyer's budget decides) and `Split` (a second buyer
pays part of the price) — subclasses of `Decision[Buyer, Buyer2]`, chosen by the caller. The
seller learns the decision by a selection and ships the book or not."""

from enum import Enum

from pychoral import Ch2, Ch3, Channel, Role, At, entry

Buyer = Role("Buyer")
Seller = Role("Seller")
Buyer2 = Role("Buyer2")

CATALOGUE = {"Types and Programming Languages": 80, "Homotopy Type Theory": 120}
BUDGET = 100


class Verdict(Enum):
    BUY = "BUY"
    PASS = "PASS"


class Decision(Ch2[Buyer, Buyer2]):
    def __init__(self, bb: Channel[object, Buyer, Buyer2]) -> None:
        self.bb = bb

    def decide(self, price: At[int, Buyer]) -> At[bool, Buyer]:
        return price <= BUDGET


class Alone(Decision[Buyer, Buyer2]):
    pass


class Split(Decision[Buyer, Buyer2]):
    def decide(self, price: At[int, Buyer]) -> At[bool, Buyer]:
        asked: At[int, Buyer2] = self.bb.com(price)
        share: At[int, Buyer] = self.bb.com(asked // 2)
        print("Buyer2 pays", asked // 2)
        return price - share <= BUDGET


class Bookseller(Ch3[Buyer, Seller, Buyer2]):
    def __init__(self, bs: Channel[object, Buyer, Seller]) -> None:
        self.bs = bs

    def sell(self, title: At[str, Buyer], decision: Decision[Buyer, Buyer2]) -> None:
        wanted: At[str, Seller] = self.bs.com(title)
        price: At[int, Buyer] = self.bs.com(CATALOGUE[wanted])
        if decision.decide(price):
            self.bs.select(Verdict.BUY @ Buyer)
            when: At[str, Buyer] = self.bs.com(("shipped " + wanted) @ Seller)
            print(when)
        else:
            self.bs.select(Verdict.PASS @ Buyer)
            print("no sale:", wanted @ Seller)

    @entry
    @staticmethod
    def main() -> None:
        bs: Channel[object, Buyer, Seller] = Channel.open("buyer_seller")
        bb: Channel[object, Buyer, Buyer2] = Channel.open("buyer_buyer2")
        shop: Bookseller[Buyer, Seller, Buyer2] = Bookseller[Buyer, Seller, Buyer2](bs)
        for title in CATALOGUE:
            shop.sell(title @ Buyer, Alone[Buyer, Buyer2](bb))
        for title in CATALOGUE:
            shop.sell(title @ Buyer, Split[Buyer, Buyer2](bb))
