"""A primary/backup key-value store: the client sends operations to the primary; writes are
replicated to the backup before the primary acknowledges them, reads are served by the primary
alone. The client behaves the same in both cases (it waits for one reply), so the primary only
has to inform the backup of its choice."""

from enum import Enum

from pychoral import Ch3, Channel, Role, At, entry

Client = Role("Client")
Primary = Role("Primary")
Backup = Role("Backup")

OPS = [("put", "x", "1"), ("put", "y", "2"), ("get", "x", ""), ("put", "x", "3"), ("get", "x", "")]


class Kind(Enum):
    REPLICATE = "REPLICATE"
    NOTHING = "NOTHING"


class KVStore(Ch3[Client, Primary, Backup]):
    def __init__(self, cp: Channel[object, Client, Primary], pb: Channel[object, Primary, Backup]) -> None:
        self.cp = cp
        self.pb = pb

    def serve(self, store: At[dict, Primary], replica: At[dict, Backup]) -> None:
        for op in OPS:
            req: At[tuple, Primary] = self.cp.com(op @ Client)
            if req[0] == "put":
                self.pb.select(Kind.REPLICATE @ Primary)
                store[req[1]] = req[2]
                entry_b: At[tuple, Backup] = self.pb.com((req[1], req[2]) @ Primary)
                replica[entry_b[0]] = entry_b[1]
                ack: At[str, Primary] = self.pb.com("ack " + entry_b[0])
                reply: At[str, Client] = self.cp.com("ok (" + ack + ")")
                print("client:", reply)
            else:
                self.pb.select(Kind.NOTHING @ Primary)
                reply = self.cp.com(store.get(req[1], "missing"))
                print("client:", reply)
        print("backup holds", sorted(replica.items()))
        print("primary holds", sorted(store.items()))

    @entry
    @staticmethod
    def main() -> None:
        cp: Channel[object, Client, Primary] = Channel.open("client_primary")
        pb: Channel[object, Primary, Backup] = Channel.open("primary_backup")
        KVStore[Client, Primary, Backup](cp, pb).serve({} @ Primary, {} @ Backup)
