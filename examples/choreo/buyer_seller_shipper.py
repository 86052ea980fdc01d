"""Buyer, Seller and Shipper (the classic three-party protocol from the session-types literature):
the buyer asks for a quote and decides; the seller, informed by the buyer, forwards the decision
to the shipper, who never talks to the buyer's decision directly (a forwarded choice)."""

from enum import Enum

from pychoral import Ch3, Channel, Role, At, entry

Buyer = Role("Buyer")
Seller = Role("Seller")
Shipper = Role("Shipper")

CATALOGUE = {"chair": 45, "desk": 180}


class Decision(Enum):
    ACCEPT = "ACCEPT"
    REJECT = "REJECT"


class BuyerSellerShipper(Ch3[Buyer, Seller, Shipper]):
    def __init__(self, bs: Channel[object, Buyer, Seller], ss: Channel[object, Seller, Shipper]) -> None:
        self.bs = bs
        self.ss = ss

    def order(self, item: At[str, Buyer], budget: At[int, Buyer], address: At[str, Buyer]) -> At[str, Buyer]:
        wanted: At[str, Seller] = self.bs.com(item)
        quote: At[int, Buyer] = self.bs.com(CATALOGUE[wanted])
        if quote <= budget:
            self.bs.select(Decision.ACCEPT @ Buyer)
            self.ss.select(Decision.ACCEPT @ Seller)
            to: At[str, Seller] = self.bs.com(address)
            parcel: At[tuple, Shipper] = self.ss.com((wanted, to) @ Seller)
            print("Shipper ships", parcel[0], "to", parcel[1])
            eta: At[int, Seller] = self.ss.com(len(parcel[1]) % 5 + 1)
            days: At[int, Buyer] = self.bs.com(eta)
            return item + " arrives in " + str(days) + " days"
        else:
            self.bs.select(Decision.REJECT @ Buyer)
            self.ss.select(Decision.REJECT @ Seller)
            print("Seller lost a sale of", wanted)
            return item + " is over budget (" + str(quote) + ")"

    @entry
    @staticmethod
    def main() -> None:
        bs: Channel[object, Buyer, Seller] = Channel.open("buyer_seller")
        ss: Channel[object, Seller, Shipper] = Channel.open("seller_shipper")
        p = BuyerSellerShipper[Buyer, Seller, Shipper](bs, ss)
        print(p.order("chair" @ Buyer, 50 @ Buyer, "12 Elm St" @ Buyer))
        print(p.order("desk" @ Buyer, 50 @ Buyer, "12 Elm St" @ Buyer))
