"""The page: mount the app, paint it, and hand the rest to its parts. One of the few modules
allowed to touch the browser FFI.

`App` holds the current table's controller (`web.seat.SeatTable`: the bot table, a friends
table's host or a guest), the profile's screens and the parts that do each job:
`web.input.Input` (every click, form and key, routed), `web.scheduler.Scheduler` (the bots,
the coach and the show's beat, while the player watches), `web.keeper.Keeper` (the profile and
the table in progress, kept), and `web.friends.glue.Friends` (hosting, joining and leaving a
table with friends, and its network). All behaviour lives in the controllers and all markup in
`web.render`; this module only moves HTML out and repaints.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from html import escape
from typing import TYPE_CHECKING, cast

import js
from pyodide.ffi import create_proxy

from . import keeper
from .clock import new_seed, now_iso
from .controller import Controller
from .early import hand_over, read_shell
from .friends.glue import Friends
from .input import Input
from .lazy import BUNDLE
from .net.identity import fragment_params
from .profile.screens import ProfileScreens
from .render import render
from .scheduler import BOT_DELAY, Scheduler
from .sound import Sound
from .tasks import spawn
from .table.cards import sprite as card_sprite
from .table.motion import FOCUS_JS, MORPH_JS, Morph, duration_ms, only_the_state
from .table.sounds import Heard, cues, heard

TOAST_SECONDS = 4      # how long a passing word ("Invite link copied") stays
LOADING = "Loading…"   # while what tables with friends import is fetched (App.online)

# Which table the app holds, its controller's flags say (multiplayer, hosting): the tables with
# friends and linking a device are imported where first used (web.lazy).
if TYPE_CHECKING:
    from pyodide.ffi import JsDoubleProxy, JsProxy

    from .friends.guest import GuestController
    from .profile.device_link import Linker
    from .seat import SeatTable

    Handler = Callable[[JsProxy], object]     # an event listener


class App:
    """The mounted table: one controller, one root element, the listeners we own, and the parts
    that do each job (see the module's docstring)."""

    _focus_later: Callable[[JsProxy], object]    # made with the first paint's Morph

    def __init__(self, root: JsProxy) -> None:
        self.root = root
        self.document = js.document
        profile, self.notice = keeper.load_profile()
        self.toast = ""
        self.profile = ProfileScreens(profile, clock=now_iso)
        self.friends = Friends(self)
        self.keeper = keeper.Keeper(self.profile, self.friends.save_seat)
        self.scheduler = Scheduler(self)
        self.input = Input(self)
        self.speed_override = speed_from_url()
        self.ctl: SeatTable = Controller(seed_source=new_seed, prefs=self.keeper.table_prefs())
        self.sound = Sound()
        self._heard: Heard | None = None     # what the table's sounds last followed (web.table.sounds)
        self._proxies: list[tuple[JsProxy, str, JsDoubleProxy[Handler], bool]] = []
        self._morph: Morph | None = None
        self._painted = ""       # the HTML last put on the page
        self._linker: Linker | None = None
        # what paint() last wrote on <html>
        self._pace: str | None = None
        self._applied_prefs: tuple[str, str, str] | None = None
        self._chat_seen: tuple[object, ...] | None = None   # the chat's length, first and last lines when last scrolled
        # The hand history: open beside the table on a wide screen, closed under it on a phone,
        # then as the player leaves it (web.input's on_toggle).
        self.log_open = bool(js.window.matchMedia("(min-width: 960px)").matches)

    # -- set-up and teardown --

    def mount(self) -> None:
        if not self.document.querySelector(".card-sprite"):   # the cards' shared shapes, once
            self.document.body.insertAdjacentHTML("afterbegin", card_sprite())
        handle = self.input
        self._listen(self.root, "click", handle.on_click)
        self._listen(self.root, "submit", handle.on_submit)
        self._listen(self.document, "keydown", handle.on_key)
        self._listen(self.root, "change", handle.on_change)
        self._listen(self.root, "toggle", handle.on_toggle, capture=True)   # (toggle does not bubble)
        self._listen(js.window, "hashchange", handle.on_hashchange)
        shared = str(js.window.location.hash or "")
        if shared.startswith("#record="):
            self.profile.command("open-record", shared.removeprefix("#record="))
            if self.profile.screen != "replay":     # refused: the start screen says why
                self.notice, self.profile.message = f"That game link was not opened: {self.profile.message}", ""
            js.window.history.replaceState(None, "", js.window.location.pathname + js.window.location.search)
            self.keeper.save_profile()
        if not self.follow_link(changed=False):
            self.resume_saved()
        self.paint()
        self.scheduler.kick()

    def follow_link(self, changed: bool) -> bool:
        """Open the table the address names (``?table=ROOM#h=PIN``), if it names one: at the
        start, or when a new invite link pasted into this tab changed only its fragment (an
        invite by code, or another host's pin for the same table). Whether it named one."""
        room = js.URLSearchParams.new(js.window.location.search).get("table")
        if not room:
            return False
        fragment = fragment_params(str(js.window.location.hash or ""))
        if changed:
            pin = cast("GuestController", self.ctl).pin if self.ctl.multiplayer and not self.ctl.hosting else None
            if self.ctl.hosting or ("offer" not in fragment and fragment.get("h") == pin):
                return True
        if "offer" in fragment:     # an invite by code is used once: only the host's pin stays in the address
            pin = "#" + "&".join(f"{name}={fragment[name]}" for name in ("h", "k") if name in fragment)
            js.window.history.replaceState(None, "", js.window.location.pathname + js.window.location.search + pin)
        self.online(lambda: self.friends.open_link(str(room), fragment))
        if changed:
            self.paint()
        return True

    def online(self, step: Callable[[], object]) -> None:
        """Run `step`, which imports what only tables with friends and linking a device import
        (web.lazy.LATER): at once if that is in, else once web.lazy.BUNDLE brought it in (the
        built site fetches it on first use). Offline then, the page says why, and nothing changes;
        nor does it if the player moved on meanwhile (another table: a second tap on the same button
        is not a second table)."""
        if BUNDLE.ready:
            step()
        else:
            spawn(self._online(step, self.ctl))

    async def _online(self, step: Callable[[], object], ctl: SeatTable) -> None:
        self.toast = LOADING
        self.paint()
        try:
            await BUNDLE.ensure()
        except OSError as failed:
            self.notice = f"Tables with friends and linking a device could not be loaded: {failed}."
        else:
            if self.ctl is ctl:
                step()
        self.toast = "" if self.toast == LOADING else self.toast
        self.paint()

    def resume_saved(self) -> None:
        session, notice = keeper.load_game()
        self.notice = notice or self.notice
        if session is None:
            return
        cast("Controller", self.ctl).resume(session)     # (at the start: the bot table)
        if session.state.phase == "over":
            self.ctl.screen = "start"

    def unmount(self) -> None:
        for target, name, proxy, capture in self._proxies:
            target.removeEventListener(name, proxy, capture)
            proxy.destroy()
        self._proxies.clear()

    def _listen(self, target: JsProxy, name: str, handler: Handler, capture: bool = False) -> None:
        proxy = create_proxy(handler)   # without a kept proxy the listener silently never fires
        target.addEventListener(name, proxy, capture)
        self._proxies.append((target, name, proxy, capture))

    # -- after input, and after each thing the scheduler does --

    def after_input(self) -> None:
        self.moved()
        self.scheduler.kick()

    def after_work(self) -> None:
        """After a step of work nobody clicked for (a blind hand's, `web.friends.glue`): as after
        input, but the page is repainted only if its HTML changed (most steps show nothing)."""
        self.moved(only_if_changed=True)
        self.scheduler.kick()

    def moved(self, only_if_changed: bool = False) -> None:
        """The table may have changed: the network first (the other players see the move
        sooner), then the profile's record of a finished game, the screen, and the save."""
        self.friends.flush()
        self.keeper.record_finished(self.ctl)
        self.paint(only_if_changed)
        self.keeper.save(self.ctl)

    # -- output --

    def paint(self, only_if_changed: bool = False) -> None:
        """Update the app's HTML in place (keyed: web.table.motion), keeping keyboard focus on the
        same control where it survives. ``only_if_changed``: nothing is touched when the HTML is
        the one last painted, and only the table's ``data-state`` when that is all it changed
        (`only_the_state`; after a step of work, `after_work`; after input the page is always
        morphed: something outside the paint, a test or an extension, may have changed the DOM)."""
        self.apply_prefs()
        narrow = not js.window.matchMedia("(min-width: 960px)").matches
        screen = self.profile.render() if self.profile.screen else render(self.ctl, self.log_open, narrow)
        html, pace = screen + self._notice_html(), self.speed
        if only_if_changed and pace == self._pace:
            state = None if html == self._painted else only_the_state(self._painted, html)
            table = self.root.querySelector(".tabletop") if state is not None else None
            if table:          # the table's state number alone changed: that attribute alone
                table.setAttribute("data-state", state)
                self._painted = html
            if html == self._painted:
                self.table_sounds()
                return
        active = self.document.activeElement
        key = testid = None
        if active and active.getAttribute("data-action"):
            key = (active.getAttribute("data-action"), active.getAttribute("data-arg") or None)
        elif active and active.tagName == "INPUT" and active.getAttribute("data-testid"):
            testid = active.getAttribute("data-testid")
        typed = {}   # what is being typed survives a repaint caused by a message
        opened = [d.getAttribute("data-testid") for d in self.root.querySelectorAll("details[open][data-testid]")]
        for field in self.root.querySelectorAll("input[data-testid]"):
            if field.type == "text" or not field.type or field.type == "":
                typed[field.getAttribute("data-testid")] = field.value
        if self._morph is None:      # keyed update in place, so transitions run (web.table.motion)
            self._morph, self._focus_later = Morph(js.eval(MORPH_JS)), js.eval(FOCUS_JS)
        if pace != self._pace:     # (a custom property on the root restyles the whole page)
            self._pace, style = pace, self.document.documentElement.style
            style.setProperty("--speed", f"{min(duration_ms(pace), 180)}ms")
            style.setProperty("--peg-speed", f"{duration_ms(pace)}ms")
        self._morph(self.root, html, duration_ms(pace))
        self._painted = html
        self.table_sounds()
        for name in opened:      # a panel the player opened stays open
            panel = self.root.querySelector(f'details[data-testid="{name}"]')
            if panel:
                panel.open = True
        for name, value in typed.items():
            field = self.root.querySelector(f'input[data-testid="{name}"]')
            if field and value and not field.readOnly:
                field.value = value
        focus = None
        if key:
            selector = f'[data-action="{key[0]}"]' + (f'[data-arg="{key[1]}"]' if key[1] else "")
            focus = self.root.querySelector(selector)
        elif testid:
            focus = self.root.querySelector(f'input[data-testid="{testid}"]')
        focus = focus or self.root.querySelector("[autofocus]")
        if focus and not focus.disabled and focus != self.document.activeElement:
            self._focus_later(focus)
        lines = self.root.querySelector(".chat-lines")
        if lines:       # scrolled when a line came only: reading the height lays the page out
            ends = (lines.firstElementChild, lines.lastElementChild)   # (the last 200 are shown)
            seen = (lines.childElementCount, *(str(line.textContent) if line else "" for line in ends))
            if seen != self._chat_seen:
                self._chat_seen = seen
                lines.scrollTop = lines.scrollHeight

    def _notice_html(self) -> str:
        """A problem the player must read (``notice``, an alert that stays until the next click)
        and a passing word that all went well (``toast``, a polite status that fades)."""
        alert = f'<p class="notice" role="alert">{escape(self.notice)}</p>' if self.notice else ""
        return alert + (f'<p class="toast" role="status">{escape(self.toast)}</p>' if self.toast else "")

    def say(self, words: str) -> None:
        """Tell the player, for a few seconds, that something went as asked ("Invite link copied")."""
        self.toast = words
        self.paint()
        spawn(self._toast_over(words))

    async def _toast_over(self, words: str) -> None:
        await asyncio.sleep(TOAST_SECONDS)
        if self.toast == words:
            self.toast = ""
            self.paint()

    def faces_missing(self) -> bool:
        return self._morph is not None and self._morph.faces_missing()

    def add_faces_ahead(self) -> None:
        assert self._morph is not None, "faces_missing said some were"
        self._morph.add_faces_ahead()

    @property
    def speed(self) -> str:
        return self.speed_override or self.profile.profile.prefs["speed"]

    def apply_prefs(self) -> None:
        """The theme, card size and colours on <html>, written only when they change (each
        write restyles the whole page)."""
        prefs = self.profile.profile.prefs
        wanted = (prefs["theme"], prefs["card_size"], "true" if prefs["four_colour"] else "false")
        if wanted != self._applied_prefs:
            self._applied_prefs = wanted
            data = self.document.documentElement.dataset
            data.theme, data.cardSize, data.fourColour = wanted

    def table_sounds(self) -> None:
        """Play what just happened at the table (a card, points, the player's turn, the game's
        end), if the player turned sound on; a repaint that changed none of it stays quiet."""
        view = self.ctl.seat_screen.table_view if self.ctl.screen == "table" else None   # (pegged a beat before the show)
        if view is None:
            self._heard = None
            return
        now = heard(view)
        if self.profile.profile.prefs["sound"]:
            self.sound.play(cues(self._heard, now, view.side))
        self._heard = now

    def download(self, filename: str, text: str) -> None:
        blob = js.Blob.new([text], js.Object.fromEntries([["type", "application/json"]]))
        url = js.URL.createObjectURL(blob)
        link = self.document.createElement("a")
        link.href, link.download = url, filename
        self.document.body.appendChild(link)
        link.click()
        link.remove()
        js.URL.revokeObjectURL(url)

    def share_link(self, fragment: str) -> str:
        location = js.window.location
        return f"{location.origin}{location.pathname}{fragment}"

    async def copy_text(self, text: str) -> None:
        try:
            await js.navigator.clipboard.writeText(text)
        except Exception:
            self.profile.message = f"Copy this link: {text}"
            self.paint()

    # -- linking a device --

    @property
    def linker(self) -> Linker:
        """Linking a device (web.profile.device_link over web.net): imported on first use, in
        web/app_later.zip (web.lazy): only through `online`."""
        if self._linker is None:
            import asyncio

            from .net.transport import GuestNet, HostNet
            from .profile.device_link import Linker
            later = asyncio.get_event_loop().call_later
            self._linker = Linker(self.profile, HostNet, GuestNet, repaint=self._linked, later=later)
        return self._linker

    def _linked(self) -> None:
        """The link's state changed (or a merge happened): save, and show it."""
        self.ctl.prefs.update(self.keeper.table_prefs())
        self.keeper.save_profile()
        self.paint()


def speed_from_url() -> str | None:
    """The pace the address asks for (``?speed=instant``, as the tests play), else None."""
    speed = js.URLSearchParams.new(js.window.location.search).get("speed")
    return speed if speed in BOT_DELAY else None


def start(root_id: str = "table") -> App:
    """Mount the table on the element ``root_id`` and mark the page ready for input.

    The page's static start form (index.html) may have been used while Python loaded: what the
    player typed, chose or pressed there is handed over to the mounted app (`web.early`).
    """
    root = js.document.getElementById(root_id)
    shell = read_shell(root, js.document)
    app = App(root)
    app.mount()
    try:
        hand_over(shell, root)
    finally:
        js.document.documentElement.dataset.ready = "true"
    return app
