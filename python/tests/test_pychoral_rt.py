"""Unit tests of the PyChoral runtime (stdlib unittest; run by `cargo test` through
crates/ranklift/tests/it/choreo.rs, or directly: `python3 -m unittest discover -s python/tests`)."""

import dataclasses
import enum
import json
import os
import socket
import struct
import subprocess
import sys
import threading
import time
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

import pychoral_rt as rt  # noqa: E402


class Color(enum.Enum):
    RED = "r"
    BLUE = "b"


@dataclasses.dataclass
class Point:
    x: int
    y: tuple


class NotData:
    pass


@dataclasses.dataclass
class Order:
    item: str
    qty: int
    price: float
    tags: "list[str]"
    note: "str | None" = None
    color: Color = Color.RED


def roundtrip(v):
    return rt.decode(json.loads(json.dumps(rt.encode(v), allow_nan=False)))


class WireFormat(unittest.TestCase):
    def test_received_dataclasses_have_their_declared_field_types(self):
        ok = Order("pen", 2, 1, ["a"], None, Color.BLUE)  # an int where a float is declared
        self.assertEqual(roundtrip(ok), ok)
        # What a sender running other code could put on the wire: the fields' values as JSON.
        def received(**fields):
            wire = rt.encode(Order("pen", 2, 1.5, ["a"]))
            wire["v"].update({k: rt.encode(v) for k, v in fields.items()})
            return rt.decode(wire)
        for field, bad in [("qty", "2"), ("qty", 2.5), ("item", 3), ("tags", ["a", 1]),
                           ("note", 7), ("color", "r"), ("price", "x")]:
            with self.assertRaises(rt.ProtocolError, msg=field) as e:
                received(**{field: bad})
            self.assertIn(f"Order.{field} is declared", str(e.exception))
        self.assertEqual(received(note="n").note, "n")

    def test_values_survive_with_their_types(self):
        values = [
            None, True, 0, -7, 2**70, 1.5, "héllo", [1, [2, "x"]], (1, (2, 3)), {"a": 1, 2: (3,)},
            {1, 2}, frozenset({"a"}), b"\x00\xffbytes", bytearray(b"ab"), Color.BLUE,
            Point(1, (2, Color.RED)), float("inf"), [(), {}],
        ]
        for v in values:
            got = roundtrip(v)
            self.assertEqual(got, v)
            self.assertIs(type(got), type(v))
        self.assertIs(roundtrip(Color.RED), Color.RED)
        nan = roundtrip(float("nan"))
        self.assertNotEqual(nan, nan)

    def test_choreography_classes_travel_without_their_module_name(self):
        # Roles deployed from per-role modules (`project --split`) name the choreography's
        # classes relative to the module each of them runs.
        rt._choreography = sys.modules[__name__]
        try:
            self.assertEqual(rt.encode(Color.RED), {"$": "enum", "t": ":Color", "v": "RED"})
            self.assertIs(roundtrip(Color.RED), Color.RED)
            self.assertEqual(roundtrip(Point(1, (2,))), Point(1, (2,)))
        finally:
            rt._choreography = None
        self.assertEqual(rt.encode(Color.RED)["t"], f"{__name__}:Color")

    def test_anything_else_is_refused_at_the_sender(self):
        class MyInt(int):
            pass

        for bad in [object(), NotData(), lambda: 1, MyInt(3), print, [1, object()], {"k": NotData()}]:
            with self.assertRaises(rt.EncodeError):
                rt.encode(bad)
        deep = []
        for _ in range(100):
            deep = [deep]
        with self.assertRaises(rt.EncodeError):
            rt.encode(deep)

    def test_malformed_values_raise_protocol_error_and_never_run_code(self):
        bad = [
            {"$": "nope", "v": 1},
            {"$": "dc", "t": "os:system", "v": {}},
            {"$": "dc", "t": "builtins:object", "v": {}},
            {"$": "enum", "t": f"{__name__}:Color", "v": "GREEN"},
            {"$": "enum", "t": "not_imported_module_xyz:Thing", "v": "A"},
            {"$": "dc", "t": f"{__name__}:Point", "v": {"x": 1, "y": [], "z": 3}},
            {"$": "bytes", "v": "***"},
            {"$": "dict", "v": [[1]]},
            {"no": "tag"},
        ]
        for b in bad:
            with self.assertRaises(rt.ProtocolError, msg=repr(b)):
                rt.decode(b)
        self.assertNotIn("not_imported_module_xyz", sys.modules)


