"""pychoral_rt — the runtime of choreographies projected by `ranklift choreo` (stdlib only).

A projected module holds one class per role (`DistAuth_Client`, ...). Its channels are
`ChannelEnd`s opened on an ambient network, one per running role:

* `LocalNetwork`: every role is a thread of one process; one queue per (sender, receiver).
* `TcpNetwork`: every role is a process; one TCP connection per pair of roles, a reader thread per
  connection that demultiplexes frames into per-(peer, channel) queues.

Values cross both networks in the same safe, self-describing encoding (JSON with tagged tuples,
bytes, sets, dicts, enums and plain data classes). Nothing is ever unpickled; anything else is
refused at the sender with `EncodeError`. A frame that is malformed or larger than
`PYCHORAL_MAX_FRAME` bytes raises `ProtocolError` in the receiver; it never runs code.

Environment: `PYCHORAL_TIMEOUT` (seconds a receive waits, default 30), `PYCHORAL_TRACE=1` (log
every message to stderr as `A -> B [chan] kind value`), `PYCHORAL_MAX_FRAME` (bytes, default 16 MiB),
`PYCHORAL_MAX_INBOX` (TCP: memory that messages received from one peer and not yet read may take,
estimated from their decoded form before decoding, default 64 MiB; beyond it the connection fails
with `ProtocolError` on both sides),
`PYCHORAL_SECRET` (TCP: a shared secret, required unless `--insecure`; every connection proves,
both ways, that its peer knows it — HMAC-SHA256 challenge and response bound to both role names —
and every later frame carries an HMAC-SHA256 under a key derived from both challenges, with a
sequence number, so frames cannot be forged, replayed or moved to another connection. The loopback
launcher sets a fresh one per run. Frames are authenticated, not encrypted).

Command line (what `ranklift choreo run` calls):
    python3 pychoral_rt.py run MODULE ENTRY [--tcp]
    python3 pychoral_rt.py tcp-role MODULE ENTRY ROLE --peers A=host:port,B=host:port [--insecure]
"""

import array
import base64
import contextvars
import dataclasses
import enum
import hashlib
import hmac
import importlib
import io
import itertools
import json
import linecache
import os
import queue
import re
import secrets
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time
import traceback
import types
import typing

__all__ = [
    "Unit", "ProtocolError", "ChoreographyTimeout", "PeerClosed", "EncodeError", "ChannelEnd",
    "LocalNetwork", "TcpNetwork", "open_channel", "effects", "entry", "encode", "decode",
    "run_threads", "run_tcp_role", "launch_tcp",
    # authoring names, so module-level code copied from a choreography still runs
    "Role", "At", "Channel", "DiChannel", "Choreography", "ErasedChannel",
    "Ch1", "Ch2", "Ch3", "Ch4", "Ch5", "Ch6", "Ch7", "Ch8", "Ch9",
]


# ----- errors and Unit --------------------------------------------------------------------------

class ProtocolError(Exception):
    """A peer sent something the protocol does not allow here (wrong kind, label or frame)."""


class ChoreographyTimeout(Exception):
    """A receive waited longer than PYCHORAL_TIMEOUT seconds."""


class PeerClosed(Exception):
    """The peer a receive waits on has stopped (finished, failed or was killed)."""


class EncodeError(TypeError):
    """A value that cannot be sent over a channel (refused at the sender)."""


class _UnitId:
    """`Unit.id`: "nothing here". Calling it evaluates the arguments and returns `Unit.id`."""

    __slots__ = ()

    def __call__(self, *args):
        return self

    def __repr__(self):
        return "Unit.id"


class Unit:
    id = _UnitId()


def effects(*args):
    """`*rt.effects(a, b)` evaluates erased arguments for their effects and passes nothing."""
    return ()


def kw_effects(*args):
    """`**rt.kw_effects(a, b)`: the same for erased keyword arguments (`**` keeps them in order
    with the other keywords, where CPython evaluates a `*` after keywords before them)."""
    return {}


def entry(f):
    """Marks the entry method of a projected class."""
    f.__pychoral_entry__ = True
    return f


# ----- authoring names (role-erased meaning) ----------------------------------------------------

class _Role:
    def __init__(self, name):
        self.name = name

    def __rmatmul__(self, value):
        return value

    def __call__(self):
        return self

    def __repr__(self):
        return self.name


def Role(name):
    return _Role(name)


class _Subscriptable:
    def __getitem__(self, item):
        return object


_V = typing.TypeVar("_V")


class ErasedChannel:
    """A channel in the role-erased reference run (and its type for mypy, in `*_erased.py`):
    every value stays where it is."""

    def __init__(self, name: str) -> None:
        self.name = name

    def com(self, value: _V) -> _V:
        return value

    def select(self, label: _V) -> _V:
        return label


class _ChannelType:
    def __getitem__(self, item):
        return self

    def open(self, name: str) -> ErasedChannel:
        return ErasedChannel(name)


At = _Subscriptable()
Channel = _ChannelType()
DiChannel = _ChannelType()


class Choreography:
    def __class_getitem__(cls, roles):
        return cls


Ch1 = Ch2 = Ch3 = Ch4 = Ch5 = Ch6 = Ch7 = Ch8 = Ch9 = Choreography


# ----- configuration ----------------------------------------------------------------------------

def _timeout():
    return float(os.environ.get("PYCHORAL_TIMEOUT", "30"))


def _max_frame():
    return int(os.environ.get("PYCHORAL_MAX_FRAME", str(16 << 20)))


def _max_inbox():
    return int(os.environ.get("PYCHORAL_MAX_INBOX", str(64 << 20)))


_TRACE = os.environ.get("PYCHORAL_TRACE") == "1"
_MAX_DEPTH = 64
_trace_lock = threading.Lock()


def _trace(src, dst, chan, kind, value):
    if _TRACE:
        with _trace_lock:
            sys.__stderr__.write(f"{src} -> {dst} [{chan}] {kind} {value!r}\n")
            sys.__stderr__.flush()


# ----- the wire encoding ------------------------------------------------------------------------

# The module holding the running choreography. Its classes travel as `:Qual.Name` so that roles
# running differently named modules (`project --split`) still agree on them. In thread mode every
# role runs its own instance of the module (as it would in its own process), so the instance is
# per role: `_CHOR` in the role's context, `_choreography` for the process.
_choreography = None
_CHOR: "contextvars.ContextVar[object]" = contextvars.ContextVar("pychoral_module", default=None)


def _current_module():
    return _CHOR.get() or _choreography


