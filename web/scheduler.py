"""What the page does while the player watches or reads, one thing at a time: the beat before
the show, the bots' moves at the chosen pace, the coach's reviews, the show moving on by itself,
an imported game's review, and the card faces ahead of need. One of the few modules allowed to
touch the browser FFI (it only sleeps and hands long thinking out in slices, `web.slices`).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterable
from typing import TYPE_CHECKING, Protocol

from .slices import THINK_SLICE, Slices

if TYPE_CHECKING:
    from .profile.screens import ProfileScreens
    from .seat import SeatTable

BOT_DELAY = {"slow": 1.3, "normal": 0.7, "fast": 0.25, "instant": 0.0}   # seconds between bot moves
AUTO_CONTINUE_AFTER = 3.0
# How long the play's end stays on the table before the show (web.table.screen): the last
# card lands, its points are pegged and said. Instant play opens the show in the next task.
PLAY_END_BEAT = {"slow": 2.2, "normal": 1.6, "fast": 1.0, "instant": 0.0}
# ... and the card that ended a count (a 31, a go) with its count, before the pile clears.
COUNT_END_BEAT = {"slow": 1.6, "normal": 1.1, "fast": 0.7, "instant": 0.0}
FRAME_PAUSE = 0.05   # seconds: long enough for the browser to draw a frame in between
FACES_AHEAD_PAUSE = 0.05   # seconds between the batches of card faces added while the page is idle


async def think(steps: Iterable[None]) -> None:
    """Run a generator that yields while it thinks (a bot's move, the coach's review of one
    play) in slices of at most `THINK_SLICE` seconds, the page free in between (input, paint,
    the network): `web.slices`."""
    slices = Slices(THINK_SLICE)
    slices.start(time.perf_counter())
    for _ in steps:
        if slices.step_done(time.perf_counter()):
            await asyncio.sleep(0)
            slices.start(time.perf_counter())


class Page(Protocol):
    """What the scheduler uses of the `web.dom.App` it serves (a floor above: not imported)."""

    ctl: SeatTable
    profile: ProfileScreens

    @property
    def speed(self) -> str: ...
    def after_input(self) -> None: ...
    def moved(self) -> None: ...
    def faces_missing(self) -> bool: ...
    def add_faces_ahead(self) -> None: ...


class Scheduler:
    """The page's idle loop for the `web.dom.App` it serves (its controller, profile, pace and
    repaint), running while there is something to do and started again after each input."""

    def __init__(self, app: Page) -> None:
        self.app = app
        self.running = False
        self.task: asyncio.Task[None] | None = None

    def kick(self) -> None:
        if not self.running:
            self.task = asyncio.ensure_future(self.run())

    async def run(self) -> None:
        self.running = True
        try:
            while await self.step():
                pass
        finally:
            self.running = False

    async def step(self) -> bool:
        """Do the next thing due, if any: whether there may be more."""
        app = self.app
        ctl, speed = app.ctl, app.speed
        seen = ctl.seat_screen
        beat = seen.beat
        if beat is not None:
            await asyncio.sleep((PLAY_END_BEAT if seen.play_end is not None else COUNT_END_BEAT)[speed])
            if seen.beat is beat:
                seen.end_beat()
                app.after_input()
                # The coach draws the counted hand's review next: after the show's frame, or its
                # repaint would make the browser lay the show out at once.
                await asyncio.sleep(FRAME_PAUSE)
            return True
        if ctl.bot_waiting():
            await asyncio.sleep(BOT_DELAY[speed])
            if ctl.bot_waiting():
                await think(ctl.bot_thinking())
                app.moved()
            return True
        if ctl.coach_waiting():
            await think(ctl.coach_thinking())
        elif seen.show and ctl.prefs.get("auto_continue"):
            shown = seen.show
            await asyncio.sleep(AUTO_CONTINUE_AFTER if speed != "instant" else 0)
            if seen.show is not shown:
                return True
            ctl.command("continue")
        elif app.profile.review_due():     # an imported game's figures, a hand at a time
            await think(app.profile.reviewing())
        elif app.faces_missing():
            app.add_faces_ahead()          # (nothing on the screen changes)
            await asyncio.sleep(FACES_AHEAD_PAUSE)
            return True
        else:
            return False
        app.moved()
        return True
