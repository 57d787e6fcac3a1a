"""The app's parts that are imported on first use, not at start.

A bot game needs the engine, the bots, the table and the controller. Tables with friends (the
WebRTC and relay stack), linking a device, statistics, replays and the settings screen are
imported by the code that first needs them (a function-level `import`), so a phone spends no
time at start on modules most visits never run (bench/ready_path.py times each module's import).

`AFTER_READY` lists what a bot game needs but the start does not: it is imported just after
the table is ready. `LAZY` is checked in the browser: tests/e2e/test_lazy_parts.py fails if a
bot game imports one of them.

Code that only asks *which* table it holds reads the controller's flags (``multiplayer``,
``hosting``: `web.table.model.TableModel`), never the class, so it imports none of them.

`LATER`, most of LAZY, is what only tables with friends and linking a device import (online
by definition): the built site ships them in a second zip, web/app_later.zip
(scripts/app_bundle.py), which a first visit does not download (72 KB of brotli less for it);
the service worker caches it when first fetched. Its
`BUNDLE` is brought in (`LaterBundle.ensure`) before the first of them is imported: by
web/main.py for a table's link (``?table=``, which web/snapshot.mjs fetches with app.zip), and
by `web.dom.App.online` for the start form's "Invite friends" and linking a device. Until then,
importing one raises an ImportError that names the way in (tests/test_lazy.py checks the call
sites). The statistics, replays and settings stay in web/app.zip: a bot player opens them,
offline too. The repository's page imports every source as it is: nothing to bring in there.
"""

from __future__ import annotations

import asyncio
import os
import sys
import zipimport
from collections.abc import Awaitable, Callable, Sequence
from importlib.machinery import ModuleSpec
from types import ModuleType

from .dataclass_methods import install_from

# web/app_later.zip's modules: a friends table's (its network, screens, fair deal's checks and
# spectators) and a device link's. Not game.fair: a profile's records of such tables are checked
# with it at every start.
LATER = (
    "game.blind.alarms",
    "game.blind.audit",
    "game.blind.deck",
    "game.blind.elements",
    "game.blind.group",
    "game.blind.proofs",
    "game.blind.public",
    "game.blind.seating",
    "game.blind.transcript",
    "web.profile.device_link",
    "web.profile.pake",
    "web.friends.blind_ahead",
    "web.friends.blind_flow",
    "web.friends.blind_guest",
    "web.friends.blind_host",
    "web.friends.blind_seat",
    "web.friends.blind_table",
    "web.friends.blind_view",
    "web.friends.delivery",
    "web.friends.described",
    "web.friends.fair_guest",
    "web.friends.fair_host",
    "web.friends.fair_table",
    "web.friends.fair_view",
    "web.friends.guest",
    "web.friends.host",
    "web.friends.host_controller",
    "web.friends.limits",
    "web.friends.lobby",
    "web.friends.protocol",
    "web.friends.spectator",
    "web.friends.verdicts",
    "web.friends.watchers",
    "web.net.browser",
    "web.net.channels",
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
)
LAZY = LATER + ("web.profile.view", "web.profile.replay", "web.profile.stats")

# Needed by every bot game, but not to show the start: the bots' levels (their tables and
# searches) and the coach (its hints and reviews, and the fractions it counts in), about half of
# what the start would import otherwise. web/main.py imports them in the page's first idle
# moment after the table is ready; code that needs them sooner (a game resumed at start, a
# click before then) imports them itself, as for LAZY.
AFTER_READY = ("game.bots.levels", "game.coach", "web.coach.follow")

ARCHIVE = "app_later.zip"   # where the page keeps it: Python's working directory, beside app.zip
# A member of both zips naming the build that made them (scripts/app_bundle.py): a page of an
# older build, left open while a new one was deployed, must not import a newer later zip.
STAMP = "bundle.stamp"