class Channels(unittest.TestCase):
    def test_kind_mismatch_is_a_protocol_error(self):
        net = rt.LocalNetwork(["A", "B"])
        a = rt.ChannelEnd(net, "ab", "A", "B")
        b = rt.ChannelEnd(net, "ab", "B", "A")
        a.com(5)
        with self.assertRaises(rt.ProtocolError):
            b.select()

    def test_receivers_get_copies_and_fifo_order(self):
        net = rt.LocalNetwork(["A", "B"])
        a = rt.ChannelEnd(net, "ab", "A", "B")
        b = rt.ChannelEnd(net, "ab", "B", "A")
        sent = [1, 2]
        a.com(sent)
        a.com("second")
        sent.append(3)
        self.assertEqual(b.com(), [1, 2])
        self.assertEqual(b.com(), "second")

    def test_closed_peer_and_timeout(self):
        net = rt.LocalNetwork(["A", "B"])
        b = rt.ChannelEnd(net, "ab", "B", "A")
        os.environ["PYCHORAL_TIMEOUT"] = "0.2"
        try:
            with self.assertRaises(rt.ChoreographyTimeout):
                b.com()
            rt.ChannelEnd(net, "ab", "A", "B").com("last")
            net.close("A", "failed")
            self.assertEqual(b.com(), "last")  # messages sent before closing still arrive
            with self.assertRaises(rt.PeerClosed):
                b.com()
            with self.assertRaises(rt.PeerClosed):  # and every later receive fails too
                rt.ChannelEnd(net, "other", "B", "A").com()
        finally:
            del os.environ["PYCHORAL_TIMEOUT"]

    def test_unit_and_effects(self):
        self.assertIs(rt.Unit.id(1, 2), rt.Unit.id)
        self.assertEqual(rt.effects(1, 2), ())


class Tcp(unittest.TestCase):
    """A real TcpNetwork role ("B") fed by a raw socket pretending to be role "A"."""

    def setUp(self):
        self.net, self.raw = _raw_pair()
        self.chan = rt.ChannelEnd(self.net, "ab", "B", "A")
        os.environ["PYCHORAL_TIMEOUT"] = "5"

    def tearDown(self):
        del os.environ["PYCHORAL_TIMEOUT"]
        self.raw.close()
        self.net.close(wait=0)

    def test_good_frames_are_demultiplexed_by_channel(self):
        self.raw.sendall(rt._frame({"c": "other", "k": "com", "v": 1}))
        self.raw.sendall(rt._frame({"c": "ab", "k": "com", "v": rt.encode((1, b"x"))}))
        self.assertEqual(self.chan.com(), (1, b"x"))
        self.assertEqual(rt.ChannelEnd(self.net, "other", "B", "A").com(), 1)

    def test_oversized_frame(self):
        self.raw.sendall(struct.pack(">I", (16 << 20) + 1) + b"{}")
        with self.assertRaises(rt.ProtocolError):
            self.chan.com()

    def test_invalid_json_frame(self):
        self.raw.sendall(struct.pack(">I", 5) + b"\xff{not")
        with self.assertRaises(rt.ProtocolError):
            self.chan.com()

    def test_bad_message_shape(self):
        self.raw.sendall(rt._frame({"c": "ab", "k": "exec", "v": "__import__('os')"}))
        with self.assertRaises(rt.ProtocolError):
            self.chan.com()

    def test_malicious_class_reference_is_refused_at_decode(self):
        self.raw.sendall(rt._frame({"c": "ab", "k": "com", "v": {"$": "dc", "t": "subprocess:Popen", "v": {"args": "true"}}}))
        with self.assertRaises(rt.ProtocolError):
            self.chan.com()

    def test_peer_eof_is_peer_closed(self):
        self.raw.shutdown(socket.SHUT_WR)
        with self.assertRaises(rt.PeerClosed):
            self.chan.com()

    def test_deeply_nested_json_is_a_protocol_error_at_once(self):
        # 100,000 brackets: json.loads raises RecursionError; the reader must turn it into a
        # ProtocolError for the receiver immediately (not a dead thread and a 5 s timeout).
        body = b"[" * 100_000 + b"]" * 100_000
        self.raw.sendall(struct.pack(">I", len(body)) + body)
        t0 = time.monotonic()
        with self.assertRaises(rt.ProtocolError) as cm:
            self.chan.com()
        self.assertLess(time.monotonic() - t0, 2.0)
        self.assertIn("nested too deeply", str(cm.exception))

    def test_flooding_unread_channels_fails_the_connection(self):
        os.environ["PYCHORAL_MAX_INBOX"] = "100000"
        self.addCleanup(os.environ.pop, "PYCHORAL_MAX_INBOX")
        # The limit is read when the reader starts: a fresh pair.
        net, raw = _raw_pair()
        self.addCleanup(raw.close)
        self.addCleanup(lambda: net.close(wait=0))
        big = rt._frame({"c": "nobody-reads", "k": "com", "v": "x" * 30_000})
        sent = 0
        try:
            for _ in range(10):
                raw.sendall(big)
                sent += 1
        except OSError:
            pass
        # The sender is told why before the connection closes.
        raw.settimeout(5)
        reply = rt._read_frame(raw.makefile("rb"))
        self.assertIn("PYCHORAL_MAX_INBOX", reply["error"])
        with self.assertRaises(rt.ProtocolError):
            rt.ChannelEnd(net, "ab", "B", "A").com()
        self.assertLessEqual(sent, 10)

    def test_deep_json_in_the_handshake_is_refused_by_the_listener(self):
        raw, t, errs = _lone_listener(self, b"")
        body = b"[" * 2000 + b"]" * 2000  # within the 4 KiB handshake limit
        raw.sendall(struct.pack(">I", len(body)) + body)
        self.assertEqual(raw.recv(100), b"", "B drops the connection")
        t.join()
        self.assertIn("nested too deeply", str(errs[0]))


