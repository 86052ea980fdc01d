"""Single sign-on with retries (after Choral's SSOWithRetry): the identity provider lets the
client try up to three passwords in a `while` loop whose exit (the `else:` clause) holds a second
choice, OK or FAIL, that the service learns too and that decides what it returns."""

from enum import Enum
from pychoral import Role, At, Channel, Ch3, entry

Client = Role("Client")
Service = Role("Service")
IP = Role("IP")

class Auth(Enum):
    RETRY = "RETRY"
    OK = "OK"
    FAIL = "FAIL"

PASSWORDS = ["x", "y", "secret"]

class SSOWithRetry(Ch3[Client, Service, IP]):
    @staticmethod
    def login(ci: Channel[object, Client, IP], si: Channel[object, Service, IP], tries: At[int, IP], attempt: At[int, Client]) -> At[bool, Service]:
        ok: At[bool, IP] = False
        while not ok and tries < 3:
            ci.select(Auth.RETRY @ IP)
            si.select(Auth.RETRY @ IP)
            pw: At[str, IP] = ci.com(PASSWORDS[attempt])
            attempt += 1
            ok = pw == "secret"
            tries += 1
        else:
            if ok:
                ci.select(Auth.OK @ IP)
                si.select(Auth.OK @ IP)
                print("Client: logged in" @ Client)
                return si.com(True @ IP)
            else:
                ci.select(Auth.FAIL @ IP)
                si.select(Auth.FAIL @ IP)
                print("Client: locked out" @ Client)
                return si.com(False @ IP)

    @entry
    @staticmethod
    def main() -> None:
        ci: Channel[object, Client, IP] = Channel.open("ci")
        si: Channel[object, Service, IP] = Channel.open("si")
        r: At[bool, Service] = SSOWithRetry[Client, Service, IP].login(ci, si, 0 @ IP, 0 @ Client)
        print("Service grants access:", r)