def _class_ref(cls):
    mod = cls.__module__
    current = _current_module()
    if current is not None and mod == current.__name__:
        mod = ""
    return f"{mod}:{cls.__qualname__}"


def encode(value, _depth=0):
    """A JSON-compatible, self-describing form of `value`; EncodeError for anything else."""
    if _depth > _MAX_DEPTH:
        raise EncodeError("value nested more than 64 levels deep")
    d = _depth + 1
    if isinstance(value, enum.Enum):
        return {"$": "enum", "t": _class_ref(type(value)), "v": value.name}
    t = type(value)
    if value is None or t is bool or t is str or t is int:
        return value
    if t is float:
        if value != value or value in (float("inf"), float("-inf")):
            return {"$": "float", "v": repr(value)}
        return value
    if t is list:
        return [encode(x, d) for x in value]
    if t is tuple:
        return {"$": "tuple", "v": [encode(x, d) for x in value]}
    if t is dict:
        return {"$": "dict", "v": [[encode(k, d), encode(v, d)] for k, v in value.items()]}
    if t is set or t is frozenset:
        return {"$": t.__name__, "v": [encode(x, d) for x in value]}
    if t is bytes or t is bytearray:
        return {"$": t.__name__, "v": base64.b64encode(value).decode("ascii")}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        fields = {f.name: encode(getattr(value, f.name), d) for f in dataclasses.fields(value) if f.init}
        return {"$": "dc", "t": _class_ref(t), "v": fields}
    raise EncodeError(
        f"cannot send a value of type {t.__qualname__!s} over a channel: allowed are None, bool, "
        "int, float, str, bytes, list, tuple, dict, set, enum members and dataclass instances of those"
    )


def _lookup(ref, want):
    """The class named `module:Qual.Name`, if its module is already imported (never imports)."""
    if not isinstance(ref, str) or ":" not in ref:
        raise ProtocolError(f"bad class reference {ref!r}")
    mod_name, qual = ref.split(":", 1)
    obj = _current_module() if mod_name == "" else sys.modules.get(mod_name)
    if obj is None:
        raise ProtocolError(f"class {ref} is not defined here (module {mod_name} is not loaded)")
    for part in qual.split("."):
        try:
            obj = vars(obj).get(part)
        except TypeError:
            obj = None
        if obj is None:
            raise ProtocolError(f"class {ref} is not defined here")
    if not isinstance(obj, type):
        raise ProtocolError(f"{ref} is not a class")
    if want == "enum" and not issubclass(obj, enum.Enum):
        raise ProtocolError(f"{ref} is not an Enum")
    if want == "dc" and not dataclasses.is_dataclass(obj):
        raise ProtocolError(f"{ref} is not a dataclass")
    return obj


_UNION_TYPES = tuple(t for t in [getattr(types, "UnionType", None)] if t is not None)


def _conforms(value, tp):
    """Does `value` (decoded) fit the declared type `tp`? Unknown or unchecked forms fit."""
    if tp is typing.Any or tp is object:
        return True
    if tp is None or tp is type(None):
        return value is None
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)
    if origin is typing.Union or isinstance(tp, _UNION_TYPES):
        return any(_conforms(value, a) for a in args)
    if origin is typing.Literal:
        return value in args
    if origin in (list, set, frozenset):
        return isinstance(value, origin) and (not args or all(_conforms(x, args[0]) for x in value))
    if origin is tuple:
        if not isinstance(value, tuple):
            return False
        if len(args) == 2 and args[1] is Ellipsis:
            return all(_conforms(x, args[0]) for x in value)
        return not args or (len(args) == len(value) and all(map(_conforms, value, args)))
    if origin is dict:
        return isinstance(value, dict) and (not args or all(
            _conforms(k, args[0]) and _conforms(x, args[1]) for k, x in value.items()))
    if origin is not None or not isinstance(tp, type):
        return True  # a generic or form not checked here
    if tp is float:
        return type(value) in (int, float)
    if tp is int:
        return type(value) is int
    return isinstance(value, tp)


def _check_fields(cls, fields):
    """A received dataclass must have the field types its class declares (`Point(x: int)` does
    not arrive with x = "a"): the sender may run other code than the receiver."""
    try:
        hints = typing.get_type_hints(cls)
    except Exception:  # noqa: BLE001 - unresolvable annotations are not checked
        return
    for name, value in fields.items():
        tp = hints.get(name)
        if tp is not None and not _conforms(value, tp):
            shown = getattr(tp, "__name__", None) or str(tp).replace("typing.", "")
            raise ProtocolError(
                f"received {cls.__qualname__} with {name} = {value!r:.60} "
                f"({type(value).__name__}), but {cls.__qualname__}.{name} is declared {shown}"
            )


def decode(x, _depth=0):
    """The value `encode` described; ProtocolError for anything malformed."""
    if _depth > _MAX_DEPTH:
        raise ProtocolError("value nested too deeply")
    d = _depth + 1
    t = type(x)
    if x is None or t is bool or t is int or t is float or t is str:
        return x
    if t is list:
        return [decode(v, d) for v in x]
    if t is not dict:
        raise ProtocolError(f"malformed value {x!r}")
    tag, v = x.get("$"), x.get("v")
    try:
        if tag == "tuple" and type(v) is list:
            return tuple(decode(i, d) for i in v)
        if tag == "dict" and type(v) is list:
            out = {}
            for pair in v:
                if type(pair) is not list or len(pair) != 2:
                    raise ProtocolError("malformed dict entry")
                out[decode(pair[0], d)] = decode(pair[1], d)
            return out
        if tag in ("set", "frozenset") and type(v) is list:
            items = [decode(i, d) for i in v]
            return set(items) if tag == "set" else frozenset(items)
        if tag in ("bytes", "bytearray") and type(v) is str:
            raw = base64.b64decode(v.encode("ascii"), validate=True)
            return raw if tag == "bytes" else bytearray(raw)
        if tag == "float" and v in ("nan", "inf", "-inf"):
            return float(v)
        if tag == "enum" and type(v) is str:
            cls = _lookup(x.get("t"), "enum")
            if v not in cls.__members__:
                raise ProtocolError(f"{cls.__qualname__} has no member {v!r}")
            return cls[v]
        if tag == "dc" and type(v) is dict:
            cls = _lookup(x.get("t"), "dc")
            names = {f.name for f in dataclasses.fields(cls) if f.init}
            if set(v) - names:
                raise ProtocolError(f"{cls.__qualname__} has no fields {sorted(set(v) - names)}")
            fields = {k: decode(val, d) for k, val in v.items()}
            _check_fields(cls, fields)
            return cls(**fields)
    except ProtocolError:
        raise
    except (TypeError, ValueError, KeyError, UnicodeError) as e:
        raise ProtocolError(f"malformed value: {e}") from None
    raise ProtocolError(f"malformed value with tag {tag!r}")


