"""The start screen before Python: hand over what the player did while the runtime loaded.

index.html paints the start form at once (the markup is ``web.render.render_start``'s, written
there by scripts/gen_shell.py). Its inline script fills in the profile's name and defaults and
remembers a button pressed before Python is ready in the form's ``data-pending`` attribute (the
button's ``data-testid``). When Python starts, web/dom.py calls `read_shell` before it paints
and `hand_over` after: the player's changes go into Python's own form and the pending command
is carried out by clicking the same button, exactly as if it had been clicked after the load.

This module does not import the browser: web/dom.py passes in DOM objects and the functions
only call their methods (a JS null arrives falsy, so it is tested by truthiness). `Element` and
`Document` name the members it uses, which Pyodide's `JsProxy` has (any, unchecked).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Literal, Protocol

FORM = 'form[data-testid="start"]'
# The buttons that may be pressed before Python is ready, by data-testid.
PENDING = ("start-game", "create-table", "open-stats", "open-settings")
FIELDS = ("name", "level", "players", "target")
# Where the keyboard focus is: in the name (its selection), on a radio button, on a button.
Focus = (tuple[Literal["name"], int | None, int | None] | tuple[Literal["radio"], str, str]
         | tuple[Literal["button"], str])


class Element(Protocol):
    """The members of a DOM element (an input's too) this module reads, sets or calls."""

    tagName: str
    type: str
    value: str
    defaultValue: str
    checked: bool
    defaultChecked: bool
    selectionStart: int | None
    selectionEnd: int | None

    def getAttribute(self, name: str, /) -> str | None: ...
    def querySelector(self, selectors: str, /) -> Element | None: ...
    def querySelectorAll(self, selectors: str, /) -> Iterable[Element]: ...
    def contains(self, other: Element, /) -> bool: ...
    def focus(self) -> None: ...
    def click(self) -> None: ...
    def setSelectionRange(self, start: int, end: int, /) -> None: ...


class Document(Protocol):
    """The members of the DOM's document this module reads."""

    documentElement: Element
    activeElement: Element | None


@dataclass
class Shell:
    """What the player did with the static start form before Python was ready."""

    values: dict[str, str] = field(default_factory=dict)    # every field, as shown
    changed: dict[str, str] = field(default_factory=dict)   # the fields the player changed
    pending: str | None = None     # the data-testid of the button pressed, if any
    focus: Focus | None = None     # ("name", start, end), ("radio", name, value) or ("button", testid)

    def wanted(self) -> dict[str, str]:
        """The values Python's form takes over: all of them for a pending command (it runs with
        what the player saw), otherwise only what the player changed (the profile Python read
        has the last word on the rest)."""
        return dict(self.values) if self.pending else dict(self.changed)


def read_shell(root: Element, document: Document) -> Shell | None:
    """The static start form's state, or None when the page did not show it (a link or a game
    to resume: index.html then shows only the loading progress)."""
    if document.documentElement.getAttribute("data-shell") != "form":
        return None
    form = root.querySelector(f"#shell > {FORM}")
    if not form:
        return None
    shell = Shell()
    for input_ in form.querySelectorAll("input[name]"):
        name = str(input_.getAttribute("name"))
        if name not in FIELDS:
            continue
        if input_.type == "radio":
            if input_.checked:
                shell.values[name] = str(input_.value)
            if input_.checked and not input_.defaultChecked:
                shell.changed[name] = str(input_.value)
        else:
            shell.values[name] = str(input_.value)
            if input_.value != input_.defaultValue:
                shell.changed[name] = str(input_.value)
    pending = form.getAttribute("data-pending")
    shell.pending = str(pending) if pending and str(pending) in PENDING else None
    shell.focus = _focus(document.activeElement, form)
    return shell


def _focus(active: Element | None, form: Element) -> Focus | None:
    """Where the keyboard focus is in the static form, in terms Python's form also has."""
    if not active or not form.contains(active):
        return None
    name, testid = active.getAttribute("name"), active.getAttribute("data-testid")
    if active.tagName == "INPUT" and active.type == "radio" and str(name) in FIELDS:
        return ("radio", str(name), str(active.value))
    if active.tagName == "INPUT" and str(name) == "name":
        return ("name", active.selectionStart, active.selectionEnd)
    if testid and str(testid) in PENDING:
        return ("button", str(testid))
    return None


def hand_over(shell: Shell | None, root: Element) -> bool:
    """Put the player's changes into Python's start form, keep the focus where it was, and
    click the pending button. Returns whether a pending command was carried out. Does nothing
    if Python shows another screen (a notice about a damaged save keeps the form, as it should)."""
    form = root.querySelector(FORM)
    if shell is None or not form:
        return False
    for name, value in shell.wanted().items():
        for input_ in form.querySelectorAll(f'input[name="{name}"]'):
            if input_.type == "radio":
                if str(input_.value) == value:
                    input_.checked = True
            else:
                input_.value = value
    _restore_focus(shell, form)
    if not shell.pending:
        return False
    button = form.querySelector(f'[data-testid="{shell.pending}"]')
    if not button:
        return False
    button.click()    # a submit button submits the form: web.dom's handlers see a real click
    return True


def _restore_focus(shell: Shell, form: Element) -> None:
    if not shell.focus:
        return
    if shell.focus[0] == "radio":
        _, name, value = shell.focus
        for input_ in form.querySelectorAll(f'input[name="{name}"]'):
            if str(input_.value) == value:
                input_.focus()
        return
    if shell.focus[0] == "button":
        button = form.querySelector(f'[data-testid="{shell.focus[1]}"]')
        if button:
            button.focus()
        return
    field_ = form.querySelector('input[name="name"]')
    if field_:
        field_.focus()
        start, end = shell.focus[1], shell.focus[2]
        if start is not None and end is not None:
            field_.setSelectionRange(start, end)
