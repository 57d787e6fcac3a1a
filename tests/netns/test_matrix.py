"""The matrix (issue 12): a host and a guest in two homes behind every pair of NAT kinds play a
whole hand (deal, crib, play, show, into the next deal), and the host's players list shows the
path each found; then a 3-player table across three homes does the same.
bench/netns_paths.py plays every pair's whole 61-point game and times it. The page's STUN is
the rig's coturn (index.html's meta rewritten on its way into each browser), TURN credentials
come from the relay (serve.py --turn-url/--turn-secret-file). What each cell gets, and why, is in README.md here.
"""

from __future__ import annotations

import itertools

import pytest

from .cell import run_cell
from .nat import KINDS

pytestmark = [pytest.mark.netns, pytest.mark.e2e]

# What really happens (measured, explained in README.md): direct whenever one side is behind a
# full cone (its router lets the other's checks in, whatever port they come from); TURN for
# every other pair: symmetric meets a filtering router, UDP is blocked (TURN over TCP from the
# blocked side), and two port-restricted (Linux conntrack) routers cannot punch a hole
# (test_rig.py::test_hole_punching_between_two_homes shows why).
EXPECTED = {
    ("cone", "cone"): "direct",
    ("cone", "port-restricted"): "direct",
    ("cone", "symmetric"): "direct",
    ("cone", "udp-blocked"): "via TURN",
    ("port-restricted", "port-restricted"): "via TURN",
    ("port-restricted", "symmetric"): "via TURN",
    ("port-restricted", "udp-blocked"): "via TURN",
    ("symmetric", "symmetric"): "via TURN",
    ("symmetric", "udp-blocked"): "via TURN",
    ("udp-blocked", "udp-blocked"): "via TURN",
}
PAIRS = list(itertools.combinations_with_replacement(KINDS, 2))
assert set(PAIRS) == set(EXPECTED)


@pytest.mark.parametrize("host_kind,guest_kind", PAIRS, ids=[f"{a}+{b}" for a, b in PAIRS])
def test_two_homes_play_a_whole_hand(world, figures, host_kind, guest_kind):
    found = run_cell(world, [host_kind, guest_kind], hands=1)
    figures.append(found)
    expected = EXPECTED[host_kind, guest_kind]
    assert [path for path, _ in found["final_paths"]] == [expected], found    # after the play
    (seated, _), = found["paths"]
    # TURN over TCP can take about as long as the relay fallback waits (6 s) on a loaded machine:
    # a guest may sit down through the relay first, then move to TURN as soon as it opens.
    assert seated == expected or (seated == "through the relay" and "udp-blocked" in (host_kind, guest_kind)), found
    assert found["rtt_ms"], "no timed play"


def test_three_homes_play_a_whole_hand(world, figures):
    kinds = ["port-restricted", "cone", "symmetric"]
    found = run_cell(world, kinds, hands=1)
    figures.append(found)
    for when in ("paths", "final_paths"):
        assert [path for path, _ in found[when]] == ["direct", "via TURN"], found
