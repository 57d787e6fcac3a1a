"""A test internet made of Linux network namespaces: one "public" namespace (a bridge holding
203.0.113.1 for the servers and 198.51.100.1 for the routers' side) and homes, each a "home"
namespace behind its own "router" namespace.

    home (192.168.N.2) --lan-- router (192.168.N.1 | 198.51.100.N) --wan-- public bridge

Every link is a veth pair created directly between two of our namespaces: nothing is ever
attached to the root namespace, and the public namespace's default route goes into a veth
(a sink: its other end drops what it is given), so a packet for any other address is dropped
inside the rig instead of failing with ENETUNREACH (coturn closes allocations on that error,
and Chromium gathers no candidates without a default route).

Homes and routers have no IPv6 (`_ipv4_only`): a link's IPv6 link-local address turns valid
a second or so after the link comes up (duplicate address detection), and Chromium, seeing
an address appear, aborts every request in flight with ERR_NETWORK_CHANGED: a page opened in
a fresh home then sometimes never loaded (CI, 2026-12-03). The rig's addresses are IPv4.

Every name starts with `PREFIX` and the making process's pid; `sweep()` removes whatever an
earlier, killed run left (and leaves alone the namespaces of a run still going).
"""

from __future__ import annotations

import os
import secrets
import shutil
import signal
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

PREFIX = "cbnt-"
NETNS_DIR = Path("/run/netns")
SERVER = "203.0.113.1"          # serve.py and coturn
GATEWAY = "198.51.100.1"        # the public namespace, seen from the routers
SINK_GATEWAY = "203.0.113.254"  # no one: the next hop of the public namespace's default route
ALLOWED = ("203.0.113.", "198.51.100.", "192.168.")   # every address the rig hands out


def run(*argv: str, check: bool = True, ns: str | None = None) -> subprocess.CompletedProcess:
    """Run a command (inside namespace ``ns`` if given), capturing its output."""
    full = ["ip", "netns", "exec", ns, *argv] if ns else list(argv)
    done = subprocess.run(full, capture_output=True, text=True)
    if check and done.returncode:
        raise RuntimeError(f"{' '.join(full)}: exit {done.returncode}: {done.stderr.strip()}")
    return done


def ours() -> list[str]:
    """Namespaces with our prefix (from any run)."""
    listed = run("ip", "netns", "list", check=False).stdout.split("\n")
    return [line.split()[0] for line in listed if line.startswith(PREFIX)]


def kill_inside(ns: str) -> None:
    """End every process still running inside namespace ``ns`` (ours: only we start processes there)."""
    for text in run("ip", "netns", "pids", ns, check=False).stdout.split():
        try:
            os.kill(int(text), signal.SIGKILL)
        except (ProcessLookupError, ValueError):
            pass


def delete(ns: str) -> None:
    """Delete a namespace and its processes; its veths, routes and iptables rules go with it."""
    kill_inside(ns)
    run("ip", "netns", "del", ns, check=False)


def _owner_alive(ns: str) -> bool:
    """Whether the process that made ``ns`` (its pid is in the name) is still running."""
    try:
        pid = int(ns[len(PREFIX):].split("-")[0])
        os.kill(pid, 0)
    except (ValueError, ProcessLookupError):
        return False
    except PermissionError:
        return True
    return True


def sweep() -> list[str]:
    """Remove every namespace an earlier run left behind (its maker is gone: a run still going
    on this machine keeps its own); returns their names."""
    found = [ns for ns in ours() if not _owner_alive(ns)]
    for ns in found:
        delete(ns)
    return found


def _ipv4_only(ns: str) -> None:
    """Turn IPv6 off in ``ns`` before any link is made there (see the module's docstring)."""
    if Path("/proc/sys/net/ipv6").exists():   # a kernel without IPv6 has nothing to turn off
        run("sysctl", "-qw", "net.ipv6.conf.all.disable_ipv6=1",
            "net.ipv6.conf.default.disable_ipv6=1", ns=ns)


def _check_address(address: str) -> None:
    if not address.startswith(ALLOWED):
        raise ValueError(f"{address} is outside the rig's ranges")


@dataclass
class Home:
    """A home namespace (where a browser runs) behind its router namespace."""

    index: int
    ns: str
    router: str
    address: str        # the browser's private address
    wan: str            # the router's public address
    kind: str = "port-restricted"


