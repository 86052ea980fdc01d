"""A `while` loop driven by one role (PyChoral v1.1): the Launcher counts down and tells the Pad
and the Observer, through a forwarded selection, whether another round follows; the `else:`
clause runs once the condition is false, with a label of its own."""

from enum import Enum

from pychoral import Ch3, Channel, Role, At, entry

Launcher = Role("Launcher")
Pad = Role("Pad")
Observer = Role("Observer")


class Round(Enum):
    TICK = "TICK"
    LIFTOFF = "LIFTOFF"


class Countdown(Ch3[Launcher, Pad, Observer]):
    @staticmethod
    def run(lp: Channel[object, Launcher, Pad], po: Channel[object, Pad, Observer], n: At[int, Launcher]) -> At[int, Observer]:
        seen: At[int, Observer] = 0
        while n > 0:
            lp.select(Round.TICK @ Launcher)
            po.select(Round.TICK @ Pad)
            t: At[int, Pad] = lp.com(n)
            print("pad checks", t)
            seen += po.com(t)
            n -= 1
        else:
            lp.select(Round.LIFTOFF @ Launcher)
            po.select(Round.LIFTOFF @ Pad)
            print("launcher: liftoff" @ Launcher)
            print("pad: clear" @ Pad)
        return seen

    @entry
    @staticmethod
    def main() -> None:
        lp: Channel[object, Launcher, Pad] = Channel.open("lp")
        po: Channel[object, Pad, Observer] = Channel.open("po")
        total: At[int, Observer] = Countdown[Launcher, Pad, Observer].run(lp, po, 3 @ Launcher)
        print("observer saw", total)
