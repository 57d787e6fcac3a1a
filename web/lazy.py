"""The app's parts that are imported on first use, not at start.

A bot game needs the engine, the bots, the table and the controller. Tables with friends (the
WebRTC and relay stack), linking a device, statistics, replays and the settings screen are
imported by the code that first needs them (a function-level `import`), so a phone spends no
time at start on modules most visits never run. They ship in the same web/app.zip: the bytes
are cheap next to the CPU (bench/ready_path.py times each module's import).

`AFTER_READY` lists what a bot game needs but the start does not: it is imported just after
the table is ready. `LAZY` is checked in the browser: tests/e2e/test_play_bot.py fails if a bot game imports one of
them; snapshot visits (web/snapshot.mjs) may hold them all, which costs nothing there.

Code that only asks *which* table it holds reads the controller's flags (``multiplayer``,
``hosting``: `web.table.model.TableModel`), never the class, so it imports none of them.
"""

from __future__ import annotations

LAZY = (
    "web.profile.device_link",
    "web.profile.pake",
    "web.friends.delivery",
    "web.friends.guest",
    "web.friends.host",
    "web.friends.host_controller",
    "web.friends.limits",
    "web.friends.protocol",
    "web.net.browser",
    "web.net.frames",
    "web.net.guest_net",
    "web.net.host_net",
    "web.net.keystore",
    "web.net.offers",
    "web.net.relay_path",
    "web.net.relay_socket",
    "web.net.rtc",
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
