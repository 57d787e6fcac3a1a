"""Plain UDP probes of a router's NAT, run inside the rig's namespaces (test_rig.py).

``server``: on 203.0.113.1, ports A and B answer each datagram with the address they saw it
come from; a datagram saying ``poke`` also makes port C (a stranger) send one to that address.
``client``: from one socket in a home, asks A and B, then A to poke; prints JSON
``{"a": [ip, port] or null, "b": ..., "poked": bool}``.
``punch PEER SECONDS``: from port 5000, sends to PEER:5000 every 0.2 s (as ICE repeats its
checks) for SECONDS; prints JSON ``{"got": [[ip, port], ...]}``, where what arrived came from.
"""

import json
import socket
import sys

SERVER, A, B, C = "203.0.113.1", 40001, 40002, 40003


def server() -> None:
    socks = {}
    for port in (A, B, C):
        sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        sock.bind((SERVER, port))
        socks[port] = sock
    print("ready", flush=True)
    import select
    while True:
        ready, _, _ = select.select([socks[A], socks[B]], [], [])
        for sock in ready:
            data, seen = sock.recvfrom(1500)
            sock.sendto(json.dumps(list(seen)).encode(), seen)
            if data == b"poke":
                socks[C].sendto(b"stranger", seen)


def client() -> None:
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    sock.bind(("0.0.0.0", 5000))
    sock.settimeout(1.0)
    found = {}
    for key, port in (("a", A), ("b", B)):
        sock.sendto(b"where", (SERVER, port))
        try:
            found[key] = json.loads(sock.recv(1500))
        except TimeoutError:
            found[key] = None
    sock.sendto(b"poke", (SERVER, A))
    found["poked"] = False
    try:
        while True:
            data = sock.recv(1500)
            if data == b"stranger":
                found["poked"] = True
                break
    except TimeoutError:
        pass
    print(json.dumps(found), flush=True)


def punch(peer: str, seconds: str) -> None:
    import time
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    sock.bind(("0.0.0.0", 5000))
    sock.settimeout(0.2)
    got, end = [], time.monotonic() + float(seconds)
    while time.monotonic() < end:
        try:
            sock.sendto(b"check", (peer, 5000))
        except OSError:          # an ICMP error from the other router, reported on this socket
            pass
        try:
            _, seen = sock.recvfrom(1500)
            if list(seen) not in got:
                got.append(list(seen))
        except (TimeoutError, OSError):
            pass
    print(json.dumps({"got": got}), flush=True)


if __name__ == "__main__":
    {"server": server, "client": client, "punch": punch}[sys.argv[1]](*sys.argv[2:])