# ----- inboxes ----------------------------------------------------------------------------------

class _Closed:
    def __init__(self, exc):
        self.exc = exc


class _Inbox:
    """The messages waiting for one role, per (peer, channel)."""

    def __init__(self):
        self._lock = threading.Lock()
        self._queues = {}
        self._closed = {}
        self._bytes = {}  # peer -> bytes received and not yet read (TCP)

    def _q(self, peer, chan):
        with self._lock:
            q = self._queues.get((peer, chan))
            if q is None:
                q = self._queues[(peer, chan)] = queue.SimpleQueue()
                if peer in self._closed:
                    q.put(self._closed[peer])
            return q

    def put(self, peer, chan, kind, payload, size=0):
        """Queue a message. Returns the bytes now waiting from `peer` (with `size` counted)."""
        with self._lock:
            waiting = self._bytes[peer] = self._bytes.get(peer, 0) + size
        self._q(peer, chan).put((kind, payload, size))
        return waiting

    def waiting(self, peer):
        """Bytes (estimated) received from `peer` and not yet read."""
        with self._lock:
            return self._bytes.get(peer, 0)

    def close(self, peer, exc):
        with self._lock:
            if peer in self._closed:
                return
            self._closed[peer] = _Closed(exc)
            qs = [q for (p, _), q in self._queues.items() if p == peer]
        for q in qs:
            q.put(self._closed[peer])

    def get(self, peer, chan, me):
        q = self._q(peer, chan)
        timeout = _timeout()
        try:
            item = q.get(timeout=timeout)
        except queue.Empty:
            raise ChoreographyTimeout(
                f"{me} waited {timeout:g} s for {peer} on channel {chan!r} (PYCHORAL_TIMEOUT)"
            ) from None
        if isinstance(item, _Closed):
            q.put(item)  # every later receive fails the same way
            raise item.exc
        kind, payload, size = item
        if size:
            with self._lock:
                self._bytes[peer] -= size
        return kind, payload


# ----- channels ---------------------------------------------------------------------------------

_NET: "contextvars.ContextVar[object]" = contextvars.ContextVar("pychoral_network")


class ChannelEnd:
    """One role's end of a channel: `com`/`select` send a value, or receive when given nothing."""

    def __init__(self, net, name, me, peer, carries=None):
        self.net, self.name, self.me, self.peer = net, name, me, peer
        self.carries = carries  # the declared T of Channel[T, A, B] (None: anything)

    def _recv(self, kind):
        got, payload = self.net.inbox(self.me).get(self.peer, self.name, self.me)
        if got != kind:
            want = "a value (com)" if kind == "com" else "a selection label"
            raise ProtocolError(
                f"{self.me} expected {want} from {self.peer} on channel {self.name!r}, got {got!r}"
            )
        value = decode(payload)
        if kind == "com" and self.carries is not None and not _conforms(value, self.carries):
            shown = getattr(self.carries, "__name__", None) or str(self.carries).replace("typing.", "")
            raise ProtocolError(
                f"{self.me} received {value!r:.60} ({type(value).__name__}) from {self.peer} on "
                f"channel {self.name!r}, which carries {shown}"
            )
        return value

    def com(self, value=Unit.id):
        if value is Unit.id:
            return self._recv("com")
        self.net.send(self.me, self.peer, self.name, "com", value)
        return Unit.id

    def select(self, label=Unit.id):
        if label is Unit.id:
            return self._recv("select")
        if not isinstance(label, enum.Enum):
            raise EncodeError(f"a selection label must be an enum member, not {label!r}")
        self.net.send(self.me, self.peer, self.name, "select", label)
        return Unit.id

    def __repr__(self):
        return f"<channel {self.name!r} {self.me}->{self.peer}>"


def open_channel(name, me, peer, carries=None):
    """This role's end of channel `name` to `peer`, on the network the role runs in; `carries`
    is the declared type of its values (`Channel[T, A, B]`), checked on receive."""
    try:
        net = _NET.get()
    except LookupError:
        raise RuntimeError(
            "no PyChoral network: run projected code with `ranklift choreo run` or "
            "`python3 pychoral_rt.py run MODULE ENTRY`"
        ) from None
    return ChannelEnd(net, name, me, peer, carries)


class LocalNetwork:
    """All roles in one process (threads); values are encoded on send and decoded on receive, so
    roles never share mutable objects and the same values are refused as over TCP."""

    def __init__(self, roles):
        self.roles = list(roles)
        self._inboxes = {r: _Inbox() for r in self.roles}

    def inbox(self, me):
        return self._inboxes[me]

    def send(self, src, dst, chan, kind, value):
        payload = encode(value)  # a fresh JSON-shaped tree: the receiver decodes its own copy
        _trace(src, dst, chan, kind, value)
        self._inboxes[dst].put(src, chan, kind, payload)

    def close(self, role, why="finished"):
        for r, box in self._inboxes.items():
            if r != role:
                box.close(role, PeerClosed(f"{role} has {why}; no more messages will come from it"))


# JSON nesting a frame may have: a VALUE nests at most 64 levels (`_MAX_DEPTH`), each taking at
# most three JSON levels (a dict is {"$": "dict", "v": [[k, v], ...]}), plus the envelope.
_MAX_JSON_DEPTH = 3 * (_MAX_DEPTH + 1) + 2
_JSON_STRING = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"')
_BRACKETS = bytes.maketrans(b"{}", b"[]")
_NOT_STRUCTURE = bytes(sorted(set(range(256)) - set(b"[]{},:")))
_STEPS = bytes.maketrans(b"[]", bytes([1, 255]))


def _scan_json(body):
    """Nesting depth and an estimate of the memory its decoded form takes, of the JSON text
    `body`, without decoding it (and without recursion: a frame of 200,000 brackets would
    overflow the C stack of `json.loads` whatever the recursion limit). The estimate is an upper
    bound for common values: the text, plus 64 bytes per container and 40 per element or key."""
    structure = _JSON_STRING.sub(b"", body).translate(_BRACKETS, _NOT_STRUCTURE)
    elements = structure.count(b",") + structure.count(b":")
    brackets = structure.translate(None, b",:")
    opens = brackets.count(b"[")
    cost = len(body) + 64 * opens + 40 * elements
    depth = opens
    if opens > _MAX_JSON_DEPTH:
        # The deepest point of the running sum of +1 per "[" and -1 per "]" (as signed bytes),
        # in C: about 25 ns a bracket.
        depth = max(itertools.accumulate(array.array("b", brackets.translate(_STEPS))))
    if depth > _MAX_JSON_DEPTH:
        raise ProtocolError(
            f"malformed frame: JSON nested too deeply (more than {_MAX_JSON_DEPTH} levels)")
    return depth, cost


