"""Diffie-Hellman key agreement (Choral's DiffieHellman example), then messages encrypted with
the shared key. Alice and Bob each keep a private exponent; only g^a mod p and g^b mod p cross
the channel, and each side computes the same key (g^b)^a = (g^a)^b mod p. The messages then
travel encrypted (XOR with a SHA-256 key stream) and are decrypted at the other end; each side
prints a fingerprint of its key, which must agree. (RFC 3526's 1536-bit MODP group; the
private exponents are fixed here so that the output is reproducible.)"""

import hashlib

from pychoral import Ch2, Channel, Role, At, entry

Alice = Role("Alice")
Bob = Role("Bob")

P = int(
    "FFFFFFFFFFFFFFFFC90FDAA22168C234C4C6628B80DC1CD129024E088A67CC74020BBEA63B139B22514A08798E3404DD"
    "EF9519B3CD3A431B302B0A6DF25F14374FE1356D6D51C245E485B576625E7EC6F44C42E9A637ED6B0BFF5CB6F406B7ED"
    "EE386BFB5A899FA5AE9F24117C4B1FE649286651ECE45B3DC2007CB8A163BF0598DA48361C55D39A69163FA8FD24CF5F"
    "83655D23DCA3AD961C62F356208552BB9ED529077096966D670C354E4ABC9804F1746C08CA237327FFFFFFFFFFFFFFFF",
    16,
)
G = 2


def keystream(key: int, n: int) -> bytes:
    out = b""
    block = 0
    while len(out) < n:
        out += hashlib.sha256(key.to_bytes(192, "big") + block.to_bytes(4, "big")).digest()
        block += 1
    return out[:n]


def encrypt(key: int, text: str) -> bytes:
    data = text.encode("utf-8")
    return bytes(x ^ y for x, y in zip(data, keystream(key, len(data))))


def decrypt(key: int, data: bytes) -> str:
    return bytes(x ^ y for x, y in zip(data, keystream(key, len(data)))).decode("utf-8")


def fingerprint(key: int) -> str:
    return hashlib.sha256(key.to_bytes(192, "big")).hexdigest()[:16]


class DiffieHellman(Ch2[Alice, Bob]):
    @staticmethod
    def agree(ch: Channel[object, Alice, Bob], a: At[int, Alice], b: At[int, Bob]) -> "SecureLink[Alice, Bob]":
        big_a: At[int, Bob] = ch.com(pow(G, a, P))
        big_b: At[int, Alice] = ch.com(pow(G, b, P))
        return SecureLink[Alice, Bob](ch, pow(big_b, a, P), pow(big_a, b, P))


class SecureLink(Ch2[Alice, Bob]):
    def __init__(self, ch: Channel[object, Alice, Bob], ka: At[int, Alice], kb: At[int, Bob]) -> None:
        self.ch = ch
        self.ka = ka
        self.kb = kb

    def to_bob(self, text: At[str, Alice]) -> At[str, Bob]:
        sealed: At[bytes, Bob] = self.ch.com(encrypt(self.ka, text))
        return decrypt(self.kb, sealed)

    def to_alice(self, text: At[str, Bob]) -> At[str, Alice]:
        sealed: At[bytes, Alice] = self.ch.com(encrypt(self.kb, text))
        return decrypt(self.ka, sealed)


class Chat(Ch2[Alice, Bob]):
    @entry
    @staticmethod
    def main() -> None:
        ch: Channel[object, Alice, Bob] = Channel.open("alice_bob")
        link: SecureLink[Alice, Bob] = DiffieHellman[Alice, Bob].agree(ch, 0x5EC12E7 @ Alice, 0xB0B5EC @ Bob)
        print("key", fingerprint(link.ka))
        print("key", fingerprint(link.kb))
        print("Bob reads:", link.to_bob("meet at noon" @ Alice))
        print("Alice reads:", link.to_alice("see you there" @ Bob))
