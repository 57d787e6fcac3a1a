"""The four kinds of home router, as iptables rules in a router namespace (`rig.Home`).

- ``cone`` (full cone: endpoint-independent mapping and filtering): SNAT to the router's
  address, which keeps the home's source port, and every UDP packet arriving on that address
  is sent on to the one home host, port unchanged. Anyone who learns the mapped port can reach
  the browser's socket.
- ``port-restricted`` (endpoint-independent mapping, address-and-port-dependent filtering):
  plain MASQUERADE. Linux keeps the source port, and conntrack lets in only replies from the
  address and port a packet went to.
- ``symmetric`` (endpoint-dependent mapping): ``MASQUERADE --random-fully``, a new random
  port for every destination, so the port a STUN server saw is useless to a peer.
- ``udp-blocked``: MASQUERADE for TCP, and the router drops every UDP packet both ways.

`tests/netns/test_rig.py` checks each kind's mapping and filtering with plain UDP sockets.
"""

from __future__ import annotations

from .rig import Home, run

KINDS = ("cone", "port-restricted", "symmetric", "udp-blocked")


def rules(kind: str, home: Home) -> list[list[str]]:
    """The iptables commands (without ``iptables``) that make ``home``'s router a ``kind`` NAT."""
    masquerade = ["-t", "nat", "-A", "POSTROUTING", "-o", "wan", "-j", "MASQUERADE"]
    if kind == "cone":
        return [["-t", "nat", "-A", "POSTROUTING", "-o", "wan", "-j", "SNAT", "--to-source", home.wan],
                ["-t", "nat", "-A", "PREROUTING", "-i", "wan", "-d", home.wan, "-p", "udp", "-j", "DNAT",
                 "--to-destination", home.address]]
    if kind == "port-restricted":
        return [masquerade]
    if kind == "symmetric":
        return [masquerade + ["--random-fully"]]
    if kind == "udp-blocked":
        return [masquerade, ["-A", "FORWARD", "-p", "udp", "-j", "DROP"]]
    raise ValueError(f"unknown NAT kind {kind!r}: one of {KINDS}")


def apply(home: Home, kind: str) -> None:
    """Make ``home``'s router a ``kind`` NAT (its tables flushed first)."""
    for table in ("nat", "filter"):
        run("iptables", "-t", table, "-F", ns=home.router)
    for rule in rules(kind, home):
        run("iptables", *rule, ns=home.router)
    home.kind = kind


def cut(home: Home) -> None:
    """The line between ``home`` and the internet goes dead: the router forwards nothing."""
    run("iptables", "-I", "FORWARD", "1", "-j", "DROP", "-m", "comment", "--comment", "cut", ns=home.router)


def mend(home: Home) -> None:
    """Undo `cut`."""
    run("iptables", "-D", "FORWARD", "-j", "DROP", "-m", "comment", "--comment", "cut", ns=home.router)
