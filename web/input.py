"""The player's input, routed: every click, form, key and setting of the page goes to exactly
one owner, by one rule a reader can follow (`Input.owner`): the app's own actions (files,
clipboard, linking a device, a friends table's invites and leaving), then the profile's screens
while one is open (or for the profile's own commands), then the table's commands
(`web.seat.SeatTable.commands`). One of the few modules allowed to touch the browser FFI.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Literal, Protocol

import js

from .friends.glue import COPY
from .tasks import spawn

if TYPE_CHECKING:
    from pyodide.ffi import JsProxy

    from .friends.glue import Friends
    from .keeper import Keeper
    from .profile.device_link import Linker
    from .profile.screens import ProfileScreens
    from .seat import SeatTable
    from .sound import Sound

Owner = Literal["app", "profile", "table"]
MAX_PROFILE_FILE = 4_000_000     # bytes: a profile file is at most 4 MB of JSON


class Page(Protocol):
    """What `Input` uses of the `web.dom.App` it serves (a floor above: not imported)."""

    ctl: SeatTable
    notice: str
    log_open: bool
    root: JsProxy

    @property
    def profile(self) -> ProfileScreens: ...
    @property
    def friends(self) -> Friends: ...
    @property
    def keeper(self) -> Keeper: ...
    @property
    def sound(self) -> Sound: ...
    @property
    def linker(self) -> Linker: ...
    def paint(self) -> None: ...
    def after_input(self) -> None: ...
    def follow_link(self, changed: bool) -> bool: ...
    def online(self, step: Callable[[], object]) -> None: ...
    def download(self, filename: str, text: str) -> None: ...
    def share_link(self, fragment: str) -> str: ...
    async def copy_text(self, text: str) -> None: ...


class Input:
    """The page's listeners' handlers for a `web.dom.App`."""

    def __init__(self, app: Page) -> None:
        self.app = app

    def actions(self) -> dict[str, Callable[[str | None], object]]:
        """The app's own actions, by ``data-action`` (each given the ``data-arg``): what needs
        the browser, not a table."""
        app, friends = self.app, self.app.friends

        def copy(field: str, done: str) -> Callable[[str | None], object]:
            return lambda _: spawn(friends.copy_field(field, done))

        own: dict[str, Callable[[str | None], object]] = {
            "export-profile": lambda _: app.download("cribbage-profile.json", app.profile.export()),
            "link-show": lambda _: app.online(lambda: app.linker.show()), "link-enter": lambda _: self.link_enter(),
            "link-cancel": lambda _: app.online(lambda: app.linker.cancel()),
            "code-invite": lambda _: spawn(friends.make_code_invite()),
            "leave": lambda _: self.leave(), "sound": lambda _: self.toggle_sound(),
            "new-game": lambda _: self.new_game()}
        own.update({action: copy(field, done) for action, (field, done) in COPY.items()})
        return own

    def owner(self, action: str) -> Owner:
        """Who takes ``action``: the app's own, the open profile screen's (or one of the
        profile's commands), else the table's."""
        if action in self.actions():
            return "app"
        if self.app.profile.takes(action):
            return "profile"
        return "table"

    def on_click(self, event: JsProxy) -> None:
        target = event.target.closest("[data-action]")
        if not target or target.tagName == "FORM" or target.disabled:   # JS null is falsy
            return
        # A missing attribute is JS null (falsy); a missing dataset key would raise instead.
        action, arg = str(target.getAttribute("data-action")), target.getAttribute("data-arg") or None
        app = self.app
        app.notice = ""
        owner = self.owner(action)
        if owner == "app":
            self.actions()[action](arg)
            return
        if owner == "profile":
            app.ctl.close_menu()        # (the menu's Settings or Statistics: Back returns to the table)
            app.profile.command(action, arg)
            if action == "share-record" and app.profile.clipboard:
                spawn(app.copy_text(app.share_link(app.profile.clipboard)))
        else:
            app.ctl.command(action, arg)
        app.after_input()

    def leave(self) -> None:
        """The menu's Leave: a friends table is left (or closed, by its host); the bot table's
        game waits on the start screen ("Back to the game")."""
        app = self.app
        if app.ctl.multiplayer:
            app.friends.leave_table()
        else:
            app.ctl.command("to-start")
            app.after_input()

    def new_game(self) -> None:
        """A new game (a rematch at a friends table); in the middle of one, only once the player
        confirms that it ends there."""
        app = self.app
        view = app.ctl.view() if app.ctl.screen == "table" else None
        if view is not None and view.phase != "over" and not js.window.confirm(
                "Start a new game for everyone? This one ends here." if app.ctl.multiplayer
                else "Start a new game? This one ends here."):
            return
        app.ctl.command("new-game")
        app.after_input()

    def toggle_sound(self) -> None:
        app = self.app
        on = not app.profile.profile.prefs["sound"]
        app.profile.command("pref", ("sound", "true" if on else "false"))
        app.ctl.prefs.update(app.keeper.table_prefs())
        if on:    # heard at once: the player knows it works (and the browser lets it, after a tap)
            app.sound.play(("peg",))
        app.after_input()

    def on_submit(self, event: JsProxy) -> None:
        event.preventDefault()
        form, app = event.target, self.app
        data = dict(js.Object.fromEntries(js.FormData.new(form, event.submitter)).to_py())
        action = form.getAttribute("data-action") or "start"
        if action == "save-settings":    # Enter in the nickname field
            app.profile.command("nickname", data.get("nickname", ""))
            app.ctl.prefs.update(app.keeper.table_prefs())
        elif action == "start" and data.get("mode") == "friends":
            app.online(lambda: app.friends.create_table(data))
            return
        elif action == "code-answer":
            spawn(app.friends.accept_answer(str(data.get("code", ""))))
            return
        else:
            app.ctl.command(action, data)
            if action == "chat":
                form.reset()
        app.after_input()

    def on_key(self, event: JsProxy) -> None:
        if event.key == "Enter" and event.target.getAttribute("data-testid") == "link-code-input":
            event.preventDefault()          # Enter in the link code field: link (not the form)
            self.link_enter()
            return
        if event.key == "Escape" and self.app.ctl.screen == "table" and not self.app.profile.screen:
            self.app.ctl.command("menu-open")      # (opens the table's menu, or closes it)
            self.app.paint()
            return
        if event.target.tagName in ("INPUT", "SELECT", "TEXTAREA") or event.ctrlKey or event.metaKey:
            return
        if event.key == "Enter" and event.target.tagName == "BUTTON":
            return   # the button's own click handles it
        if event.key.isdigit() or event.key in ("Enter", "h", "H"):
            self.app.ctl.command("key", event.key)
            self.app.after_input()

    def on_toggle(self, event: JsProxy) -> None:
        """The hand history is drawn only while open (web.table.render.log_panel): opened, it
        needs its lines now; closed, the page lets them go."""
        if event.target.getAttribute("data-testid") == "log" and bool(event.target.open) != self.app.log_open:
            self.app.log_open = bool(event.target.open)
            self.app.paint()

    def on_change(self, event: JsProxy) -> None:
        """Settings apply the moment they change; a chosen profile file is read and merged."""
        target, app = event.target, self.app
        pref = target.getAttribute("data-pref")
        if pref:
            app.profile.command("pref", (pref, str(target.value)))
        elif target.getAttribute("data-testid") == "nickname":
            app.profile.command("nickname", str(target.value))
        elif target.getAttribute("data-action") == "import-profile" and target.files.length:
            spawn(self.import_file(target.files.item(0)))
            target.value = ""     # the field is kept across repaints: the same file may come again
            return
        else:
            return
        app.ctl.prefs.update(app.keeper.table_prefs())
        app.after_input()

    def on_hashchange(self, _event: JsProxy) -> None:
        """A new invite link pasted into this tab changes only the fragment (an invite by code,
        or another host's pin for the same table): follow it."""
        self.app.follow_link(changed=True)

    async def import_file(self, file: JsProxy) -> None:
        app = self.app
        if file.size > MAX_PROFILE_FILE:
            app.profile.message = "That file is too big to be a cribbage profile."
        else:
            app.profile.command("import-profile", str(await file.text()))
            app.ctl.prefs.update(app.keeper.table_prefs())
        app.after_input()

    def link_enter(self) -> None:
        field = self.app.root.querySelector('[data-testid="link-code-input"]')
        code = str(field.value) if field else ""
        self.app.online(lambda: self.app.linker.enter(code))
