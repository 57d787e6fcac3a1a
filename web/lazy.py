"""The app's parts that are imported on first use, not at start.

A bot game needs the engine, the bots, the table and the controller. Tables with friends (the
WebRTC and relay stack), linking a device, statistics, replays and the settings screen are
imported by the code that first needs them (a function-level `import`), so a phone spends no
time at start on modules most visits never run. They ship in the same web/app.zip: the bytes
are cheap next to the CPU (bench/ready_path.py times each module's import).

`AFTER_READY` lists what a bot game needs but the start does not: it is imported just after
the table is ready. `LAZY` is checked in the browser: tests/e2e/test_play_bot.py fails if a bot game imports one of
them; snapshot visits (web/snapshot.mjs) may hold them all, which costs nothing there.

Code that only asks *whether* an object is one of a lazy module's classes must not import that
module to find out; `is_a` looks in `sys.modules` instead:

>>> is_a(object(), "web.friends.host_controller:HostController")   # never imported: cannot be one
False
>>> import fractions
>>> is_a(fractions.Fraction(1, 2), "fractions:Fraction")
True
"""

from __future__ import annotations

import sys

LAZY = (
    "web.profile.device_link",
    "web.friends.delivery",
    "web.friends.guest",
    "web.friends.host",
    "web.friends.host_controller",
    "web.friends.limits",
    "web.friends.protocol",
    "web.net.frames",
    "web.net.keystore",
    "web.net.offers",
    "web.net.relay_path",
    "web.net.signal_code",
    "web.net.transport",
    "web.profile.view",
    "web.profile.replay",
    "web.profile.stats",
)

# Needed by every bot game, but not to show the start: the bots' levels (their tables and
# searches) and the coach (its hints and reviews, and the fractions it counts in), about half of
# what the start would import otherwise. web/main.py imports them in the page's first idle
# moment after the table is ready; code that needs them sooner (a game resumed at start, a
# click before then) imports them itself, as for LAZY.
AFTER_READY = ("game.bots.levels", "game.coach", "web.coach.follow")


def is_a(value, where: str) -> bool:
    """isinstance(value, the class `where` names as "module:Class"), without importing the
    module: no object can be an instance of a class whose module was never imported."""
    module, _, name = where.partition(":")
    loaded = sys.modules.get(module)
    return loaded is not None and isinstance(value, getattr(loaded, name))