def _raw_pair():
    """A real TcpNetwork role "B" connected to a raw socket playing "A" (which never listens);
    B's socket is bound here, as the loopback launcher does. The caller closes both."""
    listener = socket.create_server(("127.0.0.1", 0))
    peers = {"A": ("127.0.0.1", 9), "B": listener.getsockname()}
    net = rt.TcpNetwork("B", peers, secret=b"", insecure=True)
    t = threading.Thread(target=net.start, kwargs={"connect_timeout": 5, "listener": listener})
    t.start()
    raw = socket.create_connection(peers["B"], timeout=2)
    raw.sendall(rt._frame({"hello": "A"}))
    assert rt._handshake_frame(raw, "challenge") == {"challenge": None}
    t.join()
    return net, raw


_last_net = [None]  # the network the last _lone_listener made


def _lone_listener(test, secret):
    """Role "B" starting alone with `secret`, waiting for "A"; a raw client connected to it.
    Returns (raw socket, thread running B's start, list that receives start's error)."""
    listener = socket.create_server(("127.0.0.1", 0))
    peers = {"A": ("127.0.0.1", 9), "B": listener.getsockname()}
    net = rt.TcpNetwork("B", peers, secret=secret, insecure=not secret)
    _last_net[:] = [net]
    test.addCleanup(lambda: net.close(wait=0))
    errs = []
    t = threading.Thread(target=lambda: errs.append(_start_all([net], [listener], timeout=2)[0]))
    t.start()
    raw = socket.create_connection(peers["B"], timeout=2)
    test.addCleanup(raw.close)
    return raw, t, errs


class HandshakeStories(unittest.TestCase):
    """A connecting role says what the other end did: garbage, silence, or a close."""

    def connect_to(self, serve):
        server = socket.create_server(("127.0.0.1", 0))
        self.addCleanup(server.close)
        stop = threading.Event()

        def run():
            try:
                c, _ = server.accept()
            except OSError:
                return
            serve(c)
            stop.wait(5)
            c.close()

        th = threading.Thread(target=run, daemon=True)
        th.start()
        self.addCleanup(stop.set)
        peers = {"A": ("127.0.0.1", 0), "B": server.getsockname()}
        net = rt.TcpNetwork("A", peers, secret=b"", insecure=True)
        self.addCleanup(lambda: net.close(wait=0))
        with self.assertRaises(Exception) as cm:
            net._connect("B", time.monotonic() + 1.5)
        return cm.exception

    def test_garbage_from_the_server(self):
        e = self.connect_to(lambda c: c.sendall(b"HTTP/1.1 400 Bad Request\r\n\r\n"))
        self.assertIsInstance(e, rt.ProtocolError)
        self.assertIn("not PyChoral", str(e))

    def test_a_silent_server(self):
        e = self.connect_to(lambda c: None)
        self.assertIsInstance(e, rt.ProtocolError)
        self.assertIn("never answered the handshake", str(e))

    def test_a_server_that_closes(self):
        e = self.connect_to(lambda c: c.shutdown(socket.SHUT_RDWR))
        self.assertIsInstance(e, rt.PeerClosed)
        self.assertIn("closed the connection during the handshake", str(e))


