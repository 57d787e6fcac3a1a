"""The host's screen at a table with friends: the bot table's seat (the host is seat 0, the
session is the `HostTable`'s) with the lobby, remote seats, chat and bots standing in. Every
move, the host's own, a bot's or a guest's, goes through `HostTable.act`, which sends each
guest its view and tells this screen. Pure Python.

>>> from web.friends.host import HostTable
>>> table = HostTable("room-0123456789", 2, 61, "Ann")
>>> ctl = HostController(table, seed_source=lambda: 3)
>>> ctl.screen, ctl.command("seat", "1:easy"), ctl.command("start-table"), ctl.screen
('lobby', None, None, 'table')
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from game.actions import Action
from game.bots import BOT_LEVELS
from game.errors import ParseError
from game.view import View

from ..controller import Controller
from ..seat import SeatTable
from .host import HostTable
from .protocol import ChatLine, SeatInfo


class HostController(Controller):
    multiplayer = True
    hosting = True

    def __init__(self, table: HostTable, seed_source: Callable[[], int], prefs: dict[str, Any] | None = None) -> None:
        super().__init__(seed_source, prefs)
        self.table = table
        self.invite = ""     # the invite link, set by the glue
        self.watch_link = ""  # the watch link while people may watch (web.friends.watchers), set by the glue
        self.pin = ""        # the table's identity in the invite link (web.net.identity), set by the glue
        self.key_pin = ""    # ... and its relay path key's (web.net.relay_path)
        self.paths: dict[int, tuple[str, int | None]] = {}   # seat -> (path, round trip ms) of each guest, by the glue
        self.relay_down = False   # no relay answers: friends need a code invite (set by the glue)
        self.code_link = ""       # the latest code invite's link (offer inside), set by the glue
        self.code_note = ""       # how the latest code invite is going, in words
        self.utc_offset = 0       # the viewer's minutes from UTC, for the chat's times (set by the glue)
        self.link = ""            # the relay's state in words, set by the glue
        self.session = table.session
        if self.prefs.get("level") in BOT_LEVELS:   # a bot sitting in for a friend away: the host's level
            table.default_level = self.prefs["level"]
        table.on_change = self.saw          # every move at the table, whoever made it
        table.on_begin = self._began        # the guests have added to the first shuffle
        if table.started:
            self.begin("Table resumed.")
        else:
            self.screen = "lobby"

    @property
    def room(self) -> str:
        return self.table.room

    @property
    def chat(self) -> list[ChatLine]:
        return self.table.chat

    def names(self) -> list[str]:
        return self.session.names if self.session else [s.name for s in self.table.seats]

    def levels(self) -> list[str | None]:
        if self.session:
            return self.session.bots
        return [s.level for s in self.table.seats]

    def presence(self) -> list[bool]:
        return [self.table.online(seat) for seat in range(self.table.players)]

    def seats(self) -> list[SeatInfo]:
        """The table's seats as the lobby and the players list show them."""
        return [self.table.seat_json(seat) for seat in range(self.table.players)]

    def table_config(self) -> tuple[int, int]:
        return self.table.players, self.table.target

    def can_resume(self) -> bool:
        return False

    def bot_waiting(self) -> bool:
        """(At a blind table the bots choose in the hand's work: `HostTable.blind_work`.)"""
        return self.session is not None and not self.table.blind_game and super().bot_waiting()

    @property
    def pending(self) -> bool:
        """At a blind table: the screen chose, and the hand has not taken it yet."""
        return self.table.blind_choice is not None

    def table_view(self, showing: bool = False) -> View:
        """At a blind table, the hand's public view and the host's own cards."""
        return self.table.own_view() if self.table.blind_hand is not None else super().table_view(showing)

    def begin(self, words: str) -> None:
        super().begin(words)
        if self.table.blind_hand is not None:
            self.saw(())

    def coach_allowed(self) -> bool:
        return self.table.coach

    # -- moves: one way for all of them --

    def move(self, action: Action) -> None:
        if self.table.blind_hand is not None:
            return self.table.blind_choose(action)
        self.table.act(self.seat, action)

    def play_for_bot(self, seat: int, action: Action) -> None:
        self.table.act(seat, action)

    def _began(self) -> None:
        self.session = self.table.session
        self.begin("New game.")

    # -- the host's commands --

    def commands(self) -> dict[str, Callable[[Any], None]]:
        return {**SeatTable.commands(self), "table-coach": self.table_coach, "watching": self.watching_on,
                "table-length": self.table_length, "table-muggins": self.table_muggins,
                "table-blind": self.table_blind,
                "seat": self.set_seat,
                "remove-seat": self.remove_seat, "start-table": self.start_table, "new-game": self.rematch,
                "stand-in": self.stand_in, "give-back": self.give_back, "chat": self.say, "to-start": self.to_start}

    def table_coach(self, arg: object) -> None:
        self.table.set_coach(arg == "on")

    def table_length(self, arg: object) -> None:
        """Lobby: a game to 121 or 61, or five-card (``five``, two players only)."""
        self.table.set_rules(length=str(arg))

    def table_muggins(self, arg: object) -> None:
        """Lobby: whether the players count it themselves (``on``: muggins)."""
        self.table.set_rules(muggins=arg == "on")

    def table_blind(self, arg: object) -> None:
        """Lobby: nobody sees a card they should not, not even the host (``on``: the blind deal)."""
        self.table.set_blind(arg == "on")

    def watching_on(self, arg: object) -> None:
        """Let people watch with a watch link (``on``), or stop it (``off``): the glue opens or
        closes the watch link's room to match (`web.friends.glue.Friends.sync_watch`)."""
        self.table.set_watching(arg == "on")

    def set_seat(self, arg: object) -> None:
        seat, _, level = str(arg).partition(":")
        self.table.set_seat(int(seat), None if level == "open" else level)

    def remove_seat(self, arg: str) -> None:
        self.table.remove(int(arg))

    def start_table(self, _: object = None) -> None:
        self.table.start()

    def rematch(self, _: object = None) -> None:
        self.table.rematch()

    def stand_in(self, arg: object) -> None:
        seat, _, level = str(arg).partition(":")
        self.table.stand_in(int(seat), level or self.prefs["level"])

    def give_back(self, arg: str) -> None:
        self.table.give_back(int(arg))

    def say(self, form: object) -> None:
        text = (form or {}).get("text", "") if isinstance(form, dict) else str(form or "")
        self.table.say(0, text)

    def to_start(self, _: object = None) -> None:
        raise ParseError("leave the table to change it")
