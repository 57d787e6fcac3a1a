"""Tables with friends in the browser: host a table or join one, invites by link (through the
relay) or by code (without it), the connection's state in words, and leaving. One of the few
modules allowed to touch the browser FFI; the network itself is `web.net.transport`'s, and all
the behaviour is `web.friends.host` / `web.friends.host_controller` / `web.friends.guest`'s.

`Friends` is the friends lifecycle of a `web.dom.App`: it sets the app's controller
(``app.ctl``) when a table is hosted, joined or left, owns the network (``net``), and calls
the app's ``paint`` and ``after_input``.

A page opened with ``?table=ROOM`` is that table's host if this browser saved a hosted
table for ROOM (so a host's reload resumes it), and a guest otherwise. The link's
``#fragment`` (never sent to a server) carries ``h=PIN``, the host's identity that a guest
checks every connection against (`web.net.identity`), and for tables without a relay
``offer=CODE``, an invite by code. A watch link names the table's watch room instead, with
``w=1``: its page is a spectator's (`web.friends.spectator`), and the host takes every channel
through that room as a spectator's (`web.friends.watchers`), whatever the page says.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Generator, Iterator
from typing import TYPE_CHECKING, Any, Protocol, cast

import js

from game.errors import ParseError

from .. import storage
from ..clock import new_seed, now_iso
from ..controller import Controller
from ..net.identity import NO_PIN, clean_pin, key_pin
from ..session import clean_name
from ..tasks import spawn
from . import guest_store

# The tables themselves and the network are imported where first used (web.lazy): a bot game
# never loads them. Which table the app holds, its controller's flags say (multiplayer, hosting).
if TYPE_CHECKING:
    from pyodide.ffi import JsProxy

    from ..net.transport import CodeGuestNet, GuestNet, HostNet
    from ..seat import SeatTable
    from .guest import GuestController
    from .host import HostTable
    from .host_controller import HostController

PATHS_EVERY = 3.0      # seconds between looks at how each seat is connected
BLIND_SLICE = 0.035    # seconds of a blind hand's work before the page gets a turn (a piece of it
                       # longer than those before may end a slice late: about 10 ms at CPU x4)
BLIND_IDLE = 0.05      # seconds between looks for a blind hand's next step, when it has none
FAIR_EVERY = 1.0       # seconds between looks for late shares of the shuffle (web.friends.fair_host)
RESEND_EVERY = 2.0     # seconds between looks for unacknowledged messages (web.friends.delivery)
USED_INVITE = ("You have used this invite link already: each one connects one friend, once. "
               "Ask the host for a new invite link.")
NO_RELAY_GUEST = ("The table's relay cannot be reached, so this link cannot connect. Ask the host "
                  "for an invite by code (in their lobby: “No relay? Invite a friend with a code”).")
ANOTHER_HOST = ("This link is for a table where you have a seat, but with another host's key: your seat "
                "stays with the host who gave it to you. If that host did not send you this new link, "
                "someone may be posing as them.")
CODE_LOST = ("Lost the connection to the host. Without a relay there is no reconnecting by "
             "itself: ask the host for a new invite link (your seat is kept).")
# Copy buttons: the field each copies, and what to say once it is on the clipboard.
COPY = {"copy-link": ("invite-link", "Invite link copied: paste it to your friends."),
        "copy-code-link": ("code-invite-link", "Invite link copied: send it to one friend."),
        "copy-answer": ("answer-code", "Answer code copied: send it to your host."),
        "copy-watch-link": ("watch-link", "Watch link copied: whoever has it can watch, never play.")}
WATCH = "w:"           # the table's name for a channel through the watch room (the net's are c1, c2…)


def _result(work: Generator[None, None, bool], into: list[bool]) -> Iterator[None]:
    """Run ``work``, its result put ``into`` the list (a loop over it sees only its steps)."""
    into.append((yield from work))


def rounded_ms(rtt: float | None) -> int | None:
    """A round trip as players read it: whole ms when small, tens of ms above (sparing a repaint
    for every jitter)."""
    if rtt is None:
        return None
    return max(1, round(rtt)) if rtt < 20 else int(round(rtt, -1))


class TablePrefs(Protocol):
    """The part of the app's `web.keeper.Keeper` that `Friends` uses."""

    def table_prefs(self) -> dict[str, Any]: ...


