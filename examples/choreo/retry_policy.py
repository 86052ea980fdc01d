"""A fetch loop whose retry policy is a choreography passed in (higher-order, with subclasses):
the client asks a flaky server for a page until it succeeds or the policy gives up. `Patient`
and `Impatient` override `again` of `Policy[Client, Server]`; the loop informs the server of each
decision with a selection, so both roles leave the loop together."""

from enum import Enum

from pychoral import Ch2, Channel, Role, At, entry

Client = Role("Client")
Server = Role("Server")

FAILS_BEFORE_SUCCESS = 2


class Next(Enum):
    TRY = "TRY"
    STOP = "STOP"


class Policy(Ch2[Client, Server]):
    def __init__(self, limit: At[int, Client]) -> None:
        self.limit = limit

    def again(self, tries: At[int, Client]) -> At[bool, Client]:
        return tries < self.limit


class Patient(Policy[Client, Server]):
    pass


class Impatient(Policy[Client, Server]):
    def again(self, tries: At[int, Client]) -> At[bool, Client]:
        return tries < 1


class Fetch(Ch2[Client, Server]):
    @staticmethod
    def get(ch: Channel[object, Client, Server], page: At[str, Client], policy: Policy[Client, Server]) -> None:
        tries: At[int, Client] = 0 @ Client
        served: At[int, Server] = 0 @ Server
        ok: At[bool, Client] = False @ Client
        go: At[bool, Client] = policy.again(tries)
        while go:
            ch.select(Next.TRY @ Client)
            want: At[str, Server] = ch.com(page)
            served += 1
            ok = ch.com(served > FAILS_BEFORE_SUCCESS)
            tries += 1
            more: At[bool, Client] = policy.again(tries)
            go = more and not ok
        else:
            ch.select(Next.STOP @ Client)
        print(page, "fetched" if ok else "given up", "after", tries, "tries")
        print("served", served, "requests")

    @entry
    @staticmethod
    def main() -> None:
        ch: Channel[object, Client, Server] = Channel.open("client_server")
        Fetch[Client, Server].get(ch, "/index" @ Client, Impatient[Client, Server](5 @ Client))
        Fetch[Client, Server].get(ch, "/about" @ Client, Patient[Client, Server](5 @ Client))
