"""pychoral — write a multiparty protocol as one Python program (a choreography).

    from pychoral import Role, At, Channel, Ch2, entry
    A = Role("A"); B = Role("B")
    class Hello(Ch2[A, B]):
        @entry
        @staticmethod
        def main() -> None:
            ch: Channel[object, A, B] = Channel.open("ab")
            x: At[str, B] = ch.com("hi" @ A)
            print(x)

`ranklift choreo check` checks roles and knowledge of choice; `ranklift choreo project` writes one
class per role; `ranklift choreo run` runs them (threads, or one process per role over TCP).

Imported directly, these names erase roles: `e @ R` is `e`, `C[A, B]` is `C`, a channel returns
what it is given. A choreography then runs centrally as an ordinary program — the reference run its
projections are compared with.
"""

from pychoral_rt import (  # noqa: F401  (re-exported authoring names)
    At,
    Ch1,
    Ch2,
    Ch3,
    Ch4,
    Ch5,
    Ch6,
    Ch7,
    Ch8,
    Ch9,
    Channel,
    Choreography,
    DiChannel,
    Role,
    entry,
)

__all__ = [
    "Role", "At", "Channel", "DiChannel", "Choreography", "entry",
    "Ch1", "Ch2", "Ch3", "Ch4", "Ch5", "Ch6", "Ch7", "Ch8", "Ch9",
]