def _parse_json(body):
    """JSON from bytes; anything that is not JSON, or nests deeper than any frame of ours (a frame
    of 200,000 brackets), is a ProtocolError — checked before decoding, in every thread, whatever
    the recursion limit."""
    return _decode_frame(body)[0]


def _decode_frame(body, room=None):
    """(JSON value, estimated memory it takes) of a frame body, checked as `_parse_json` says.
    With `room`, a frame whose decoded form would take more memory is refused (`_TooBig`)
    before it is decoded."""
    _, cost = _scan_json(body)
    if room is not None and cost > room:
        raise _TooBig(cost)
    try:
        return json.loads(body.decode("utf-8")), cost
    except (UnicodeDecodeError, ValueError) as e:
        raise ProtocolError(f"malformed frame: {e}") from None
    except RecursionError:
        raise ProtocolError("malformed frame: JSON nested too deeply") from None


class _TooBig(Exception):
    """A frame whose decoded form would not fit in the inbox (`cost` bytes, estimated)."""

    def __init__(self, cost):
        super().__init__(cost)
        self.cost = cost


def _read_frame(stream, limit=None):
    """One frame from a buffered binary stream (`socket.makefile("rb")`); None at a clean EOF.
    Frames longer than `limit` (default PYCHORAL_MAX_FRAME) are a ProtocolError."""
    body = _read_frame_bytes(stream, limit)
    return None if body is None else _parse_json(body)


def _read_frame_bytes(stream, limit=None):
    """The body of one frame (undecoded); None at a clean EOF."""
    what = "the handshake limit" if limit else "PYCHORAL_MAX_FRAME"
    limit = limit or _max_frame()
    head = stream.read(4)
    if not head:
        return None
    if len(head) < 4:
        raise ProtocolError("connection closed in the middle of a frame header")
    (n,) = struct.unpack(">I", head)
    if n > limit:
        raise ProtocolError(f"frame of {n} bytes is larger than {what} ({limit})")
    body = stream.read(n)
    if len(body) < n:
        raise ProtocolError("connection closed in the middle of a frame")
    return body


def _frame(obj):
    body = json.dumps(obj, allow_nan=False, separators=(",", ":")).encode("utf-8")
    return struct.pack(">I", len(body)) + body


_TAG = 32  # bytes of HMAC-SHA256 after each frame of an authenticated connection


def _frame_tag(key, sender, receiver, seq, body):
    """The HMAC that follows frame number `seq` (from 0, per direction) from `sender` to
    `receiver` on an authenticated connection: a frame cannot be forged, replayed, reordered, or
    moved to another connection or direction."""
    head = f"pychoral-frame-v1|{sender}|{receiver}|".encode("utf-8") + seq.to_bytes(8, "big")
    return hmac.new(key, head + body, hashlib.sha256).digest()


def _session_key(secret, accept_nonce, connect_nonce, connector, acceptor):
    """The per-connection key both ends derive after the handshake (each chose one nonce)."""
    msg = f"pychoral-session-v1|{accept_nonce}|{connect_nonce}|{connector}|{acceptor}"
    return hmac.new(secret, msg.encode("utf-8"), hashlib.sha256).digest()


_MAX_NONCE = 128
_MAX_HANDSHAKES = 8  # handshakes a listening role runs at once; more connections are closed


class _Exact:
    """`read(n)` straight from a socket, exactly n bytes unless the peer closes (then fewer): no
    buffering ahead, so the reader thread's stream starts exactly at the first message."""

    def __init__(self, sock):
        self.sock = sock

    def read(self, n):
        buf = bytearray()
        while len(buf) < n:
            chunk = self.sock.recv(n - len(buf))
            if not chunk:
                break
            buf += chunk
        return bytes(buf)


def _handshake_frame(sock, *keys):
    """One small handshake frame: a dict with `keys`."""
    try:
        msg = _read_frame(_Exact(sock), limit=4096)
    except (socket.timeout, TimeoutError):
        raise ChoreographyTimeout("no answer") from None
    if msg is None:
        raise PeerClosed("connection closed during the handshake")
    if not isinstance(msg, dict) or any(k not in msg for k in keys):
        raise ProtocolError(f"unexpected handshake frame {str(msg)[:80]}")
    return msg


def _secret():
    s = os.environ.get("PYCHORAL_SECRET")
    return s.encode("utf-8") if s else None


def _proof(secret, nonce, prover, verifier):
    """What `prover` answers to `verifier`'s challenge `nonce`: bound to both names, so a proof
    cannot be replayed in the other direction or to another role."""
    msg = f"pychoral-v1|{nonce}|{prover}|{verifier}".encode("utf-8")
    return hmac.new(secret, msg, hashlib.sha256).hexdigest()


def _check_proof(secret, nonce, prover, verifier, proof):
    return isinstance(proof, str) and hmac.compare_digest(proof, _proof(secret, nonce, prover, verifier))


