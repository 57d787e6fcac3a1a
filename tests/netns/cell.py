"""One cell of the matrix: people in homes behind given NAT kinds sit at a table, the host's
players list says how each guest is connected, and they play a 61-point game to its verdict
(or a given number of whole hands: the tests play one, bench/netns_paths.py whole games).
Used by the tests (which assert on the result) and by bench/netns_paths.py (which repeats it).
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from . import nat, rig, services
from .browser import Remote
from .rig import Internet
from .services import STUN_URL

ICE_RIG = json.dumps([{"urls": STUN_URL}])    # the page's STUN: the rig's coturn (TURN comes from the relay)
ICE_NONE = "[]"                               # no STUN at all
PATH = re.compile(r"(direct|via TURN|through the relay)(?:, (\d+) ms)?")
NAMES = ("Hana", "Gus", "Ivy")
HOST_KEY = "cribbage.host.v1"


@dataclass
class World:
    """What a session shares: the rig's public side and its two sites."""

    internet: Internet
    base: str        # serve.py handing out TURN credentials for the rig's coturn
    bare: str        # serve.py without TURN
    logs: Path


@contextmanager
def open_world(logs: Path, root: Path = services.ROOT) -> Iterator[World]:
    """The rig's public side for a session: its namespace, coturn, a site handing out TURN
    credentials and a bare one, serving ``root`` (the repository, or a built dist/); every
    namespace with our prefix removed before and after."""
    rig.sweep()
    internet = Internet()
    try:
        internet.build()
        secret = services.new_secret()
        with services.coturn(internet.public, logs / "coturn", secret), \
                services.site(internet.public, logs / "site", root, secret) as base, \
                services.site(internet.public, logs / "bare", root) as bare:
            yield World(internet, base, bare, logs)
    finally:
        internet.close()
        rig.sweep()


@contextmanager
def people(world: World, kinds: list[str], secure: list[bool] | None = None,
           base: str | None = None) -> Iterator[list[Remote]]:
    """One home per kind (its router that kind of NAT), a browser in each; all removed after.
    ``secure``: per browser, whether the site counts as a secure origin (as over https);
    ``base``: the site (default the one with TURN)."""
    homes, remotes = [], []
    secure = secure or [True] * len(kinds)
    try:
        for kind in kinds:
            home = world.internet.add_home()
            homes.append(home)
            nat.apply(home, kind)
        for index, (home, safe) in enumerate(zip(homes, secure)):
            remotes.append(Remote(home, base or world.base, world.logs / f"{home.ns}.log", secure=safe,
                                  name=f"{NAMES[index]}@{home.kind}"))
        for remote in remotes:
            remote.ready()
        yield remotes
    finally:
        for remote in remotes:
            remote.close()
        for home in homes:
            world.internet.remove_home(home)


def seat_path(host: Remote, seat: int, timeout: float = 30) -> tuple[str, int | None]:
    """The path the host's players list shows for ``seat`` (in the lobby and during the game),
    once it has a round trip."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = PATH.search(host.text(f"seat-{seat}") or "")
        if found and found[2]:
            return (found[1], int(found[2]))
        time.sleep(0.3)
    raise AssertionError(f"the players list never showed seat {seat}'s path: {host.text(f'seat-{seat}')!r}")


def play(remotes: list[Remote], timed: list[Remote], timeout: float = 240, hands: int | None = None) -> list[float]:
    """Play every seat until all show the verdict (or, with ``hands``, until the host has dealt
    that many hands after the first: each of them discarded, played, shown and scored); the
    round trips (ms) of ``timed`` seats' plays."""
    host, first = remotes[0], host_state(remotes[0]).hand_no
    rtts, deadline = [], time.monotonic() + timeout
    while time.monotonic() < deadline:
        done = []
        for remote in remotes:
            what, ms = remote.step(remote in timed)
            done.append(what)
            if ms is not None:
                rtts.append(ms)
        if all(what == "over" for what in done):
            return rtts
        if hands is not None and host_state(host).hand_no >= first + hands:
            return rtts
        if all(what in ("over", "") for what in done):
            time.sleep(0.03)
    raise AssertionError(f"the game did not finish in {timeout:.0f} s")


def shoot(remotes: list[Remote], label: str) -> None:
    """Screenshots of every page (test-artifacts/netns-LABEL-N.png), as far as they can be taken."""
    for index, remote in enumerate(remotes):
        try:
            remote.screenshot(f"netns-{label}-{index}", timeout=20)
        except Exception:
            pass


def host_state(host: Remote):
    from web.friends.host import HostTable
    return HostTable.from_json(host.storage(HOST_KEY)).session.state


def check_scores(host: Remote, remotes: list[Remote], over: bool = True, timeout: float = 10) -> None:
    """Every page shows the host's scores (``over``: at the verdict), within ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        state = host_state(host)
        assert state.phase == "over" or not over, state.phase
        wanted = [str(min(score, state.config.target)) for score in state.scores]
        shown = {remote.name: [remote.text(f"score-{side}") for side in range(len(wanted))] for remote in remotes}
        if all(scores == wanted for scores in shown.values()):
            return
        assert time.monotonic() < deadline, f"the pages show {shown}, the host has {wanted}"
        time.sleep(0.2)


def seat(host: Remote, guests: list[Remote], ice: str = ICE_RIG, players: int | None = None,
         record_relay: bool = False) -> dict:
    """Fresh pages; the host opens a table, each guest sits down; times and paths."""
    for remote in (host, *guests):
        remote.new_page(ice, record_relay)
    link = host.host(players or len(guests) + 1)
    try:
        times = [guest.join(link, NAMES[index + 1]) for index, guest in enumerate(guests)]
    except Exception:
        shoot([host, *guests], "seat")
        raise
    for remote in (host, *guests):
        assert remote.ice_meta() == ice, f"{remote.name}: the page's ICE servers were not the rig's"
    paths = [seat_path(host, index + 1) for index in range(len(guests))]
    return {"link": link, "seated": times, "paths": paths}


def play_out(host: Remote, guests: list[Remote], found: dict, label: str, start: bool = True,
             hands: int | None = None) -> dict:
    """Start the game, play it to the verdict (or ``hands`` whole hands), check that every page
    shows the host's scores; adds the figures to ``found``."""
    remotes = [host, *guests]
    if start:
        host.click("start-table")
        host.expect_visible("hand")
    started = time.monotonic()
    try:
        rtts = play(remotes, timed=guests, hands=hands)
        check_scores(host, remotes, over=hands is None)
    except Exception:
        shoot(remotes, label)
        raise
    found.update(rtt_ms=rtts, game_s=time.monotonic() - started, hands=hands or "game",
                 final_paths=[seat_path(host, index + 1) for index in range(len(guests))],
                 errors=[e for r in remotes for e in r.page_errors()])
    return found


def run_cell(world: World, kinds: list[str], ice: str = ICE_RIG, hands: int | None = None) -> dict:
    """The whole cell: seat, read the paths, play to the verdict (or ``hands`` whole hands),
    check every page's scores."""
    with people(world, kinds) as remotes:
        host, guests = remotes[0], remotes[1:]
        found = seat(host, guests, ice)
        found["kinds"] = kinds
        return play_out(host, guests, found, "-".join(kinds), hands=hands)
