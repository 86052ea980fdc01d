"""A client uploads a file record (a dataclass holding bytes) to a server, which checks it
against the digest the client computed and answers with a tuple. Shows the wire format: data
classes, bytes and tuples cross roles by value, threads and TCP alike."""

import hashlib
from dataclasses import dataclass
from enum import Enum

from pychoral import Ch2, Channel, Role, At, entry

Client = Role("Client")
Server = Role("Server")


@dataclass
class Upload:
    name: str
    data: bytes
    tags: tuple


class Verdict(Enum):
    STORED = "STORED"
    CORRUPT = "CORRUPT"


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:12]


class SecureUpload(Ch2[Client, Server]):
    @staticmethod
    def upload(ch: Channel[object, Client, Server], up: At[Upload, Client], claimed: At[str, Client]) -> At[tuple, Client]:
        got: At[Upload, Server] = ch.com(up)
        want: At[str, Server] = ch.com(claimed)
        if digest(got.data) == want:
            ch.select(Verdict.STORED @ Server)
            print("server stored", got.name, len(got.data), "bytes, tags", got.tags)
            return ch.com((True, digest(got.data)))
        else:
            ch.select(Verdict.CORRUPT @ Server)
            print("server refused", got.name)
            return ch.com((False, want))

    @entry
    @staticmethod
    def main() -> None:
        ch: Channel[object, Client, Server] = Channel.open("upload")
        good: At[Upload, Client] = Upload("a.txt", b"hello\x00world", ("text", "small")) @ Client
        r1: At[tuple, Client] = SecureUpload[Client, Server].upload(ch, good, digest(good.data))
        print("client got", r1)
        bad: At[Upload, Client] = Upload("b.bin", bytes(range(5)), ()) @ Client
        r2: At[tuple, Client] = SecureUpload[Client, Server].upload(ch, bad, "0" * 12 @ Client)
        print("client got", r2)
