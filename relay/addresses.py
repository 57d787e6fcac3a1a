"""Which client a connection is for: the peer's address, or behind a trusted proxy the one its
X-Forwarded-For names (`client_address`); `network` reads a ``--trusted-proxy``."""

import argparse
import ipaddress

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def ip(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    """An address as a socket or an X-Forwarded-For entry gives it (a port or brackets
    around an IPv6 address allowed, an IPv4 address mapped into IPv6 unmapped); None if it
    is not one.

    >>> [str(ip(t)) for t in ("203.0.113.9", "203.0.113.9:4711", "[2001:db8::1]:443", "::ffff:10.0.0.1", "x")]
    ['203.0.113.9', '203.0.113.9', '2001:db8::1', '10.0.0.1', 'None']
    """
    text = text.strip()
    if text.startswith("["):
        text = text[1:].partition("]")[0]
    elif text.count(":") == 1:
        text = text.partition(":")[0]
    try:
        address = ipaddress.ip_address(text)
    except ValueError:
        return None
    return getattr(address, "ipv4_mapped", None) or address


def within(address: ipaddress.IPv4Address | ipaddress.IPv6Address | None, networks: tuple[Network, ...]) -> bool:
    """Whether an address (None: not one) lies in one of the networks."""
    return address is not None and any(address in net for net in networks)


def client_address(peer: str, forwarded: str | None, trusted: tuple[Network, ...]) -> str:
    """The address a request comes from: the peer's, unless the peer is a trusted proxy
    (``trusted``, `--trusted-proxy`); then the right-most X-Forwarded-For entry that is not a
    trusted proxy's. Each proxy appends the address it got the request from, so what lies
    left of that entry was written by the client itself and proves nothing; a header from
    anyone else is ignored. A malformed entry stops the walk at the last hop vouched for.

    >>> nets = (ipaddress.ip_network("10.0.0.0/8"),)
    >>> client_address("10.0.0.2", "203.0.113.9", nets)
    '203.0.113.9'
    >>> client_address("10.0.0.2", "1.1.1.1, 203.0.113.9, 10.0.0.7", nets)   # 1.1.1.1: the client's claim
    '203.0.113.9'
    >>> client_address("198.51.100.4", "203.0.113.9", nets)   # not from a trusted proxy: ignored
    '198.51.100.4'
    >>> client_address("10.0.0.2", None, nets), client_address("10.0.0.2", "203.0.113.9, junk", nets)
    ('10.0.0.2', '10.0.0.2')
    """
    hop = ip(peer)
    if not within(hop, trusted):
        return peer
    for entry in reversed((forwarded or "").split(",")):
        address = ip(entry)
        if address is None:
            break
        hop = address
        if not within(hop, trusted):
            break
    return str(hop)


def network(text: str) -> Network:
    """A --trusted-proxy: an address (one host) or a network in CIDR notation.

    >>> network("10.0.0.5"), network("172.30.0.0/24"), network("fd00::/8")
    (IPv4Network('10.0.0.5/32'), IPv4Network('172.30.0.0/24'), IPv6Network('fd00::/8'))
    """
    try:
        return ipaddress.ip_network(text.strip(), strict=False)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an address or a network (CIDR): {text!r}") from None