class TcpNetwork:
    """One role of a multi-process deployment: `peers` maps every role (this one too) to
    (host, port). The lexicographically smaller role of each pair connects, the larger accepts."""

    def __init__(self, me, peers, secret=None, insecure=False):
        """`secret` (bytes) defaults to PYCHORAL_SECRET. Without one, the network refuses to
        start unless `insecure` is true: then peers are not authenticated, and any process that
        reaches a role's port first can take a role."""
        self.me = me
        self.peers = dict(peers)
        self._secret = (secret if secret is not None else _secret()) or None
        if self._secret is None and not insecure:
            raise ProtocolError(
                f"{me}: PYCHORAL_SECRET is not set, so any process that can reach "
                f"{peers.get(me, ('?', 0))[0]} could join as a role; give every role the same "
                "secret (or pass insecure=True / --insecure on a network you trust)")
        self._inbox = _Inbox()
        self._socks = {}
        self._send_locks = {}
        self._eof = {}
        self._lock = threading.Lock()
        self._ready = threading.Condition(self._lock)
        self._rejected = []
        self._peer_errors = {}  # peer -> ProtocolError it sent before closing
        self._bye = {}  # peer -> how its role ended, as it said before closing
        self._keys = {}  # peer -> session key (None: an --insecure connection)
        self._send_seq = {}  # peer -> number of the next frame sent to it
        self._handshakes = threading.BoundedSemaphore(_MAX_HANDSHAKES)

    def inbox(self, me):
        return self._inbox

    def start(self, connect_timeout=None, listener=None):
        """Connect to every peer. `listener` is this role's listening socket when the caller
        already bound it (the loopback launcher does, so no other process can take the port)."""
        connect_timeout = connect_timeout or max(_timeout(), 10.0)
        host, port = self.peers[self.me]
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        self._server = listener or socket.create_server((host, port), family=family)
        self._server.settimeout(0.2)
        others = [r for r in self.peers if r != self.me]
        deadline = time.monotonic() + connect_timeout
        acceptor = threading.Thread(target=self._accept_loop, args=(deadline,), daemon=True)
        acceptor.start()
        for r in others:
            if self.me < r:
                self._connect(r, deadline)
        with self._ready:
            while len(self._socks) < len(others):
                left = deadline - time.monotonic()
                if left <= 0:
                    missing = sorted(set(others) - set(self._socks))
                    why = f" (rejected: {'; '.join(self._rejected[-3:])})" if self._rejected else ""
                    raise PeerClosed(f"{self.me}: peers {missing} did not connect within {connect_timeout:g} s{why}")
                self._ready.wait(left)
        self._server.close()

    def _connect(self, r, deadline):
        host, port = self.peers[r]
        while True:
            try:
                s = socket.create_connection((host, port), timeout=1.0)
            except OSError:
                if time.monotonic() > deadline:
                    raise PeerClosed(f"{self.me} could not connect to {r} at {host}:{port}") from None
                time.sleep(0.05)
                continue
            try:
                s.settimeout(max(1.0, deadline - time.monotonic()))
                s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
                s.sendall(_frame({"hello": self.me}))
                key = self._prove_to(s, r)
                s.settimeout(None)
            except BaseException:
                s.close()
                raise
            self._register(r, s, key)
            return

    def _prove_to(self, s, r):
        """The connecting side of the handshake: answer `r`'s challenge, then challenge `r`."""
        secret = self._secret
        host, port = self.peers[r]
        try:
            challenge = _handshake_frame(s, "challenge")["challenge"]
        except PeerClosed:
            raise PeerClosed(
                f"{r} at {host}:{port} closed the connection during the handshake"
                + (" (is PYCHORAL_SECRET the same on both sides?)" if secret else "")
            ) from None
        except ChoreographyTimeout:
            raise ProtocolError(
                f"{r} at {host}:{port} accepted the connection but never answered the handshake "
                "(is another program listening on that port?)"
            ) from None
        except ProtocolError as e:
            raise ProtocolError(
                f"{r} at {host}:{port} answered the handshake with something that is not PyChoral "
                f"({e}; is another program listening on that port?)"
            ) from None
        if challenge is None and secret is not None:
            raise ProtocolError(f"{r} does not authenticate peers, but PYCHORAL_SECRET is set here")
        if challenge is not None and secret is None:
            raise ProtocolError(f"{r} requires PYCHORAL_SECRET, which is not set here")
        if secret is None:
            return None
        if not isinstance(challenge, str) or len(challenge) > _MAX_NONCE:
            raise ProtocolError(f"{r} sent a malformed challenge")
        mine = secrets.token_hex(16)
        s.sendall(_frame({"proof": _proof(secret, str(challenge), self.me, r), "challenge": mine}))
        try:
            answer = _handshake_frame(s, "proof")
        except PeerClosed:
            raise ProtocolError(
                f"{r} rejected this role's proof: PYCHORAL_SECRET differs between {self.me} and {r}"
            ) from None
        except ChoreographyTimeout:
            raise ProtocolError(f"{r} did not answer this role's challenge") from None
        if not _check_proof(secret, mine, r, self.me, answer["proof"]):
            raise ProtocolError(f"{r} failed authentication: PYCHORAL_SECRET differs between {self.me} and {r}")
        return _session_key(secret, challenge, mine, self.me, r)

    def _accept_loop(self, deadline):
        while time.monotonic() < deadline:
            with self._lock:
                if len(self._socks) == len(self.peers) - 1:
                    return
            try:
                s, _ = self._server.accept()
            except socket.timeout:
                continue
            except OSError:
                return
            # One thread per handshake, at most _MAX_HANDSHAKES at once: a slow or hostile
            # client cannot hold up the others, and a flood of them cannot exhaust threads.
            if not self._handshakes.acquire(blocking=False):
                with self._lock:
                    self._rejected.append(f"more than {_MAX_HANDSHAKES} handshakes at once")
                s.close()
                continue
            threading.Thread(target=self._welcome, args=(s,), daemon=True).start()

    def _welcome(self, s):
        """The accepting side of the handshake: who are you, and (with a secret) prove it."""
        try:
            s.settimeout(5.0)
            peer = _handshake_frame(s, "hello")["hello"]
            if not isinstance(peer, str) or peer not in self.peers or not peer < self.me:
                raise ProtocolError(f"unexpected hello from {str(peer)[:40]}")
            secret = self._secret
            nonce = secrets.token_hex(16) if secret else None
            s.sendall(_frame({"challenge": nonce}))
            key = None
            if secret is not None:
                reply = _handshake_frame(s, "proof", "challenge")
                if not _check_proof(secret, nonce, peer, self.me, reply["proof"]):
                    raise ProtocolError(f"a client claiming to be {peer} failed authentication (PYCHORAL_SECRET)")
                theirs = reply["challenge"]
                if not isinstance(theirs, str) or len(theirs) > _MAX_NONCE:
                    raise ProtocolError(f"{peer} sent a malformed challenge")
                s.sendall(_frame({"proof": _proof(secret, theirs, self.me, peer)}))
                key = _session_key(secret, nonce, theirs, peer, self.me)
            s.settimeout(None)
            s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            if not self._register(peer, s, key):
                raise ProtocolError(f"{peer} is already connected")
        except (ProtocolError, PeerClosed, ChoreographyTimeout, OSError) as e:
            with self._lock:
                self._rejected.append(f"{type(e).__name__}: {e}")
            s.close()
        finally:
            self._handshakes.release()

    def _register(self, peer, s, key=None):
        with self._ready:
            if peer in self._socks:
                return False
            self._socks[peer] = s
            self._keys[peer] = key
            self._send_seq[peer] = 0
            self._send_locks[peer] = threading.Lock()
            self._eof[peer] = threading.Event()
            self._ready.notify_all()
        threading.Thread(target=self._reader, args=(peer, s), daemon=True).start()
        return True

    def _reader(self, peer, s):
        """Demultiplex frames from `peer` into per-channel queues; never dies on bad input."""
        stream = s.makefile("rb")
        limit = _max_inbox()
        key = self._keys.get(peer)
        seq = 0
        try:
            while True:
                body = _read_frame_bytes(stream)
                if body is None:
                    self._inbox.close(peer, PeerClosed(f"{peer} closed the connection"))
                    return
                if key is not None:
                    tag = stream.read(_TAG)
                    if len(tag) < _TAG:
                        raise ProtocolError("connection closed in the middle of a frame")
                    want = _frame_tag(key, peer, self.me, seq, body)
                    if not hmac.compare_digest(tag, want):
                        raise ProtocolError(
                            f"a frame from {peer} failed authentication (forged, replayed or "
                            "altered on the way)")
                    seq += 1
                try:
                    msg, cost = _decode_frame(body, room=max(0, limit - self._inbox.waiting(peer)))
                except _TooBig as e:
                    self._refuse(peer, s, self._inbox.waiting(peer) + e.cost, limit)
                if isinstance(msg, dict) and set(msg) == {"bye"} and isinstance(msg["bye"], str):
                    # How the peer's role ended: later receives from it fail with this.
                    why = msg["bye"][:300]
                    self._bye[peer] = why
                    self._inbox.close(
                        peer, PeerClosed(f"{peer} has {why}; no more messages will come from it"))
                    continue
                if isinstance(msg, dict) and set(msg) == {"error"} and isinstance(msg["error"], str):
                    # The peer refused further messages and says why (see below).
                    err = ProtocolError(f"{peer} refused messages from {self.me}: {msg['error'][:200]}")
                    self._peer_errors[peer] = err
                    raise err
                if (not isinstance(msg, dict) or not isinstance(msg.get("c"), str)
                        or msg.get("k") not in ("com", "select") or "v" not in msg):
                    raise ProtocolError(f"malformed message from {peer}: {str(msg)[:80]}")
                self._inbox.put(peer, msg["c"], msg["k"], msg["v"], size=cost)
        except ProtocolError as e:
            self._inbox.close(peer, e)
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
        except OSError as e:
            self._inbox.close(peer, PeerClosed(f"connection to {peer} failed: {e}"))
        except Exception as e:  # noqa: BLE001 - the reader must never die silently
            self._inbox.close(peer, ProtocolError(f"bad input from {peer}: {type(e).__name__}: {e}"))
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
        finally:
            self._eof[peer].set()

    def _refuse(self, peer, s, waiting, limit):
        """The inbox for `peer` is full: tell it why, then fail the connection."""
        why = (f"messages from {peer} waiting unread on channels {self.me} has not received from "
               f"would take about {waiting} bytes (PYCHORAL_MAX_INBOX={limit})")
        try:
            self._send_frame(peer, {"error": why})
        except OSError:
            pass
        raise ProtocolError(why)

    def _send_frame(self, peer, obj):
        """Send one frame to `peer` (with its tag on an authenticated connection)."""
        data = _frame(obj)
        with self._send_locks[peer]:
            key = self._keys.get(peer)
            if key is not None:
                seq = self._send_seq[peer]
                self._send_seq[peer] = seq + 1
                data += _frame_tag(key, self.me, peer, seq, data[4:])
            self._socks[peer].sendall(data)

    def send(self, src, dst, chan, kind, value):
        obj = {"c": chan, "k": kind, "v": encode(value)}
        _trace(src, dst, chan, kind, value)
        s = self._socks.get(dst)
        if s is None:
            raise PeerClosed(f"{src} has no connection to {dst}")
        if dst in self._peer_errors:
            raise self._peer_errors[dst]
        try:
            self._send_frame(dst, obj)
        except OSError as e:
            if dst in self._peer_errors:
                raise self._peer_errors[dst] from None
            if dst in self._bye:
                raise PeerClosed(f"{dst} has {self._bye[dst]}; it takes no more messages") from None
            raise PeerClosed(f"{dst} is gone ({e})") from None

    def close(self, wait=None, why="finished"):
        """Tell every peer how this role ended (`why`), half-close every connection and wait (up
        to `wait` s) until every peer has too, so no message in flight is lost."""
        for peer in list(self._socks):
            try:
                self._send_frame(peer, {"bye": why})
            except OSError:
                pass
        for s in self._socks.values():
            try:
                s.shutdown(socket.SHUT_WR)
            except OSError:
                pass
        deadline = time.monotonic() + (wait if wait is not None else _timeout())
        for ev in self._eof.values():
            ev.wait(max(0.0, deadline - time.monotonic()))
        for s in self._socks.values():
            s.close()
        if getattr(self, "_server", None) is not None:
            self._server.close()


