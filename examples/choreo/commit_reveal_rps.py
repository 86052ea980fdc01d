"""Rock-paper-scissors over a network, made fair by commitments: each player first sends a
SHA-256 commitment to its move and a secret nonce, and reveals the move only after it has the
other's commitment, so nobody can choose after seeing the other's move. A referee checks that
each reveal matches its commitment and announces the result to both; a round whose reveal does
not match is forfeited (Mallory tries to change her move in the second round)."""

import hashlib
from enum import Enum

from pychoral import Ch3, Channel, Role, At, entry

Alice = Role("Alice")
Mallory = Role("Mallory")
Referee = Role("Referee")

BEATS = {"rock": "scissors", "paper": "rock", "scissors": "paper"}


class Outcome(Enum):
    FAIR = "FAIR"
    CHEAT = "CHEAT"


def commit(move: str, nonce: str) -> str:
    return hashlib.sha256((nonce + ":" + move).encode("utf-8")).hexdigest()


def winner(a: str, m: str) -> str:
    if a == m:
        return "draw"
    return "Alice" if BEATS[a] == m else "Mallory"


class Game(Ch3[Alice, Mallory, Referee]):
    def __init__(self, ar: Channel[object, Alice, Referee], mr: Channel[object, Mallory, Referee]) -> None:
        self.ar = ar
        self.mr = mr

    def round(self, a_move: At[str, Alice], a_nonce: At[str, Alice], m_move: At[str, Mallory],
              m_nonce: At[str, Mallory], m_reveal: At[str, Mallory]) -> None:
        ca: At[str, Referee] = self.ar.com(commit(a_move, a_nonce))
        cm: At[str, Referee] = self.mr.com(commit(m_move, m_nonce))
        ra: At[tuple, Referee] = self.ar.com((a_move, a_nonce))
        rm: At[tuple, Referee] = self.mr.com((m_reveal, m_nonce))
        if commit(rm[0], rm[1]) == cm and commit(ra[0], ra[1]) == ca:
            self.ar.select(Outcome.FAIR @ Referee)
            self.mr.select(Outcome.FAIR @ Referee)
            result: At[str, Referee] = winner(ra[0], rm[0])
            print("Alice hears:", self.ar.com(result))
            print("Mallory hears:", self.mr.com(result))
        else:
            self.ar.select(Outcome.CHEAT @ Referee)
            self.mr.select(Outcome.CHEAT @ Referee)
            print("Alice hears:", self.ar.com("Mallory's reveal does not match her commitment: Alice wins" @ Referee))
            print("Mallory hears:", self.mr.com("forfeit" @ Referee))

    @entry
    @staticmethod
    def main() -> None:
        ar: Channel[object, Alice, Referee] = Channel.open("alice_referee")
        mr: Channel[object, Mallory, Referee] = Channel.open("mallory_referee")
        g: Game[Alice, Mallory, Referee] = Game[Alice, Mallory, Referee](ar, mr)
        g.round("rock" @ Alice, "n1" @ Alice, "scissors" @ Mallory, "k1" @ Mallory, "scissors" @ Mallory)
        g.round("paper" @ Alice, "n2" @ Alice, "rock" @ Mallory, "k2" @ Mallory, "scissors" @ Mallory)
