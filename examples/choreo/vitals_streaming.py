"""Vitals streaming (after Choral's VitalsStreaming): a device streams readings while it has any;
the gatherer checks each one locally. The check needs no selection: only the gatherer acts in
its branches."""

from enum import Enum
from dataclasses import dataclass
from pychoral import Role, At, Channel, Ch2, entry

Device = Role("Device")
Gatherer = Role("Gatherer")

@dataclass
class Vitals:
    id: str
    heart: int

class More(Enum):
    YES = "YES"
    NO = "NO"

READINGS = [Vitals("p1", 70), Vitals("p2", 190), Vitals("p3", 60)]

def pseudo(v: Vitals) -> Vitals:
    return Vitals("anon-" + v.id[::-1], v.heart)

class VitalsStreaming(Ch2[Device, Gatherer]):
    @staticmethod
    def stream(ch: Channel[object, Device, Gatherer], i: At[int, Device]) -> None:
        while i < len(READINGS):
            ch.select(More.YES @ Device)
            v: At[Vitals, Gatherer] = ch.com(READINGS[i] @ Device)
            if v.heart > 150:
                print("ALERT", pseudo(v).id, v.heart)
            else:
                print("ok", v.heart)
            i += 1
        else:
            ch.select(More.NO @ Device)
            print("stream done" @ Gatherer)

    @entry
    @staticmethod
    def main() -> None:
        ch: Channel[object, Device, Gatherer] = Channel.open("vitals")
        VitalsStreaming[Device, Gatherer].stream(ch, 0 @ Device)
