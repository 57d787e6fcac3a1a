"""Texts kept once each, under keys of their own, beside the save that names them: the
messages a blind hand relayed (`web.friends.blind_host.BlindHands.saved_texts`), which the host
keeps to rebuild the hand after a reload. Inside the table's save they were written whole
after every step of the deal (about 1 MB at 4 players); here a step writes its new text alone,
and the texts of a hand that ended are forgotten.

The storage is handed in (`web.keeper` gives the browser's), so this runs under CPython too:

>>> kept = {}
>>> shelf = Shelf(lambda name, text: kept.update({name: text}) if text else kept.pop(name), list(kept))
>>> saves = []
>>> shelf.keep({"a.0": "start", "a.1": "deal"}, lambda: saves.append(sorted(kept)))
2
>>> shelf.keep({"a.0": "start", "a.1": "deal", "a.2": "cut"}, lambda: None)   # only the new one written
1
>>> shelf.keep({"b.0": "next start"}, lambda: saves.append(sorted(kept)))  # a new hand: the old one forgotten
1
>>> saves        # the save that names them is written when they are all kept (and before the old go)
[['a.0', 'a.1'], ['a.0', 'a.1', 'a.2', 'b.0']]
>>> kept
{'b.0': 'next start'}
"""

from __future__ import annotations

from collections.abc import Callable, Iterable


class Shelf:
    """The texts kept now, by name; ``write(name, text)`` keeps one (``None``: forgets it), and
    ``stored`` names those kept already (read once, before the first `keep`)."""

    def __init__(self, write: Callable[[str, str | None], object], stored: Iterable[str]) -> None:
        self.write = write
        self.kept = set(stored)

    def keep(self, texts: dict[str, str], save: Callable[[], object]) -> int:
        """Keep exactly ``texts``: write the ones not kept yet, then ``save`` (the save that names
        them), then forget the ones it no longer names, so a reload at any point finds every text
        the last save names. How many it wrote."""
        new = [name for name in texts if name not in self.kept]
        for name in new:
            self.write(name, texts[name])
        save()
        for name in self.kept - texts.keys():
            self.write(name, None)
        self.kept = set(texts)
        return len(new)
