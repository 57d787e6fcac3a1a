"""The host's screen at a table with friends: the local `Controller` (the host is seat 0)
extended with the lobby, remote seats, chat, bots standing in, and a `HostTable` that every
move is reported to, so each guest gets its own view. Pure Python.

>>> from web.friends.host import HostTable
>>> table = HostTable("room-0123456789", 2, 61, "Ann")
>>> ctl = HostController(table, seed_source=lambda: 3)
>>> ctl.screen, ctl.command("seat", "1:easy"), ctl.command("start-table"), ctl.screen
('lobby', None, None, 'table')
"""

from __future__ import annotations

from game.errors import ParseError
from game.view import view as seat_view

from ..controller import Controller
from .host import HostTable


class HostController(Controller):
    multiplayer = True
    hosting = True

    def __init__(self, table: HostTable, seed_source, prefs: dict | None = None):
        super().__init__(seed_source, prefs)
        self.table = table
        self.seat = 0
        self.link = ""       # the relay's state in words, set by the glue
        self.invite = ""     # the invite link, set by the glue
        self.pin = ""        # the table's identity in the invite link (web.net.identity), set by the glue
        self.key_pin = ""    # ... and its relay path key's (web.net.relay_path)
        self.paths: dict[int, tuple] = {}   # seat -> (path, round trip ms) of each guest, set by the glue
        self.relay_down = False   # no relay answers: friends need a code invite (set by the glue)
        self.code_link = ""       # the latest code invite's link (offer inside), set by the glue
        self.code_note = ""       # how the latest code invite is going, in words
        self.session = table.session
        table.on_move = self._guest_moved  # a guest's move: update the host's screen too
        table.on_begin = self._began       # the guests have added to the first shuffle
        if table.started:
            self._reset_screen()
        else:
            self.screen = "lobby"

    @property
    def room(self) -> str:
        return self.table.room

    @property
    def chat(self) -> list[dict]:
        return self.table.chat

    def names(self) -> list[str]:
        return self.session.names if self.session else [s.name for s in self.table.seats]

    def levels(self) -> list[str | None]:
        if self.session:
            return self.session.bots
        return [s.level for s in self.table.seats]

    def presence(self) -> list[bool]:
        return [self.table.online(seat) for seat in range(self.table.players)]

    def can_resume(self) -> bool:
        return False

    def bot_waiting(self) -> bool:
        return self.session is not None and super().bot_waiting()

    def _take(self, events, before) -> None:
        super()._take(events, before)
        self.table.changed(events, before.starter)

    def _guest_moved(self, events, before) -> None:
        """A guest's move, ``before`` the state it was made on: the table has sent it on."""
        super()._take(events, seat_view(before, self.seat))

    def coach_allowed(self) -> bool:
        return self.table.coach

    def _do_table_coach(self, arg) -> None:
        self.table.set_coach(arg == "on")

    def _do_seat(self, arg) -> None:
        seat, _, level = str(arg).partition(":")
        self.table.set_seat(int(seat), None if level == "open" else level)

    def _do_remove_seat(self, arg) -> None:
        self.table.remove(int(arg))

    def _do_start_table(self, _=None) -> None:
        self.table.start()

    def _do_new_game(self, _=None) -> None:
        self.table.rematch()

    def _began(self) -> None:
        self.session = self.table.session
        self._reset_screen()

    def _do_stand_in(self, arg) -> None:
        seat, _, level = str(arg).partition(":")
        self.table.stand_in(int(seat), level or self.prefs["level"])

    def _do_give_back(self, arg) -> None:
        self.table.give_back(int(arg))

    def _do_chat(self, form) -> None:
        text = (form or {}).get("text", "") if isinstance(form, dict) else str(form or "")
        self.table.say(0, text)

    def _do_menu(self, _=None) -> None:
        raise ParseError("leave the table to change it")
