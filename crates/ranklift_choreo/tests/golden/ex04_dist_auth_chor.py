# Projected by `ranklift choreo project` from ex04_dist_auth.py: one class per role. Do not edit.
import pychoral_rt as rt
from pychoral_rt import Unit
import hashlib
from enum import Enum
from typing import Optional
from pychoral_rt import Role, At, Channel, Ch2, Ch3, entry

Client = Role("Client")
Service = Role("Service")
IP = Role("IP")
A = Role("A")
B = Role("B")

def calc_hash(salt: str, pwd: str) -> str:          # plain (non-choreographic) helper
    return hashlib.sha256((salt + pwd).encode()).hexdigest()[:8]

REGISTRY = {"alice": ("s1", calc_hash("s1", "pw123"))}   # consulted only at IP

def get_salt(user: str) -> str:
    return REGISTRY[user][0] if user in REGISTRY else "none"

def check(user: str, h: str) -> bool:
    return user in REGISTRY and REGISTRY[user][1] == h

class AuthBranch(Enum):
    OK = "OK"
    KO = "KO"

class AuthResult_A:
    """Role A of `AuthResult` (projected by ranklift choreo)."""

    def __init__(self, t1):
        self.t1 = t1  # L29


class AuthResult_B:
    """Role B of `AuthResult` (projected by ranklift choreo)."""

    def __init__(self, t2):
        self.t2 = t2  # L30

class DistAuth_Client:
    """Role Client of `DistAuth` (projected by ranklift choreo)."""

    def __init__(self, ch_client_ip):
        self.ch_client_ip = ch_client_ip  # L35

    def authenticate(self, username, password):
        self.ch_client_ip.com(username)  # L39
        salt = self.ch_client_ip.com()  # L40
        self.ch_client_ip.com(calc_hash(salt, password))  # L41
        match self.ch_client_ip.select():  # L43
            case AuthBranch.OK:
                return AuthResult_A(self.ch_client_ip.com())  # L46
            case AuthBranch.KO:
                return AuthResult_A(None)  # L50
            case _unexpected:
                raise rt.ProtocolError(f"DistAuth.authenticate at Client: unexpected label {_unexpected!r}")


class DistAuth_Service:
    """Role Service of `DistAuth` (projected by ranklift choreo)."""

    def __init__(self, ch_service_ip):
        self.ch_service_ip = ch_service_ip  # L36

    def authenticate(self):
        match self.ch_service_ip.select():  # L44
            case AuthBranch.OK:
                return AuthResult_B(self.ch_service_ip.com())  # L46
            case AuthBranch.KO:
                return AuthResult_B(None)  # L50
            case _unexpected:
                raise rt.ProtocolError(f"DistAuth.authenticate at Service: unexpected label {_unexpected!r}")


class DistAuth_IP:
    """Role IP of `DistAuth` (projected by ranklift choreo)."""

    def __init__(self, ch_client_ip, ch_service_ip):
        self.ch_client_ip = ch_client_ip  # L35
        self.ch_service_ip = ch_service_ip  # L36

    def authenticate(self):
        user = self.ch_client_ip.com()  # L39
        self.ch_client_ip.com(get_salt(user))  # L40
        valid = check(user, self.ch_client_ip.com())  # L41
        if valid:  # L42
            self.ch_client_ip.select(AuthBranch.OK)  # L43
            self.ch_service_ip.select(AuthBranch.OK)  # L44
            t = "tok-" + user  # L45
            self.ch_client_ip.com(t)  # L46
            self.ch_service_ip.com(t)  # L46
            return  # L46
        else:
            self.ch_client_ip.select(AuthBranch.KO)  # L48
            self.ch_service_ip.select(AuthBranch.KO)  # L49
            return  # L50

class DistAuthMain_Client:
    """Role Client of `DistAuthMain` (projected by ranklift choreo)."""

    @staticmethod
    @rt.entry
    def main():
        c1 = rt.open_channel("client_ip", "Client", "IP")  # L56
        auth = DistAuth_Client(c1)  # L58
        r1 = auth.authenticate("alice", "pw123")  # L59
        print("Client token:", r1.t1)  # L60
        r2 = auth.authenticate("alice", "wrong")  # L62
        print("Client token:", r2.t1)  # L63


class DistAuthMain_Service:
    """Role Service of `DistAuthMain` (projected by ranklift choreo)."""

    @staticmethod
    @rt.entry
    def main():
        c2 = rt.open_channel("service_ip", "Service", "IP")  # L57
        auth = DistAuth_Service(c2)  # L58
        r1 = auth.authenticate()  # L59
        print("Service token:", r1.t2)  # L61
        r2 = auth.authenticate()  # L62
        print("Service token:", r2.t2)  # L64


class DistAuthMain_IP:
    """Role IP of `DistAuthMain` (projected by ranklift choreo)."""

    @staticmethod
    @rt.entry
    def main():
        c1 = rt.open_channel("client_ip", "IP", "Client")  # L56
        c2 = rt.open_channel("service_ip", "IP", "Service")  # L57
        auth = DistAuth_IP(c1, c2)  # L58
        auth.authenticate()  # L59
        auth.authenticate()  # L62


# The roles of each choreography (read by pychoral_rt's runners).
__pychoral_roles__ = {"AuthResult": ["A", "B"], "DistAuth": ["Client", "Service", "IP"], "DistAuthMain": ["Client", "Service", "IP"]}
__pychoral_source__ = "<the choreography's path>"
__pychoral_lines__ = [(4, 1, 3), (8, 5, 22), (42, 31, 1), (100, 51, 1)]