# ----- runners ----------------------------------------------------------------------------------

def _entry_of(cls):
    if cls is None:
        return None
    for name in dir(cls):
        if getattr(getattr(cls, name, None), "__pychoral_entry__", False):
            return getattr(cls, name)
    return None


def _roles_of(mod, entry_class):
    roles = getattr(mod, "__pychoral_roles__", {}).get(entry_class)
    if roles is None:
        raise SystemExit(f"pychoral: {entry_class} is not a choreography of {mod.__name__}")
    return roles


class _RoleStdout(io.TextIOBase):
    """sys.stdout while roles run as threads: each thread's prints go to its own buffer, or, when
    streaming, straight out as `[Role] line` once each line is complete."""

    def __init__(self, real, stream=False):
        self.real = real
        self.stream = stream
        self.local = threading.local()
        self.lock = threading.Lock()

    def writable(self):
        return True

    def write(self, s):
        buf = getattr(self.local, "buf", None)
        if buf is None:
            self.real.write(s)
            return len(s)
        buf.write(s)
        if self.stream and "\n" in s:
            text = buf.getvalue()
            done, _, rest = text.rpartition("\n")
            with self.lock:
                for line in done.split("\n"):
                    self.real.write(f"[{self.local.role}] {line}\n")
                self.real.flush()
            buf.seek(0)
            buf.truncate()
            buf.write(rest)
        return len(s)

    def flush(self):
        self.real.flush()


_HERE = os.path.abspath(__file__)


