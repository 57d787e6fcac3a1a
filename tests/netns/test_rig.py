"""The rig itself: each kind of router maps and filters UDP as its name says, the homes reach
the public servers and nothing else, and no address outside the rig's ranges is used."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from . import nat, rig

pytestmark = pytest.mark.netns

PROBE = Path(__file__).with_name("udp_probe.py")


@pytest.fixture
def probe_server(world):
    child = subprocess.Popen(["ip", "netns", "exec", world.internet.public, sys.executable, str(PROBE), "server"],
                             stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout.readline().strip() == "ready"
        yield
    finally:
        child.kill()
        child.wait(timeout=5)
        child.stdout.close()


@pytest.mark.parametrize("kind", nat.KINDS)
def test_each_router_maps_and_filters_udp_as_its_kind(world, probe_server, kind):
    home = world.internet.add_home()
    try:
        nat.apply(home, kind)
        out = rig.run(sys.executable, str(PROBE), "client", ns=home.ns).stdout
        seen = json.loads(out)
    finally:
        world.internet.remove_home(home)
    if kind == "udp-blocked":
        assert seen == {"a": None, "b": None, "poked": False}
        return
    assert seen["a"][0] == seen["b"][0] == home.wan            # the router's public address
    if kind == "symmetric":
        assert seen["a"][1] != seen["b"][1]                     # a new port per destination
    else:
        assert seen["a"][1] == seen["b"][1] == 5000             # one mapping, the home's port kept
    assert seen["poked"] is (kind == "cone")                    # only a full cone lets a stranger in


def test_the_rig_stays_inside_its_namespaces(world):
    home = world.internet.add_home()
    try:
        nat.apply(home, "port-restricted")
        for ns in (world.internet.public, home.router, home.ns):
            addresses = rig.run("ip", "-4", "-o", "addr", "show", ns=ns).stdout
            for line in addresses.splitlines():
                address = line.split()[3]
                assert address.startswith(("127.", *rig.ALLOWED)), (ns, address)
        for ns in (home.router, home.ns):   # no IPv6 address to appear while a page loads
            assert rig.run("ip", "-6", "-o", "addr", "show", ns=ns).stdout.strip() == "", ns
        routes = rig.run("ip", "route", "show", "default", ns=world.internet.public).stdout
        assert routes.split()[:5] == ["default", "via", rig.SINK_GATEWAY, "dev", "sink"], routes
        # A packet from the public side for an address outside the rig goes into the sink.
        def sunk() -> int:
            return int(rig.run("cat", "/sys/class/net/sink/statistics/tx_packets", ns=world.internet.public).stdout)
        before = sunk()
        done = rig.run(sys.executable, "-c", "import socket; s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); "
                       "s.sendto(b'x', ('192.0.2.9', 9)); print('sent')", ns=world.internet.public)
        assert done.stdout.strip() == "sent"
        assert sunk() > before
    finally:
        world.internet.remove_home(home)
    mine = [ns for ns in rig.ours() if ns.startswith(f"{rig.PREFIX}{world.internet.run_id}-")]
    assert set(mine) == set(world.internet.made)


@pytest.mark.parametrize("kinds", [("port-restricted", "port-restricted"), ("port-restricted", "cone")],
                         ids=["port-restricted+port-restricted", "port-restricted+cone"])
def test_hole_punching_between_two_homes(world, kinds):
    """Why two port-restricted homes end up on TURN: A's first packet reaches B's router before B
    has sent anything; conntrack keeps an entry for it (A's mapped address -> B's router), which
    A's repeated checks keep alive. B's packets to A then cannot use B's mapped port for that
    destination (the tuple is taken), so MASQUERADE picks another port, which A's router, expecting
    B's mapped port, drops. Neither side ever hears the other. Behind a full cone, B's router lets
    A's packet straight in, and both hear each other."""
    a, b = world.internet.add_home(), world.internet.add_home()
    try:
        nat.apply(a, kinds[0])
        nat.apply(b, kinds[1])
        first = subprocess.Popen(["ip", "netns", "exec", a.ns, sys.executable, str(PROBE), "punch", b.wan, "4"],
                                 stdout=subprocess.PIPE, text=True)
        import time
        time.sleep(1.0)                                          # A's checks are out first
        second = json.loads(rig.run(sys.executable, str(PROBE), "punch", a.wan, "2", ns=b.ns).stdout)
        first_got = json.loads(first.communicate(timeout=10)[0])
    finally:
        world.internet.remove_home(a)
        world.internet.remove_home(b)
    if kinds[1] == "cone":
        assert first_got["got"] == [[b.wan, 5000]] and second["got"] == [[a.wan, 5000]]
    else:
        assert first_got["got"] == [] and second["got"] == []