@dataclass
class Internet:
    """The public namespace and the homes built on it (`add_home`); `close()` removes all."""

    run_id: str = field(default_factory=lambda: f"{os.getpid()}-{secrets.token_hex(2)}")
    made: list[str] = field(default_factory=list)
    homes: list[Home] = field(default_factory=list)
    count: int = 0

    @property
    def public(self) -> str:
        return f"{PREFIX}{self.run_id}-pub"

    def _add(self, ns: str, ipv6: bool = True) -> None:
        run("ip", "netns", "add", ns)
        self.made.append(ns)
        if not ipv6:
            _ipv4_only(ns)
        run("ip", "link", "set", "lo", "up", ns=ns)

    def build(self) -> Internet:
        self._add(self.public)
        pub = self.public
        run("ip", "link", "add", "br0", "type", "bridge", ns=pub)
        run("ip", "link", "set", "br0", "up", ns=pub)
        for address in (f"{SERVER}/24", f"{GATEWAY}/24"):
            _check_address(address)
            run("ip", "addr", "add", address, "dev", "br0", ns=pub)
        # The sink: a veth pair inside the public namespace, the default route through a made-up
        # gateway with a permanent neighbour entry: frames go out of one end and the other end
        # drops them (not its MAC address); no sender ever gets an error.
        run("ip", "link", "add", "sink", "type", "veth", "peer", "name", "sink-end", ns=pub)
        for end in ("sink", "sink-end"):
            run("ip", "link", "set", end, "up", ns=pub)
        run("ip", "neigh", "add", SINK_GATEWAY, "lladdr", "02:00:00:00:00:01", "dev", "sink", "nud", "permanent",
            ns=pub)
        run("ip", "route", "add", "default", "via", SINK_GATEWAY, "dev", "sink", "onlink", ns=pub)
        return self

    def add_home(self) -> Home:
        """A new home behind a new router (no NAT yet: see `nat.apply`)."""
        self.count += 1
        n = self.count
        home = Home(n, f"{PREFIX}{self.run_id}-h{n}", f"{PREFIX}{self.run_id}-r{n}",
                    f"192.168.{10 + n}.2", f"198.51.100.{10 + n}")
        lan_gw = f"192.168.{10 + n}.1"
        for address in (home.address, home.wan, lan_gw):
            _check_address(address)
        self._add(home.router, ipv6=False)
        self._add(home.ns, ipv6=False)
        # router <-> public bridge
        run("ip", "link", "add", "wan", "netns", home.router, "type", "veth", "peer", "name", f"p{n}",
            "netns", self.public)
        run("ip", "link", "set", f"p{n}", "master", "br0", ns=self.public)
        run("ip", "link", "set", f"p{n}", "up", ns=self.public)
        run("ip", "addr", "add", f"{home.wan}/24", "dev", "wan", ns=home.router)
        run("ip", "link", "set", "wan", "up", ns=home.router)
        run("ip", "route", "add", "default", "via", GATEWAY, ns=home.router)
        # home <-> router
        run("ip", "link", "add", "eth0", "netns", home.ns, "type", "veth", "peer", "name", "lan",
            "netns", home.router)
        run("ip", "addr", "add", f"{lan_gw}/24", "dev", "lan", ns=home.router)
        run("ip", "link", "set", "lan", "up", ns=home.router)
        run("ip", "addr", "add", f"{home.address}/24", "dev", "eth0", ns=home.ns)
        run("ip", "link", "set", "eth0", "up", ns=home.ns)
        run("ip", "route", "add", "default", "via", lan_gw, ns=home.ns)
        run("sysctl", "-qw", "net.ipv4.ip_forward=1", ns=home.router)
        self.homes.append(home)
        return home

    def remove_home(self, home: Home) -> None:
        for ns in (home.ns, home.router):
            delete(ns)
            if ns in self.made:
                self.made.remove(ns)
        self.homes.remove(home)

    def close(self) -> None:
        for ns in reversed(self.made):
            delete(ns)
        self.made.clear()
        self.homes.clear()


def refused() -> str | None:
    """Why this machine cannot build the rig (None: it can)."""
    if os.geteuid() != 0:
        return "the network-namespace tests need root (ip netns, iptables)"
    for tool, package in (("ip", "iproute2"), ("iptables", "iptables"), ("turnserver", "coturn")):
        if shutil.which(tool) is None:
            return f"{tool} is missing (apt-get install {package}, or scripts/setup --netns)"
    probe = f"{PREFIX}{os.getpid()}-probe"
    done = run("ip", "netns", "add", probe, check=False)
    if done.returncode:
        return f"'ip netns add' was refused here: {done.stderr.strip()}"
    try:
        if run("iptables", "-t", "nat", "-L", "-n", check=False, ns=probe).returncode:
            return "iptables cannot change the nat table in a network namespace here"
    finally:
        run("ip", "netns", "del", probe, check=False)
    return None
