"""Round-trip latency of `com` in pychoral_rt, for bench/choreo.sh.

Usage: python3 bench/choreo_rtt.py ROUNDS

Two roles ping-pong an int `ROUNDS` times through real channel ends (the code a projection runs):
over the thread transport (LocalNetwork: two threads, one process) and over the TCP loopback
transport (TcpNetwork: two processes, one connection). Prints one line per transport:
`transport round_trip_us messages_per_s` (a round trip is two messages).
"""

import os
import secrets
import socket
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
import pychoral_rt as rt  # noqa: E402


def ping(ch, rounds):
    for i in range(rounds):
        ch.com(i)
        ch.com()


def pong(ch, rounds):
    for _ in range(rounds):
        ch.com(ch.com() + 1)


def threads(rounds):
    net = rt.LocalNetwork(["A", "B"])
    a = rt.ChannelEnd(net, "ab", "A", "B")
    b = rt.ChannelEnd(net, "ab", "B", "A")
    t = threading.Thread(target=pong, args=(b, rounds))
    t.start()
    start = time.perf_counter()
    ping(a, rounds)
    elapsed = time.perf_counter() - start
    t.join()
    return elapsed


def tcp_role(role, port_a, port_b, rounds):
    peers = {"A": ("127.0.0.1", port_a), "B": ("127.0.0.1", port_b)}
    net = rt.TcpNetwork(role, peers)
    net.start()
    ch = rt.ChannelEnd(net, "ab", role, "B" if role == "A" else "A")
    ping(ch, 50) if role == "A" else pong(ch, 50)  # warm up
    start = time.perf_counter()
    ping(ch, rounds) if role == "A" else pong(ch, rounds)
    elapsed = time.perf_counter() - start
    net.close()
    return elapsed


def free_ports(n):
    """Ports free right now (the benchmark's two roles bind them a moment later)."""
    socks = [socket.create_server(("127.0.0.1", 0)) for _ in range(n)]
    ports = [s.getsockname()[1] for s in socks]
    for s in socks:
        s.close()
    return ports


def tcp(rounds):
    # As every real deployment runs: authenticated, each frame with its HMAC.
    os.environ.setdefault("PYCHORAL_SECRET", secrets.token_hex(32))
    port_a, port_b = free_ports(2)
    peer = subprocess.Popen([sys.executable, __file__, "--tcp-role", "B", str(port_a), str(port_b), str(rounds)])
    elapsed = tcp_role("A", port_a, port_b, rounds)
    assert peer.wait() == 0
    return elapsed


def main():
    if sys.argv[1] == "--tcp-role":
        role, pa, pb, rounds = sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
        tcp_role(role, pa, pb, rounds)
        return
    rounds = int(sys.argv[1])
    for name, fn in [("threads", threads), ("tcp", tcp)]:
        best = min(fn(rounds) for _ in range(3))
        print(f"{name} {best / rounds * 1e6:.1f} {2 * rounds / best:.0f}")


if __name__ == "__main__":
    main()