def _start_all(nets, listeners, timeout=3):
    """Start TcpNetworks in threads; the exception each start raised (or None), in order."""
    errors = [None] * len(nets)

    def go(i):
        try:
            nets[i].start(connect_timeout=timeout, listener=listeners[i])
        except Exception as e:  # noqa: BLE001 - returned to the test
            errors[i] = e

    threads = [threading.Thread(target=go, args=(i,)) for i in range(len(nets))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return errors


class TcpAuth(unittest.TestCase):
    """PYCHORAL_SECRET: a mutual HMAC challenge-response when each connection opens."""

    def pair(self, secret_a, secret_b):
        ls = [socket.create_server(("127.0.0.1", 0)) for _ in range(2)]
        peers = {"A": ls[0].getsockname(), "B": ls[1].getsockname()}
        nets = [rt.TcpNetwork("A", peers, secret=secret_a, insecure=not secret_a),
                rt.TcpNetwork("B", peers, secret=secret_b, insecure=not secret_b)]
        self.addCleanup(lambda: [n.close(wait=0) for n in nets])
        return nets, ls

    def test_same_secret_connects_and_talks(self):
        nets, ls = self.pair(b"k3y", b"k3y")
        self.assertEqual(_start_all(nets, ls), [None, None])
        rt.ChannelEnd(nets[0], "ab", "A", "B").com((1, "x"))
        self.assertEqual(rt.ChannelEnd(nets[1], "ab", "B", "A").com(), (1, "x"))

    def test_different_secrets_are_refused_on_both_sides(self):
        nets, ls = self.pair(b"one", b"two")
        err_a, err_b = _start_all(nets, ls, timeout=2)
        self.assertIsInstance(err_a, rt.ProtocolError)
        self.assertIn("PYCHORAL_SECRET differs between A and B", str(err_a))
        self.assertIsInstance(err_b, rt.PeerClosed)
        self.assertIn("failed authentication", str(err_b))

    def test_secret_on_one_side_only_is_refused(self):
        nets, ls = self.pair(b"", b"k3y")
        err_a, err_b = _start_all(nets, ls, timeout=2)
        self.assertIn("B requires PYCHORAL_SECRET", str(err_a))
        self.assertIsInstance(err_b, rt.PeerClosed)
        nets, ls = self.pair(b"k3y", b"")
        err_a, err_b = _start_all(nets, ls, timeout=2)
        self.assertIn("B does not authenticate peers", str(err_a))

    def test_a_client_without_the_secret_cannot_join(self):
        raw, t, errs = _lone_listener(self, b"k3y")
        raw.sendall(rt._frame({"hello": "A"}))
        challenge = rt._handshake_frame(raw, "challenge")["challenge"]
        self.assertIsInstance(challenge, str)
        # A proof made with the wrong key (the replay of a proof for another nonce fails the same way).
        raw.sendall(rt._frame({"proof": rt._proof(b"guess", challenge, "A", "B"), "challenge": "n"}))
        self.assertEqual(raw.recv(100), b"", "B closes the connection")
        t.join()
        self.assertIsInstance(errs[0], rt.PeerClosed)
        self.assertIn("failed authentication", str(errs[0]))


def _authenticated_raw_pair(test, secret=b"k3y"):
    """Role "B" with `secret`, and a raw socket that completes the handshake as "A" and returns
    the session key, to send frames as a peer (or an attacker who knows the secret) would."""
    raw, t, errs = _lone_listener(test, secret)
    raw.sendall(rt._frame({"hello": "A"}))
    challenge = rt._handshake_frame(raw, "challenge")["challenge"]
    mine = "c0ffee"
    raw.sendall(rt._frame({"proof": rt._proof(secret, challenge, "A", "B"), "challenge": mine}))
    rt._handshake_frame(raw, "proof")
    t.join()
    test.assertEqual(errs, [None])
    key = rt._session_key(secret, challenge, mine, "A", "B")
    return raw, key


def _tagged(key, seq, obj):
    data = rt._frame(obj)
    return data + rt._frame_tag(key, "A", "B", seq, data[4:])


class FrameAuth(unittest.TestCase):
    """After the handshake every frame carries an HMAC under the session key, with its number."""

    def setUp(self):
        os.environ["PYCHORAL_TIMEOUT"] = "5"
        self.addCleanup(os.environ.pop, "PYCHORAL_TIMEOUT")

    def test_tagged_frames_arrive_and_forged_or_replayed_ones_fail(self):
        for attack in ("none", "forged", "replayed", "untagged"):
            with self.subTest(attack=attack):
                raw, key = _authenticated_raw_pair(self)
                net = _last_net[0]
                good = _tagged(key, 0, {"c": "ab", "k": "com", "v": 1})
                raw.sendall(good)
                self.assertEqual(rt.ChannelEnd(net, "ab", "B", "A").com(), 1)
                if attack == "none":
                    raw.sendall(_tagged(key, 1, {"c": "ab", "k": "com", "v": 2}))
                    self.assertEqual(rt.ChannelEnd(net, "ab", "B", "A").com(), 2)
                    continue
                if attack == "forged":
                    raw.sendall(_tagged(b"x" * 32, 1, {"c": "ab", "k": "com", "v": 2}))
                elif attack == "replayed":
                    raw.sendall(good)
                else:
                    raw.sendall(rt._frame({"c": "ab", "k": "com", "v": 2}) + b"\0" * 32)
                with self.assertRaises(rt.ProtocolError) as cm:
                    rt.ChannelEnd(net, "ab", "B", "A").com()
                self.assertIn("failed authentication", str(cm.exception))

    def test_deep_frame_from_an_authenticated_peer_is_a_protocol_error(self):
        raw, key = _authenticated_raw_pair(self)
        net = _last_net[0]
        body = b"[" * 200_000 + b"]" * 200_000
        raw.sendall(struct.pack(">I", len(body)) + body + rt._frame_tag(key, "A", "B", 0, body))
        with self.assertRaises(rt.ProtocolError) as cm:
            rt.ChannelEnd(net, "ab", "B", "A").com()
        self.assertIn("nested too deeply", str(cm.exception))


class Hostile(unittest.TestCase):
    """Inputs that used to kill or bloat a receiving role, each run in a fresh interpreter with the
    recursion limit a role really runs with (a crash there is a signal, not a test error)."""

    def run_child(self, code):
        env = dict(os.environ, PYTHONPATH=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
        return subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                              timeout=120)

    PRELUDE = """
import os, resource, socket, struct, sys, threading, time
import pychoral_rt as rt
sys.setrecursionlimit(rt._recursion_limit())  # 200,000, as run_tcp_role sets it
os.environ["PYCHORAL_TIMEOUT"] = "10"
listener = socket.create_server(("127.0.0.1", 0))
peers = {"A": ("127.0.0.1", 9), "B": listener.getsockname()}
net = rt.TcpNetwork("B", peers, insecure=True)
t = threading.Thread(target=net.start, kwargs={"connect_timeout": 5, "listener": listener})
t.start()
raw = socket.create_connection(peers["B"], timeout=5)
raw.sendall(rt._frame({"hello": "A"}))
rt._handshake_frame(raw, "challenge")
t.join()
"""

    def test_a_200000_deep_frame_is_a_protocol_error_not_a_crash(self):
        r = self.run_child(self.PRELUDE + """
body = b"[" * 200_000 + b"]" * 200_000
raw.sendall(struct.pack(">I", len(body)) + body)
try:
    rt.ChannelEnd(net, "ab", "B", "A").com()
except rt.ProtocolError as e:
    print("ProtocolError:", e)
""")
        self.assertEqual(r.returncode, 0, r.stderr[-500:])
        self.assertIn("ProtocolError: malformed frame: JSON nested too deeply", r.stdout)

    def test_the_inbox_bounds_memory_not_frame_bytes(self):
        # 7.5 MiB of [[],[],...] frames on a channel nobody reads: about 190 MB once decoded.
        r = self.run_child(self.PRELUDE + """
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
body = rt._frame({"c": "unread", "k": "com", "v": [[]] * 250_000})
try:
    for _ in range(10):
        raw.sendall(body)
except OSError:
    pass
raw.settimeout(10)
reply = rt._read_frame(raw.makefile("rb"))
print("reply:", reply)
grown = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before
print("grown_kb:", grown)
""")
        self.assertEqual(r.returncode, 0, r.stderr[-500:])
        self.assertIn("PYCHORAL_MAX_INBOX", r.stdout)
        grown = int(r.stdout.split("grown_kb:")[1])
        self.assertLess(grown, 100_000, "the receiver must refuse before decoding 190 MB")

    def test_handshakes_at_once_are_capped(self):
        r = self.run_child("""
import socket, threading, time
import pychoral_rt as rt
listener = socket.create_server(("127.0.0.1", 0))
peers = {"A": ("127.0.0.1", 9), "B": listener.getsockname()}
net = rt.TcpNetwork("B", peers, secret=b"k")
threading.Thread(target=lambda: net.start(connect_timeout=3, listener=listener), daemon=True).start()
silent = [socket.create_connection(peers["B"]) for _ in range(40)]
time.sleep(1.0)
print("threads:", threading.active_count())
""")
        self.assertEqual(r.returncode, 0, r.stderr[-500:])
        self.assertLessEqual(int(r.stdout.split("threads:")[1]), 2 + 1 + rt._MAX_HANDSHAKES)

    def test_tcp_role_without_a_secret_refuses_unless_insecure(self):
        env = {k: v for k, v in os.environ.items() if k != "PYCHORAL_SECRET"}
        rt_path = rt.__file__
        r = subprocess.run([sys.executable, rt_path, "tcp-role", "no_such_module", "E", "A",
                            "--peers", "A=127.0.0.1:0"], env=env, capture_output=True, text=True,
                           timeout=60)
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertIn("export PYCHORAL_SECRET=", r.stderr)
        r = subprocess.run([sys.executable, rt_path, "tcp-role", "no_such_module", "E", "A",
                            "--peers", "A=127.0.0.1:0", "--insecure"], env=env,
                           capture_output=True, text=True, timeout=60)
        self.assertIn("WARNING: --insecure", r.stderr)
        self.assertIn("no_such_module", r.stderr, "it went on to run the role")
        with self.assertRaises(rt.ProtocolError):
            rt.TcpNetwork("A", {"A": ("127.0.0.1", 0)}, secret=b"")


class Peers(unittest.TestCase):
    def test_ipv6_roles_talk(self):
        try:
            probe = socket.create_server(("::1", 0), family=socket.AF_INET6)
        except OSError:
            self.skipTest("no IPv6 loopback here")
        # A binds its own IPv6 socket (port 0: it only connects); B listens on `probe`.
        peers = {"A": ("::1", 0), "B": ("::1", probe.getsockname()[1])}
        nets = [rt.TcpNetwork("A", peers, secret=b"", insecure=True), rt.TcpNetwork("B", peers, secret=b"", insecure=True)]
        self.addCleanup(lambda: [n.close(wait=0) for n in nets])
        errors = [None, None]

        def start(i):
            try:
                nets[i].start(connect_timeout=3, listener=probe if i == 1 else None)
            except Exception as e:  # noqa: BLE001
                errors[i] = e

        ts = [threading.Thread(target=start, args=(i,)) for i in (1, 0)]
        for t in ts:
            t.start()
        for t in ts:
            t.join()
        self.assertEqual(errors, [None, None])
        rt.ChannelEnd(nets[0], "ab", "A", "B").com("over IPv6")
        self.assertEqual(rt.ChannelEnd(nets[1], "ab", "B", "A").com(), "over IPv6")

    def test_parse_peers(self):
        self.assertEqual(
            rt.parse_peers("A=127.0.0.1:7001, B=[::1]:7002,C=node-3.example:80"),
            {"A": ("127.0.0.1", 7001), "B": ("::1", 7002), "C": ("node-3.example", 80)},
        )
        for bad in ["A=127.0.0.1", "A:7001", "A=h:x", "A=h:1,A=h:2", "=h:1"]:
            with self.assertRaises(ValueError, msg=bad):
                rt.parse_peers(bad)


class Trace(unittest.TestCase):
    def test_trace_lines(self):
        code = (
            "import pychoral_rt as rt\n"
            "net = rt.LocalNetwork(['A', 'B'])\n"
            "rt.ChannelEnd(net, 'ab', 'A', 'B').com(5)\n"
            "print(rt.ChannelEnd(net, 'ab', 'B', 'A').com())\n"
        )
        env = dict(os.environ, PYCHORAL_TRACE="1", PYTHONPATH=os.path.join(os.path.dirname(__file__), ".."))
        p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True)
        self.assertEqual(p.stdout, "5\n")
        self.assertEqual(p.stderr, "A -> B [ab] com 5\n")


if __name__ == "__main__":
    unittest.main()