def _choreography_line(g, filename, lineno):
    """The choreography's line for line `lineno` of a projected module (`g`: its globals): a
    line copied unchanged (`__pychoral_lines__`), or the statement's `# L<n>` mark at or above
    it in its method. None when it cannot tell."""
    for first, there, count in g.get("__pychoral_lines__", ()):
        if first <= lineno < first + count:
            return there + lineno - first
    lines = linecache.getlines(filename)
    for i in range(min(lineno, len(lines)), 0, -1):
        text = lines[i - 1].rstrip()
        code, hash_, mark = text.rpartition("# L")
        if hash_ and mark.isdigit():
            if code.strip() == "":  # a mark on its own line, before a multi-line statement
                return int(mark) + (lineno - i - 1)
            return int(mark)
        if text.lstrip().startswith(("def ", "class ")):
            break
    return None


def _mapped_traceback(exc):
    """`exc`'s traceback with every frame of a projected module pointed at the choreography's
    file and line (the projection itself is a temporary file the user never wrote)."""
    frames = []
    tb = exc.__traceback__
    for fs, (frame, _) in zip(traceback.extract_tb(tb), traceback.walk_tb(tb)):
        g = frame.f_globals
        source = g.get("__pychoral_source__")
        line = _choreography_line(g, fs.filename, fs.lineno) if source else None
        if line is not None and os.path.exists(source):
            fs = traceback.FrameSummary(source, line, fs.name)
        elif os.path.abspath(fs.filename) == _HERE:
            continue  # the runtime's own frames (runners, channels): not the user's code
        frames.append(fs)
    out = ["Traceback (most recent call last):\n"]
    out += traceback.StackSummary.from_list(frames).format()
    out += traceback.format_exception_only(type(exc), exc)
    return out


def _report_error(role, exc):
    try:
        lines = _mapped_traceback(exc) if exc.__traceback__ is not None else None
    except Exception:  # noqa: BLE001 - never lose the error over its presentation
        lines = None
    if lines is None:
        lines = traceback.format_exception(type(exc), exc, exc.__traceback__)
    for line in "".join(lines).rstrip("\n").split("\n"):
        sys.stderr.write(f"[{role}] {line}\n")
    if isinstance(exc, RecursionError):
        sys.stderr.write(
            f"[{role}] pychoral: {role} recursed deeper than {sys.getrecursionlimit()} calls "
            "(PYCHORAL_RECURSION_LIMIT); a recursive choreography loop needs about two calls per "
            "round: raise the limit, or write the loop as a `while`\n"
        )


def _why(exc):
    """How a role ended, as its peers are told: `failed (ZeroDivisionError: division by zero)`."""
    text = str(exc).split("\n")[0][:200]
    return f"failed ({type(exc).__name__}: {text})" if text else f"failed ({type(exc).__name__})"


# Roles run in threads with a big stack and a high recursion limit: Choral-style choreographies
# loop by recursion, one or two Python calls per round.
_STACK = 512 << 20


def _recursion_limit():
    try:
        return max(1000, int(os.environ.get("PYCHORAL_RECURSION_LIMIT", "200000")))
    except ValueError:
        return 200000


def _in_big_thread(fn, *args, name=None):
    """Run `fn(*args)` in a thread with a big stack; its result, or its exception raised here."""
    out = {}

    def body():
        try:
            out["value"] = fn(*args)
        except BaseException as e:  # noqa: BLE001 - re-raised in the caller
            out["error"] = e

    old = threading.stack_size()
    threading.stack_size(_STACK)
    try:
        t = threading.Thread(target=body, name=name)
        t.start()
    finally:
        threading.stack_size(old)
    t.join()
    if "error" in out:
        raise out["error"]
    return out.get("value")


def _fresh_instance(module):
    """A new instance of `module`, not registered in sys.modules: the role's own globals."""
    import importlib.util

    spec = importlib.util.find_spec(module)
    if spec is None or spec.loader is None:
        raise ImportError(f"no module named {module!r}")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def run_threads(module, entry_class, stream=False):
    """Run every role of `entry_class` as a thread, each with its own instance of the module (its
    module-level code runs once per role, as in one process per role); print `[Role] line`
    grouped per role (or, with `stream`, as the lines come); return the exit status."""
    global _choreography
    mod = _choreography = importlib.import_module(module)
    roles = _roles_of(mod, entry_class)
    net = LocalNetwork(roles)
    router = _RoleStdout(sys.stdout, stream)
    buffers = {r: io.StringIO() for r in roles}
    errors = {}

    def play(role):
        router.local.buf = buffers[role]
        router.local.role = role
        _NET.set(net)
        try:
            own = _fresh_instance(module)
            _CHOR.set(own)
            main = _entry_of(getattr(own, f"{entry_class}_{role}", None))
            if main is not None:
                main()
            net.close(role, "finished")
        except BaseException as e:  # noqa: BLE001 - reported per role below
            errors[role] = e
            net.close(role, _why(e))

    old = sys.stdout
    old_limit = sys.getrecursionlimit()
    old_stack = threading.stack_size()
    sys.stdout = router
    sys.setrecursionlimit(max(old_limit, _recursion_limit()))
    try:
        threading.stack_size(_STACK)
        threads = [threading.Thread(target=play, args=(r,), name=f"role-{r}") for r in roles]
        for t in threads:
            t.start()
        threading.stack_size(old_stack)
        for t in threads:
            t.join()
    finally:
        sys.stdout = old
        sys.setrecursionlimit(old_limit)
        threading.stack_size(old_stack)
    for r in roles:  # (when streaming, only an unfinished last line is left)
        for line in buffers[r].getvalue().splitlines():
            print(f"[{r}] {line}")
    for r in roles:
        if r in errors:
            _report_error(r, errors[r])
    return 1 if errors else 0


def run_tcp_role(module, entry_class, role, peers, listener=None, insecure=False):
    """Run one role of `entry_class` in this process over TCP; its prints go to stdout. Its peers
    are told how it ended (finished, or failed and why) before the connections close."""
    global _choreography
    net = TcpNetwork(role, peers, insecure=insecure)
    status = 0
    why = "finished"
    sys.setrecursionlimit(max(sys.getrecursionlimit(), _recursion_limit()))
    try:
        net.start(listener=listener)
        _NET.set(net)
        mod = _choreography = importlib.import_module(module)
        main = _entry_of(getattr(mod, f"{entry_class}_{role}", None))
        if main is not None:
            ctx = contextvars.copy_context()
            _in_big_thread(ctx.run, main, name=f"role-{role}")
    except BaseException as e:  # noqa: BLE001
        sys.stdout.flush()
        _report_error(role, e)
        status = 1
        why = _why(e)
    sys.stdout.flush()
    net.close(wait=0.0 if status else None, why=why)
    return status