class Page(Protocol):
    """What `Friends` uses of the `web.dom.App` it serves (a floor above: not imported)."""

    ctl: SeatTable
    notice: str
    root: JsProxy

    @property
    def keeper(self) -> TablePrefs: ...
    def paint(self) -> None: ...
    def after_input(self) -> None: ...
    def after_work(self) -> None: ...
    def say(self, words: str) -> None: ...


class Friends:
    """Hosting, joining and leaving tables with friends, for a `web.dom.App`."""

    def __init__(self, app: Page) -> None:
        self.app = app
        self.net: HostNet | GuestNet | CodeGuestNet | None = None     # while a table is open
        self.watch_net: HostNet | None = None     # the host's watch room, while people may watch
        self.identity: tuple[JsProxy, JsProxy | None, bytes] | None = None   # the hosted table's keys

    @property
    def ctl(self) -> SeatTable:
        return self.app.ctl

    @property
    def host(self) -> HostController:
        """The app's controller, when it hosts a table (``ctl.hosting``)."""
        return cast("HostController", self.app.ctl)

    @property
    def guest(self) -> GuestController:
        """The app's controller, when it is a guest (``ctl.multiplayer`` and not hosting)."""
        return cast("GuestController", self.app.ctl)

    @property
    def host_net(self) -> HostNet:
        """The network, when this browser hosts a table (``ctl.hosting``) and it is open."""
        return cast("HostNet", self.net)

    @property
    def guest_net(self) -> GuestNet | CodeGuestNet:
        """The network, when this browser is a guest at a table and it is open."""
        return cast("GuestNet | CodeGuestNet", self.net)

    def paint(self) -> None:
        self.app.paint()

    def after_input(self) -> None:
        self.app.after_input()

    def after_work(self) -> None:
        self.app.after_work()

    def create_table(self, form: dict[str, Any]) -> None:
        """The start form's "Invite friends": host a new table and show its invite link."""
        try:
            players, length = int(form.get("players", 2)), form.get("target", 121)
            target, variant = (61, "five") if length == "five" else (int(length), "standard")
            # (the form keeps its choice when the table refuses it)
            self.ctl.prefs.update(players=players, target="five" if variant == "five" else target)
            name = clean_name(form.get("name"), "Host")
            self.ctl.prefs["name"] = name
            import secrets      # (here, not at the top: the start goes without it, tests/test_lazy.py)

            from .host import HostTable
            # The engine's refusal (five-card is for two players) says why; counting it
            # yourself (muggins) is the lobby's choice.
            table = HostTable(secrets.token_urlsafe(16), players, target, name, variant=variant, blind=True)
        except ValueError as refused:
            self.ctl.error = str(refused)
            self.paint()
            return
        self._set_url(table.room)
        self.become_host(table)
        self.after_input()

    def _set_url(self, room: str | None) -> None:
        params = js.URLSearchParams.new(js.window.location.search)
        if room:
            params.set("table", room)
        else:
            params.delete("table")
        query = params.toString()
        js.window.history.replaceState(None, "", js.window.location.pathname + (f"?{query}" if query else ""))

    def invite_link(self, room: str, pin: str, key_pin: str = "") -> str:
        location = js.window.location
        key = f"&k={key_pin}" if key_pin else ""
        return f"{location.origin}{location.pathname}?table={room}#h={pin}{key}"

    def become_host(self, table: HostTable) -> None:
        from .host_controller import HostController
        ctl = HostController(table, seed_source=new_seed, prefs=self.ctl.prefs)
        ctl.utc_offset = -int(js.Date.new().getTimezoneOffset())
        ctl.link = "Preparing the table's invite link…"
        self.app.ctl = ctl
        spawn(self._host(ctl))

    async def _host(self, ctl: HostController) -> None:
        """Load (or make) the table's certificate, then open the table to guests."""
        from ..net import relay_path
        from ..net.keystore import table_certificate, table_key_pair
        from ..net.transport import HostNet, certificate_pin, trace
        from .protocol import BLIND_PREFIX, VERSION
        table = ctl.table
        certificate = await table_certificate(table.room)
        pair, public = None, b""
        if relay_path.available():   # the relay fallback needs WebCrypto (a secure context)
            pair = await table_key_pair(table.room)
            public = await relay_path.public_bytes(pair)
        if self.ctl is not ctl:      # the host left before the identity was ready
            return
        ctl.pin = certificate_pin(certificate)
        ctl.key_pin = key_pin(public) if public else ""
        ctl.invite = self.invite_link(table.room, ctl.pin, ctl.key_pin)
        ctl.link = ""

        def opened(conn: str) -> None:
            table.connect(conn)
            invite = self.host_net.invite if self.net is not None else None
            if invite is not None and self.host_net.conns.get(conn) is invite[1]:
                # the code invite is used up: the next friend needs a new one
                ctl.code_link = ""
                ctl.code_note = "Connected. Make a new invite link for the next friend."
                self.paint()
            self.flush()

        def message(conn: str, text: str) -> None:
            taken = table.receive(conn, text)
            # A hello seats its conn (and may unseat another's): the net bounds unseated ones.
            net.seated(c for c, seat in table.seat_of.items() if seat is not None)
            if taken and not text.startswith(BLIND_PREFIX):
                self.after_input()
            else:       # dropped (only a notice to its sender, perhaps), or a blind text queued
                self.flush()     # for the blind loop (which repaints once it is taken): no repaint

        def closed(conn: str) -> None:
            table.disconnect(conn)
            self.after_input()

        table.on_drop = lambda line: trace(f"host: dropped {line}")
        self.net = net = HostNet(table.room, opened, message, closed, self.link_status, certificate, pair, public,
                                 version=VERSION)
        self.identity = (certificate, pair, public)
        net.start()
        self.sync_watch()
        self.paint()
        spawn(self._watch_paths(ctl))
        spawn(self._fair_clock(ctl))
        spawn(self._blind_loop(ctl))

    async def _fair_clock(self, ctl: HostController) -> None:
        """While this table is open: a guest's late share of the shuffle is replaced in time."""
        while self.ctl is ctl:
            await asyncio.sleep(FAIR_EVERY)
            if self.ctl is ctl and ctl.table.tick():
                self.after_input()

    async def _watch_paths(self, ctl: HostController | GuestController) -> None:
        """Keep each seat's path and round trip fresh for the players list (host and guest)."""
        from ..net.transport import GuestNet
        while self.ctl is ctl and self.net is not None:
            await asyncio.sleep(PATHS_EVERY)
            net = self.net
            if net is None:
                return
            paths: dict[int, tuple[str, float | None]]
            if ctl.hosting:
                found = await cast("HostNet", net).paths()
                seat_of = cast("HostController", ctl).table.seat_of
                paths = {seat: path for conn, path in found.items() if (seat := seat_of.get(conn)) is not None}
            else:
                mine = await net.path() if isinstance(net, GuestNet) else None
                paths = {ctl.seat: mine} if mine and ctl.seat is not None else {}
            shown = {seat: (path, rounded_ms(rtt)) for seat, (path, rtt) in paths.items()}
            if shown != ctl.paths and self.ctl is ctl:
                ctl.paths = shown
                self.paint()

    def sync_watch(self) -> None:
        """Host: the watch room open while the table lets people watch (a fresh room each time
        it is turned on), closed once it does not; its channels are the table's as ``w:conn``."""
        if not self.ctl.hosting or self.net is None or self.identity is None:
            return
        ctl, old = self.host, self.watch_net
        table, room = ctl.table, ctl.table.watchers.room
        if old is not None and old.room != room:
            self.watch_net, ctl.watch_link = None, ""
            asyncio.get_event_loop().call_later(0.5, old.close)   # let the spectators' goodbye leave first
        if room is None or self.watch_net is not None:
            return
        from ..net.transport import HostNet, trace
        from .protocol import VERSION

        def opened(conn: str) -> None:
            table.watch_connect(WATCH + conn)
            net.seated(c.removeprefix(WATCH) for c in table.watchers.conns)
            self.after_input()

        def message(conn: str, text: str) -> None:
            table.receive(WATCH + conn, text)     # (refused, whatever it is: only the answer to send)
            self.flush()

        def closed(conn: str) -> None:
            table.disconnect(WATCH + conn)
            self.after_input()

        certificate, pair, public = self.identity
        self.watch_net = net = HostNet(room, opened, message, closed, lambda text: trace(f"host: watch room: {text}"),
                                       certificate, pair, public, version=VERSION)
        ctl.watch_link = self.invite_link(room, ctl.pin, ctl.key_pin) + "&w=1"
        net.start()

    def _open_watch(self, room: str, pin: str | None, key: str | None) -> None:
        """A watch link: a spectator's page, that connects like a guest's and sends nothing."""
        from ..net.transport import GuestNet
        from .protocol import VERSION
        from .spectator import SpectatorController
        ctl = SpectatorController(room, prefs=self.ctl.prefs)
        ctl.pin, ctl.key_pin = clean_pin(pin), clean_pin(key)
        ctl.utc_offset = -int(js.Date.new().getTimezoneOffset())
        ctl.link = "Connecting to the table…"
        self.app.ctl = ctl
        if ctl.pin is None:      # a cut link: without the host's identity, connect to no one
            ctl.screen, ctl.rejected = "rejected", NO_PIN
            return
        self.net = net = GuestNet(room, self.guest_open, self.guest_message, self.guest_closed, self.link_status,
                                  ctl.pin, ctl.key_pin, version=VERSION)
        net.start()

    def _open_table(self, room: str, offer: str | None = None, pin: str | None = None,
                    key: str | None = None) -> None:
        from ..net.transport import CodeGuestNet, GuestNet
        from .guest import GuestController
        from .host import HostTable
        text = storage.read(storage.HOST_KEY)
        if text:
            try:
                table = HostTable.from_json(text, texts=lambda name: storage.read(storage.HOST_TEXTS + name))
            except ParseError as damaged:
                storage.forget_host()
                self.app.notice = f"Your hosted table could not be restored: {damaged}"
                table = None
            if table is not None and table.room == room:
                self.become_host(table)
                return
        saved = storage.read_json(storage.GUEST_KEY, max_depth=12)
        # The seat saved for this table under this link's host pin, never another host's.
        mine = guest_store.find(saved, room, clean_pin(pin)) or {}
        if clean_pin(pin) and not mine and guest_store.find(saved, room, None):
            self.app.notice = ANOTHER_HOST
        token = mine.get("token")
        pin = clean_pin(pin) or clean_pin(mine.get("pin"))
        key = clean_pin(key) or clean_pin(mine.get("key"))
        saved_name, saved_last = mine.get("name"), mine.get("last")
        name = saved_name if isinstance(saved_name, str) else self.ctl.prefs["name"]
        last = saved_last if isinstance(saved_last, int) else 0
        ctl = GuestController(room, name=name, token=token if isinstance(token, str) else None,
                              clock=now_iso, ticker=time.monotonic, last=max(0, last), blind_saved=mine.get("blind"))
        ctl.pin, ctl.key_pin = pin, key
        ctl.utc_offset = -int(js.Date.new().getTimezoneOffset())
        ctl.link = "Connecting to the table…"
        try:
            if isinstance(mine.get("fair"), dict):
                ctl.fair.load(mine["fair"])
        except ParseError:
            pass        # its checks start afresh; the host's full sync still carries every round
        # A token the host never welcomed was only proposed: the name form stays until it does.
        ctl.was_seated = bool(ctl.token) and mine.get("seated", True) is not False
        if ctl.was_seated:
            ctl.screen = "lobby"
        self.app.ctl = ctl
        if pin is None:      # a cut link: without the host's identity, connect to no one
            ctl.screen, ctl.rejected = "rejected", NO_PIN
            return
        if offer and offer in storage.used_invites():
            ctl.screen, ctl.rejected = "rejected", USED_INVITE
            return
        net: GuestNet | CodeGuestNet
        if offer:
            ctl.link = "Making your answer code…"
            net = CodeGuestNet(offer, self.guest_open, self.guest_message, self.guest_closed,
                               self.link_status, self.got_answer, pin)
            storage.remember_invite(offer)
        else:
            from .protocol import VERSION
            net = GuestNet(room, self.guest_open, self.guest_message, self.guest_closed, self.link_status,
                           pin, key, version=VERSION)
        self.net = net
        net.start()
        spawn(self._resend_loop(ctl))
        spawn(self._watch_paths(ctl))
        spawn(self._blind_loop(ctl))

    async def _blind_loop(self, ctl: HostController | GuestController) -> None:
        """While this table is open: its blind hands' work (`web.friends.blind_host`,
        `web.friends.blind_guest`), one step at a time (a message taken or made), each in slices
        of `BLIND_SLICE` seconds with the page free in between; idle, it looks again every
        `BLIND_IDLE` seconds (a choice on the screen, a message come in)."""
        from ..slices import Slices
        worker: HostTable | GuestController = cast("HostController", ctl).table if ctl.hosting else \
            cast("GuestController", ctl)
        while self.ctl is ctl:
            if not worker.blind_ready():
                await asyncio.sleep(BLIND_IDLE)
                continue
            done: list[bool] = []
            slices = Slices(BLIND_SLICE)
            slices.start(time.perf_counter())
            for _ in _result(worker.blind_work(), done):
                if slices.step_done(time.perf_counter()):
                    await asyncio.sleep(0)
                    slices.start(time.perf_counter())
            await asyncio.sleep(0)       # the repaint in a turn of its own, not after the last slice
            if self.ctl is not ctl:
                return
            self.after_work()
            await asyncio.sleep(0 if done and done[0] else BLIND_IDLE)

    async def _resend_loop(self, ctl: GuestController) -> None:
        """While this guest's table is open: send again what the host has not acknowledged
        (a hello not answered, too)."""
        while self.ctl is ctl:
            await asyncio.sleep(RESEND_EVERY)
            if self.net is not None and self.guest_net.connected:
                ctl.resend_due()
                if ctl.outbox:
                    self.flush()

    def open_link(self, room: str, fragment: dict[str, str]) -> None:
        """Open ``?table=ROOM`` with its fragment's pin and invite by code (if any)."""
        if self.net is not None:     # a new invite link pasted into this tab: start over
            net, self.net = self.net, None
            net.close()
        if fragment.get("w") == "1":
            self._open_watch(room, fragment.get("h"), fragment.get("k"))
        else:
            self._open_table(room, fragment.get("offer") or None, fragment.get("h"), fragment.get("k"))

    def got_answer(self, code: str) -> None:
        self.guest.answer_code = code
        self.guest.link = "Waiting for the host to paste your answer code…"
        self.paint()

    async def make_code_invite(self) -> None:
        """Host: a new invite link with this browser's offer inside (for tables without a relay)."""
        ctl = self.host
        if self.net is None or not ctl.pin:     # the table's identity is still being prepared
            return
        ctl.code_note = "Making the invite…"
        self.paint()
        code = await self.host_net.make_invite()
        ctl.code_link = f"{self.invite_link(ctl.room, ctl.pin, ctl.key_pin)}&offer={code}"
        ctl.code_note = "Send this link to one friend, then paste the answer code they send back."
        self.paint()

    async def accept_answer(self, code: str) -> None:
        ctl = self.host
        try:
            await self.host_net.accept_answer(code)
        except ParseError as refused:
            ctl.code_note = f"That code did not work: {refused}."
        else:
            if ctl.code_link:     # else the channel opened already, and said so
                ctl.code_note = "Connecting to your friend… they appear in a seat above once connected."
        self.paint()

    def guest_open(self) -> None:
        if self.ctl.watching:    # a spectator says nothing: the host speaks first
            self.ctl.link = ""
            return self.after_input()
        if not self.guest.hello_queued:
            self.guest.rejoin()
        self.guest.link = ""
        self.after_input()

    def guest_message(self, text: str) -> None:
        if self.guest.receive(text):     # queued for the blind loop, which repaints once it is taken
            self.flush()
        else:
            self.after_input()

    def guest_closed(self) -> None:
        from ..net.transport import CodeGuestNet
        by_code = isinstance(self.net, CodeGuestNet)
        self.guest.link = CODE_LOST if by_code else "Lost the connection to the host. Reconnecting…"
        self.paint()

    def link_status(self, text: str) -> None:
        from ..net.signal_code import RELAY_DOWN
        if self.ctl.hosting:
            if text == RELAY_DOWN:
                self.host.relay_down, text = True, ""
            elif self.net is not None and self.host_net.signal.joined:
                self.host.relay_down = False
            self.host.link = text
        else:
            self.guest.link = NO_RELAY_GUEST if text == RELAY_DOWN else text
        self.paint()

    def flush(self) -> None:
        """Send what the controller has queued for the network."""
        if self.net is None or not self.ctl.multiplayer or self.ctl.watching:    # (a spectator sends nothing)
            return
        if self.ctl.hosting:
            for conn, text in self.host.table.take_outbox():
                if not conn.startswith(WATCH):
                    self.host_net.send(conn, text)
                elif self.watch_net is not None:
                    self.watch_net.send(conn.removeprefix(WATCH), text)
            self.sync_watch()       # (after the spectators' goodbye, when watching has just been turned off)
        else:
            unsent = [text for text in self.guest.take_outbox() if not self.guest_net.send(text)]
            self.guest.outbox[:0] = unsent

    async def copy_field(self, testid: str, done: str) -> None:
        """Copy a read-only field (an invite link, an answer code) to the clipboard."""
        app = self.app
        field = app.root.querySelector(f'[data-testid="{testid}"]')
        if not field:
            return
        try:
            await js.navigator.clipboard.writeText(field.value)
        except Exception:   # no clipboard permission: leave the text selected for the player
            app.say("Select the text and copy it (Ctrl+C or long-press).")
            field = app.root.querySelector(f'[data-testid="{testid}"]')
            if field:
                field.select()
            return
        app.say(done)

    def leave_table(self) -> None:
        """Leave (a guest) or close (the host) the table, back to the start screen. Mid-game,
        only once the player confirms."""
        ctl = self.ctl
        view = ctl.view() if ctl.screen == "table" and not ctl.watching else None
        if view is not None and view.phase != "over" and not js.window.confirm(
                "Close this table for everyone?" if ctl.hosting
                else "Leave this game? A bot can take your seat until you come back."):
            return
        if ctl.hosting:
            self.host.table.close()      # every guest hears why the table went away
            self.flush()
        for net in (self.net, self.watch_net):
            if net is not None:
                asyncio.get_event_loop().call_later(0.5, net.close)   # let the goodbye leave first
        self.net = self.watch_net = self.identity = None
        if ctl.hosting:
            storage.forget_host()
            from ..net.keystore import forget_table
            spawn(forget_table(self.host.room))
        elif not ctl.watching:
            self.guest.token = None
            self.save_seat(self.guest)       # (forgets this seat)
        prefs = dict(ctl.prefs) if ctl.hosting else None
        self.app.ctl = Controller(seed_source=new_seed, prefs=prefs or self.app.keeper.table_prefs())
        self._set_url(None)
        self.paint()

    def save_seat(self, ctl: GuestController) -> None:
        """Keep this guest's seat (token, message number, fair deal) for a reload, under its
        table and host pin. A spectator has none."""
        if ctl.watching:
            return
        saved = storage.read_json(storage.GUEST_KEY, max_depth=12)
        if ctl.token:
            entry = {"room": ctl.room, "token": ctl.token, "seated": ctl.was_seated, "name": ctl.prefs["name"],
                     "pin": ctl.pin, "key": ctl.key_pin, "last": ctl.outgoing.last, "fair": ctl.fair.to_json(),
                     "blind": ctl.blind_save()}
            saved = guest_store.remember(saved, entry)
        elif ctl.pin and guest_store.find(saved, ctl.room, ctl.pin):    # no seat here any more (left, removed)
            saved = guest_store.forget(saved, ctl.room, ctl.pin)
        else:
            return
        storage.write(storage.GUEST_KEY, json.dumps(saved) if saved else None)
