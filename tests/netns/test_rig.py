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
