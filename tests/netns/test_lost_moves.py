"""Lost moves across the rig (issue 19): mid-game, the guest's router forwards nothing for a few
seconds (every packet dropped both ways: the data channel and the relay's WebSocket alike), and
the guest discards during that time. When the line comes back the discard reaches the host
exactly once, and the game goes on through the next deal.
"""

from __future__ import annotations

import time

import pytest

from . import nat
from .cell import host_state, people, play_out, seat

pytestmark = [pytest.mark.netns, pytest.mark.e2e]

KINDS = ["port-restricted", "cone"]
OUTAGE = 8.0        # seconds: past ICE's "disconnected" (about 5 s), short of "failed"


def guest_moves(host) -> list[str]:
    return [str(action) for action in host_state(host).actions if action.seat == 1]


def test_a_discard_made_while_the_line_is_down_arrives_once(world, figures):
    with people(world, KINDS) as (host, guest):
        found = seat(host, [guest])
        found["kinds"] = KINDS + ["line down 8 s"]
        host.click("start-table")
        guest.expect_visible("hand")
        home = guest.home
        nat.cut(home)
        try:
            cut_at = time.monotonic()
            what = ""
            while what != "discard":
                what, _ = guest.step()
                assert time.monotonic() - cut_at < 20, "the guest could not discard"
            assert guest_moves(host) == []                    # nothing got through
            time.sleep(max(0.0, OUTAGE - (time.monotonic() - cut_at)))
            assert guest_moves(host) == []
            assert "Sending your move" in (guest.text("status") or "")
        finally:
            nat.mend(home)
        mended = time.monotonic()
        while len(guest_moves(host)) < 1:
            assert time.monotonic() - mended < 45, "the discard never reached the host"
            time.sleep(0.2)
        found["delivered_after_mend_s"] = time.monotonic() - mended
        time.sleep(2)
        assert len(guest_moves(host)) == 1, guest_moves(host)
        play_out(host, [guest], found, "lost-moves", start=False, hands=1)
        figures.append(found)
