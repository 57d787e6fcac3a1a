"""What a guest's page and a spectator's page read alike: the table as the host describes it.

Both pages hold the host's last ``table`` message (`protocol.TableInfo`) and draw the seats,
the names and the levels from it, keep the chat the host sends and the reasons they dropped a
message; `HostDescribed` does that once for both.

>>> table = HostDescribed()
>>> table.table = {"players": 2, "target": 61, "seats": [
...     {"name": "Ann", "level": None, "stand_in": None, "online": True},
...     {"name": "", "level": "easy", "stand_in": None, "online": False}]}
>>> table.names(), table.levels(), table.table_config(), table.presence()
(['Ann', 'Seat 2'], [None, 'easy'], (2, 61), [True, False])
"""

from __future__ import annotations

from game.engine import OVER
from game.events import side_name

from .protocol import ChatLine, Message, SeatInfo, TableInfo
from ..seat import SeatTable

CHAT_SHOWN = 200    # chat lines kept on the page
DROPS_KEPT = 100    # reasons for dropped messages kept (for tests and the curious)


class HostDescribed(SeatTable):
    """A seat table whose seats come from the host's ``table`` message (``table``: None until
    the first one arrives)."""

    table: TableInfo | None = None
    chat: list[ChatLine]
    drops: list[str]

    def names(self) -> list[str]:
        assert self.table is not None, "the host has described the table"
        return [seat["name"] or f"Seat {n + 1}" for n, seat in enumerate(self.table["seats"])]

    def side_names(self) -> list[str]:
        names, view = self.names(), self.view()
        assert view is not None, "the table shows a view"
        return [side_name(names, side) for side in range(view.config.sides)]

    def levels(self) -> list[str | None]:
        assert self.table is not None, "the host has described the table"
        return [seat["level"] or seat["stand_in"] for seat in self.table["seats"]]

    def seats(self) -> list[SeatInfo]:
        return self.table["seats"] if self.table else []

    def table_config(self) -> tuple[int, int]:
        assert self.table is not None, "the host has described the table"
        return self.table["players"], self.table["target"]

    def presence(self) -> list[bool]:
        return [seat["online"] for seat in self.seats()]

    def can_resume(self) -> bool:
        return False

    def is_over(self) -> bool:
        view = self.view()
        return view is not None and view.phase == OVER

    def drop(self, reason: str) -> None:
        self.drops = (self.drops + [reason])[-DROPS_KEPT:]

    def on_chat(self, message: Message) -> None:
        self.chat = (self.chat + message["lines"])[-CHAT_SHOWN:]
        if message["lines"]:
            last = message["lines"][-1]
            self.seat_screen.announcement = last["text"] if last["system"] else f"{last['name']}: {last['text']}"
