"""A spectator's table: the host's public view of the game, the table and the chat, drawn by
the same seat screen as a player's, from the host's place, with no hand of its own.

`SpectatorController` is a `web.seat.SeatTable` that sends nothing: a move, a chat line or
a seat is refused here before anything leaves (and the host refuses them again if a patched
page sends one: `web.friends.watchers`). It keeps no seat token, no fair deal and no record:
a spectator is not dealt in, so there is nothing of its own to check. Pure Python.

>>> from game.engine import Config, new_game
>>> from game.view import view
>>> from web.friends import protocol
>>> ctl = SpectatorController("watch-0123456789")
>>> ctl.receive(protocol.table(2, 61, True, [
...     {"name": "Ann", "kind": "host", "level": None, "online": True, "stand_in": None},
...     {"name": "Bob", "kind": "person", "level": None, "online": True, "stand_in": None}], watching=1))
>>> ctl.receive(protocol.watch(view(new_game(Config(players=2, target=61), seed=3), 0), ()))
>>> ctl.screen, ctl.view().hand, ctl.view().hand_sizes
('table', (), (6, 6))
>>> ctl.command("chat", {"text": "hi"}); ctl.error, ctl.take_outbox()
('You are watching this table: a spectator cannot sit down, play, chat or take part in the deal.', [])
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

from game.actions import Action
from game.errors import IllegalActionError

from . import protocol
from .described import HostDescribed
from .protocol import ChatLine, Message, ProtocolError, TableInfo, parse
from .watchers import WATCH_ONLY


class SpectatorController(HostDescribed):
    """One spectator's screen. ``screen``: lobby (until the game is on), table or rejected."""

    multiplayer = True
    watching = True
    finished = None      # a spectator keeps no game in its profile: it played none

    def __init__(self, room: str, prefs: dict[str, Any] | None = None) -> None:
        super().__init__(prefs)
        self.room = room
        self.pin: str | None = None       # the host's identity from the watch link (web.net.identity)
        self.key_pin: str | None = None   # ... and its relay path key's (web.net.relay_path)
        self.paths: dict[int, tuple[str, int | None]] = {}    # (no seat: no path of its own shown)
        self.utc_offset = 0               # the viewer's minutes from UTC, for the chat's times (set by the glue)
        self.screen = "lobby"
        self.rejected = ""
        self.seat = None
        self.table: TableInfo | None = None
        self.chat: list[ChatLine] = []
        self.drops: list[str] = []

    # -- what render reads --

    def coach_allowed(self) -> bool:
        return False

    def coach_follow(self) -> bool:
        return False

    def take_outbox(self) -> list[str]:
        """What this page sends the host: nothing, ever."""
        return []

    # -- messages from the host --

    def handlers(self) -> dict[str, Callable[[Message], None]]:
        """What each message from the host does, by its type; a seat's messages (welcome,
        view, the fair deal's) are not a spectator's, and are dropped."""
        return {"table": self.on_table, "chat": self.on_chat, "watch": self.on_watch, "reject": self.on_reject,
                "error": self.on_error}

    def receive(self, text: object) -> None:
        try:
            message = parse(text, "host")
        except ProtocolError as bad:
            self.drop(str(bad))
            if bad.code == "version":
                self.screen, self.rejected = "rejected", protocol.REJECT_REASONS["version"]
            return
        handler = self.handlers().get(message.type)
        if handler is None:
            return self.drop(f"a seat's {message.type} message")
        handler(message)

    def on_table(self, message: Message) -> None:
        self.table = cast(TableInfo, message.fields)      # (`parse` checked each field)
        if self.screen == "lobby" and self.table["started"] and self.view() is not None:
            self.screen = "table"

    def on_watch(self, message: Message) -> None:
        if self.table is None:
            return self.drop("a view before the table")
        self.seat_screen.see(message["view"], message["events"], self.names(), message["log"])
        if self.table["started"] and self.screen != "rejected":
            self.screen = "table"

    def on_reject(self, message: Message) -> None:
        self.screen, self.rejected = "rejected", message["text"]

    def on_error(self, message: Message) -> None:
        self.error = message["text"]

    # -- the spectator's input: its own screen only --

    def commands(self) -> dict[str, Callable[[Any], None]]:
        return {**super().commands(), "chat": self.say}

    def say(self, _: object = None) -> None:
        raise IllegalActionError(WATCH_ONLY)

    def move(self, action: Action) -> None:
        raise IllegalActionError(WATCH_ONLY)