def launch_tcp(module, entry_class, directory=".", stream=False):
    """One OS process per role on loopback; print each role's lines as `[Role] line`, grouped per
    role (or, with `stream`, as they come)."""
    sys.path.insert(0, directory)
    mod = importlib.import_module(module)
    roles = _roles_of(mod, entry_class)
    # Bind every role's listening socket here and hand it to the role's process: a port chosen
    # here and bound later by the child could be taken by another process in between.
    listeners = {r: socket.create_server(("127.0.0.1", 0)) for r in roles}
    peers = ",".join(f"{r}=127.0.0.1:{s.getsockname()[1]}" for r, s in listeners.items())
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([directory] + [p for p in [env.get("PYTHONPATH")] if p])
    env["PYTHONUNBUFFERED"] = "1"
    env.setdefault("PYCHORAL_SECRET", secrets.token_hex(32))  # other local users cannot join
    procs = []
    lock = threading.Lock()
    lines = {r: [] for r in roles}

    def pump(role, pipe):
        for raw in pipe:
            line = raw.decode("utf-8", "replace").rstrip("\n")
            if stream:
                with lock:
                    sys.stdout.write(f"[{role}] {line}\n")
                    sys.stdout.flush()
            else:
                lines[role].append(line)

    with tempfile.TemporaryDirectory() as tmp:
        pumps = []
        for r in roles:
            err = open(os.path.join(tmp, f"{r}.err"), "w+")
            fd = listeners[r].fileno()
            p = subprocess.Popen(
                [sys.executable, os.path.abspath(__file__), "tcp-role", module, entry_class, r,
                 "--peers", peers, "--listen-fd", str(fd)],
                stdout=subprocess.PIPE, stderr=err, env=env, cwd=directory, pass_fds=(fd,),
            )
            listeners[r].close()
            t = threading.Thread(target=pump, args=(r, p.stdout), daemon=True)
            t.start()
            pumps.append(t)
            procs.append((r, p, err))
        status = 0
        killed = {}
        for r, p, err in procs:
            rc = p.wait()
            if rc != 0:
                status = 1
            if rc < 0:
                try:
                    killed[r] = signal.Signals(-rc).name
                except ValueError:
                    killed[r] = f"signal {-rc}"
        for t in pumps:
            t.join()
        for r in roles:
            for line in lines[r]:
                print(f"[{r}] {line}")
        sys.stdout.flush()
        for r, p, err in procs:
            err.seek(0)
            text = err.read()
            if text:
                sys.stderr.write(text if text.endswith("\n") else text + "\n")
            if r in killed:
                sys.stderr.write(f"[{r}] pychoral: the process of {r} was killed by {killed[r]}\n")
            err.close()
    return status


def parse_peers(text):
    """`A=host:port,B=[::1]:port` → {"A": ("host", port), "B": ("::1", port)}."""
    peers = {}
    for item in text.split(","):
        name, eq, addr = item.strip().partition("=")
        host, colon, port = addr.rpartition(":")
        if host.startswith("[") and host.endswith("]"):
            host = host[1:-1]
        if not (name and eq and host and colon and port.isdigit()) or name in peers:
            raise ValueError(f"--peers: expected ROLE=host:port, found {item.strip()!r}")
        peers[name] = (host, int(port))
    return peers


def _main(argv):
    import argparse

    if sys.version_info < (3, 10):
        sys.stderr.write("pychoral: projected choreographies use `match`; they need Python 3.10 or newer\n")
        return 2

    ap = argparse.ArgumentParser(prog="pychoral_rt", description="Run a projected choreography.")
    sub = ap.add_subparsers(dest="cmd", required=True)
    run = sub.add_parser("run", help="run every role (threads, or --tcp: one process per role)")
    run.add_argument("module")
    run.add_argument("entry")
    run.add_argument("--tcp", action="store_true")
    run.add_argument("--stream", action="store_true", help="print lines as they come")
    one = sub.add_parser("tcp-role", aliases=["tcp"], help="run one role over TCP")
    one.add_argument("module")
    one.add_argument("entry")
    one.add_argument("role")
    one.add_argument("--peers", required=True, help="A=host:port,B=host:port,...")
    one.add_argument("--listen-fd", type=int, help="an inherited socket already listening on ROLE's address")
    one.add_argument("--insecure", action="store_true",
                     help="run without PYCHORAL_SECRET: anyone who reaches the port can take a role "
                          "(only on a network you trust)")
    a = ap.parse_args(argv)
    here = os.path.dirname(os.path.abspath(__file__))
    if here not in sys.path:
        sys.path.insert(0, here)
    if a.cmd == "run":
        if a.tcp:
            return launch_tcp(a.module, a.entry, os.getcwd(), a.stream)
        sys.path.insert(0, os.getcwd())
        return run_threads(a.module, a.entry, a.stream)
    try:  # cmd is "tcp-role" (or its alias "tcp")
        peers = parse_peers(a.peers)
    except ValueError as e:
        ap.error(str(e))
    if a.role not in peers:
        ap.error(f"--peers does not list role {a.role}")
    if not _secret():
        if not a.insecure:
            sys.stderr.write(
                "pychoral: PYCHORAL_SECRET is not set: without it, the first process to connect to "
                f"{peers[a.role][0]}:{peers[a.role][1]} could take a role and see or forge its messages.\n"
                "  Give every role the same secret, for example one made now:\n"
                f"    export PYCHORAL_SECRET={secrets.token_hex(32)}\n"
                "  (share it as you would a password), or pass --insecure on a network you trust.\n")
            return 2
        sys.stderr.write(
            "pychoral: WARNING: --insecure: peers are not authenticated and frames are not "
            f"protected; anyone who reaches {peers[a.role][0]}:{peers[a.role][1]} can take a role.\n")
    listener = None
    if a.listen_fd is not None:
        listener = socket.socket(fileno=a.listen_fd)
    sys.path.insert(0, os.getcwd())
    return run_tcp_role(a.module, a.entry, a.role, peers, listener, insecure=a.insecure)


if __name__ == "__main__":
    # Run as a script, this file is `__main__`; make the projected module's `import pychoral_rt`
    # see this same module (one set of exception classes, one ambient network).
    sys.modules.setdefault("pychoral_rt", sys.modules[__name__])
    try:
        sys.exit(_main(sys.argv[1:]))
    except BrokenPipeError:  # e.g. `ranklift choreo run ... | head`
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(1)