class LaterBundle:
    """The zip of `modules` at path `archive`, put on the import path once it is there.

    >>> import asyncio, io, os, sys, tempfile, zipfile
    >>> from concurrent.futures import ThreadPoolExecutor
    >>> def run(coroutine):   # in a thread of its own: the caller's may run an event loop already
    ...     with ThreadPoolExecutor(1) as thread:
    ...         return thread.submit(asyncio.run, coroutine).result()
    >>> folder = tempfile.mkdtemp()
    >>> os.makedirs(f"{folder}/demo_pkg"); open(f"{folder}/demo_pkg/__init__.py", "w").close()
    >>> sys.path.insert(0, folder)
    >>> zipped = io.BytesIO()
    >>> with zipfile.ZipFile(zipped, "w") as zout:
    ...     zout.writestr("demo_pkg/far.py", "ANSWER = 42")
    >>> async def fetch():
    ...     return zipped.getvalue()
    >>> later = LaterBundle(["demo_pkg.far"], f"{folder}/later.zip").fetched_by(fetch)
    >>> import demo_pkg.far
    Traceback (most recent call last):
    ImportError: demo_pkg.far is in web/app_later.zip, not fetched yet: bring it in first (web.lazy.BUNDLE.ensure, web.dom.App.online)
    >>> later.ready, run(later.ensure()), later.ready
    (False, None, True)
    >>> import demo_pkg.far
    >>> demo_pkg.far.ANSWER, demo_pkg.far.__file__.startswith(f"{folder}/later.zip")
    (42, True)
    >>> later.close(); sys.path.remove(folder)

    A zip of another build than its partner's (the page's web/app.zip) is refused, and not kept:

    >>> with zipfile.ZipFile(f"{folder}/partner.zip", "w") as zout:
    ...     zout.writestr(STAMP, "build 2")
    >>> newer = LaterBundle(["demo_pkg.other"], f"{folder}/other.zip").fetched_by(fetch, f"{folder}/partner.zip")
    >>> run(newer.ensure())
    Traceback (most recent call last):
    OSError: a new version of the game is out: reload the page
    >>> newer.ready, os.path.exists(f"{folder}/other.zip")
    (False, False)
    >>> async def garbage():
    ...     return b"no zip"
    >>> newer.fetch = garbage
    >>> run(newer.ensure())
    Traceback (most recent call last):
    OSError: a new version of the game is out: reload the page
    >>> newer.fetch = fetch; newer.stamp = None     # (a zip of this build: the stale contents go)
    >>> run(newer.ensure()); newer.ready
    True
    >>> newer.close()
    """

    def __init__(self, modules: Sequence[str], archive: str) -> None:
        self.modules = frozenset(modules)
        self.archive = archive
        self.fetch: Callable[[], Awaitable[bytes]] | None = None   # None: importable as they are
        self.path: str | None = None       # the zip's absolute path, once it is on the import path
        self.stamp: bytes | None = None    # the STAMP the zip must carry (fetched_by)
        self._loading: asyncio.Future[None] | None = None

    def fetched_by(self, fetch: Callable[[], Awaitable[bytes]], partner: str | None = None) -> LaterBundle:
        """The modules come from the zip that `fetch` returns the bytes of (web/main.py, in the
        built site), which must carry the STAMP of the zip at path `partner` (web/app.zip), if
        given; importing one before `ensure` raises an ImportError saying so."""
        self.fetch = fetch
        self.stamp = stamp_of(partner) if partner else None
        sys.meta_path.insert(0, self)
        return self

    @property
    def ready(self) -> bool:
        """Whether the modules can be imported now."""
        return self.fetch is None or self.path is not None

    async def ensure(self) -> None:
        """Bring the zip in, if it is not in yet: from the file system when web/snapshot.mjs
        wrote it already, else fetched. Callers at the same time share one fetch; an OSError
        (offline, a damaged zip) leaves nothing changed, and the next call tries again."""
        if self.ready:
            return
        if self._loading is None:
            self._loading = loading = asyncio.ensure_future(self._load())
            loading.add_done_callback(lambda _: setattr(self, "_loading", None))
        await asyncio.shield(self._loading)

    async def _load(self) -> None:
        fetch = self.fetch
        assert fetch is not None, "ready otherwise"
        self.add(None if self.fetched() else await fetch())

    def fetched(self) -> bool:
        """Whether the zip is in the file system (web/snapshot.mjs writes it for a table's link)."""
        return os.path.isfile(self.archive)

    def add(self, data: bytes | None) -> None:
        """Write the zip's bytes `data` (unless None: it is there), and put it on the import path."""
        if data is not None:
            with open(self.archive + ".part", "wb") as stream:
                stream.write(data)
            os.replace(self.archive + ".part", self.archive)
        path = os.path.abspath(self.archive)
        # (zipimport keeps each archive's table of contents: that of a file refused here before is stale)
        try:
            zipimport.zipimporter(path).invalidate_caches()
        except zipimport.ZipImportError:
            pass   # no zip at all: it has no stamp either
        if stamp_of(path) != self.stamp:   # (a damaged zip has none)
            os.remove(path)
            raise OSError("a new version of the game is out: reload the page")
        install_from(path)   # its dataclasses' methods, compiled at build time (web.dataclass_methods)
        self.path = path

    def find_spec(self, name: str, path: Sequence[str] | None = None,
                  target: ModuleType | None = None) -> ModuleSpec | None:
        """The import system's question (a meta path finder): one of `modules` comes from the
        zip, or cannot be imported yet."""
        if name not in self.modules:
            return None
        if self.path is None:
            raise ImportError(f"{name} is in web/{ARCHIVE}, not fetched yet: bring it in first "
                              "(web.lazy.BUNDLE.ensure, web.dom.App.online)", name=name)
        package = name.rpartition(".")[0].replace(".", "/")
        return zipimport.zipimporter(f"{self.path}/{package}/").find_spec(name, target)

    def close(self) -> None:
        """Off the import path (tests)."""
        if self in sys.meta_path:
            sys.meta_path.remove(self)


def stamp_of(archive: str) -> bytes | None:
    """The STAMP member of the zip at path `archive` (None if it has none, or is no zip). By
    zipimport, not zipfile: a member's name may then need the cp437 codec, not shipped."""
    try:
        return zipimport.zipimporter(archive).get_data(STAMP)
    except (OSError, zipimport.ZipImportError):
        return None


BUNDLE = LaterBundle(LATER, ARCHIVE)
