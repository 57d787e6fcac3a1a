"""When no WebRTC path exists (issue 12): the guest's home blocks UDP and the table has no STUN
or TURN at all (the page's ICE servers "[]", a relay that hands out no TURN credentials).

- With a secure page (as over https) the guest falls back to the sealed relay path and plays a
  whole hand; everything the relay carried for it, recorded in the guest's browser as sent and
  received, is signalling or AES-GCM ciphertext: no card, name, seat token or chat text.
- With a page that is not a secure origin (plain http on a network address: no WebCrypto), the
  relay path is impossible too: the guest is told so in words, within seconds, never left hanging.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import pytest

from .cell import ICE_NONE, people, play_out, seat

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "e2e"))
from relay_frames import assert_only_signalling_and_ciphertext  # noqa: E402

pytestmark = [pytest.mark.netns, pytest.mark.e2e]

KINDS = ["port-restricted", "udp-blocked"]


def test_udp_blocked_without_stun_or_turn_plays_through_the_sealed_relay(world, figures):
    with people(world, KINDS, base=world.bare) as (host, guest):
        found = seat(host, [guest], ICE_NONE, record_relay=True)
        found["kinds"] = KINDS + ["no STUN/TURN"]
        assert [path for path, _ in found["paths"]] == ["through the relay"], found
        guest.fill("chat-input", "sealed hello")
        guest.click("chat-send")
        host.expect_text("chat-lines", "sealed hello")
        play_out(host, [guest], found, "relay", hands=1)
        figures.append(found)
        assert [path for path, _ in found["final_paths"]] == ["through the relay"], found

        token = json.loads(guest.storage("cribbage.guest.v1"))["token"]
        assert_only_signalling_and_ciphertext(guest.evaluate("window.__relayFrames"), (token, "sealed hello", "Gus"))


def test_when_no_path_at_all_is_possible_the_guest_is_told_so(world, figures):
    with people(world, KINDS, secure=[True, False], base=world.bare) as (host, guest):
        for remote in (host, guest):
            remote.new_page(ICE_NONE)
        link = host.host(2)
        guest.join(link, "Gus", 0)                          # sits down; does not wait to be seated
        started = time.monotonic()
        guest.expect_text("link-status", "this page cannot use the relay instead", timeout=30)
        said = time.monotonic() - started
        assert guest.text("await-start") is None            # not seated, and not pretending to be
        assert "Empty seat" in (host.text("seat-1") or "")
        figures.append({"kinds": KINDS + ["no STUN/TURN", "not a secure origin"], "paths": [["no path", None]],
                        "seated": [], "rtt_ms": [], "message_after_sit_down_s": said,
                        "message": guest.text("link-status")})
