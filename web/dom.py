"""Browser glue for the table: mount the app, route input to the controller, pace the bots,
save the game and the profile. Tables with friends are `web.friends.glue`' part of the app. One of
the few modules allowed to touch the browser FFI.

All behaviour lives in `web.controller` / `web.friends.host_controller` / `web.friends.guest` and all markup
in `web.render`; this module only moves events and messages in and HTML and messages out.
"""

from __future__ import annotations

import asyncio
import time
from html import escape

import js
from pyodide.ffi import create_proxy

from game.errors import ParseError

from .clock import new_seed, now_iso
from .controller import Controller
from .early import hand_over, read_shell
from .friends.glue import GUEST_CONTROLLER, HOST_CONTROLLER, HOST_KEY, FriendsGlue
from .lazy import is_a
from .profile.model import Profile
from .profile.screens import ProfileScreens
from .render import render
from .session import Session
from .slices import THINK_SLICE, Slices
from .net.identity import fragment_params
from .table.cards import sprite as card_sprite
from .table.motion import FOCUS_JS, MORPH_JS, Morph, duration_ms

SAVE_KEY = "cribbage.table.v1"
PREFS_KEY = "cribbage.prefs.v1"     # version 1 of the profile: read once, then migrated
PROFILE_KEY = "cribbage.profile.v2"
BOT_DELAY = {"slow": 1.3, "normal": 0.7, "fast": 0.25, "instant": 0.0}   # seconds between bot moves
AUTO_CONTINUE_AFTER = 3.0
# How long the play's end stays on the table before the show (web.table.screen): the last
# card lands, its points are pegged and said. Instant play opens the show in the next task.
PLAY_END_BEAT = {"slow": 2.2, "normal": 1.6, "fast": 1.0, "instant": 0.0}
FRAME_PAUSE = 0.05   # seconds: long enough for the browser to draw a frame in between
FACES_AHEAD_PAUSE = 0.05   # seconds between the batches of card faces added while the page is idle


class App(FriendsGlue):
    """The mounted table: one controller, one root element, the listeners we own."""

    def __init__(self, root):
        self.root = root
        self.document = js.document
        self.notice = ""
        self.profile = ProfileScreens(self._load_profile(), clock=now_iso)
        self.speed_override = self._speed_from_url()
        self.ctl = Controller(seed_source=new_seed, prefs=self.table_prefs())
        self._recorded = None       # (session, state id) last offered to the profile
        self._score_total = 0       # for the peg sound
        self._audio = None
        self.net = None
        self._proxies = []
        self._bots_running = False
        self._morph = None
        self._linker = None
        self._pace = self._applied_prefs = None    # what paint() last wrote on <html>
        self._chat_seen = None          # the chat's length, first and last lines when last scrolled

    # -- set-up and teardown --

    def mount(self) -> None:
        if not self.document.querySelector(".card-sprite"):   # the cards' shared shapes, once
            self.document.body.insertAdjacentHTML("afterbegin", card_sprite())
        self._listen(self.root, "click", self.on_click)
        self._listen(self.root, "submit", self.on_submit)
        self._listen(self.document, "keydown", self.on_key)
        self._listen(self.root, "change", self.on_change)
        self._listen(self.root, "toggle", self.on_toggle, capture=True)   # (toggle does not bubble)
        self._listen(js.window, "hashchange", self.on_hashchange)
        room = js.URLSearchParams.new(js.window.location.search).get("table")
        shared = str(js.window.location.hash or "")
        if shared.startswith("#record="):
            self.profile.command("open-record", shared.removeprefix("#record="))
            if self.profile.screen != "replay":     # refused: the start screen says why
                self.notice, self.profile.message = f"That game link was not opened: {self.profile.message}", ""
            js.window.history.replaceState(None, "", js.window.location.pathname + js.window.location.search)
            self.save_profile()
        if room:
            self.open_link(str(room), self._table_fragment())
        else:
            self._resume_saved()
        self.paint()
        self.kick_bots()

    def _table_fragment(self) -> dict:
        """The table link's fragment; an invite by code is used once, so it leaves the address
        (a reload must not answer the same offer again) and only the host's pin stays."""
        fragment = fragment_params(str(js.window.location.hash or ""))
        if "offer" in fragment:
            pin = "#" + "&".join(f"{name}={fragment[name]}" for name in ("h", "k") if name in fragment)
            js.window.history.replaceState(None, "", js.window.location.pathname + js.window.location.search + pin)
        return fragment

    def on_hashchange(self, _event) -> None:
        """A new invite link pasted into this tab changes only the fragment (an invite by code,
        or another host's pin for the same table): follow it."""
        room = js.URLSearchParams.new(js.window.location.search).get("table")
        fragment = fragment_params(str(js.window.location.hash or ""))
        if not room or is_a(self.ctl, HOST_CONTROLLER):
            return
        pin = self.ctl.pin if is_a(self.ctl, GUEST_CONTROLLER) else None
        if "offer" in fragment or fragment.get("h") != pin:
            self.open_link(str(room), self._table_fragment())
            self.paint()

    def unmount(self) -> None:
        for target, name, proxy, capture in self._proxies:
            target.removeEventListener(name, proxy, capture)
            proxy.destroy()
        self._proxies.clear()

    def _listen(self, target, name, handler, capture: bool = False) -> None:
        proxy = create_proxy(handler)   # without a kept proxy the listener silently never fires
        target.addEventListener(name, proxy, capture)
        self._proxies.append((target, name, proxy, capture))

    # -- input --

    def on_click(self, event) -> None:
        target = event.target.closest("[data-action]")
        if not target or target.tagName == "FORM" or target.disabled:   # JS null is falsy
            return
        # A missing attribute is JS null (falsy); a missing dataset key would raise instead.
        action, arg = target.getAttribute("data-action"), target.getAttribute("data-arg") or None
        self.notice = ""
        if action == "export-profile":
            self.download("cribbage-profile.json", self.profile.export())
            return
        if action in self.LINK:
            self.LINK[action](self)
            return
        if self.profile.command(action, arg):
            if action == "share-record" and self.profile.clipboard:
                asyncio.ensure_future(self.copy_text(self.share_link(self.profile.clipboard)))
            self.after_input()
            return
        if action in self.COPY:
            asyncio.ensure_future(self.copy_field(*self.COPY[action]))
            return
        if action == "code-invite":
            asyncio.ensure_future(self.make_code_invite())
            return
        if action == "leave":
            self.leave_table()
            return
        self.ctl.command(action, arg)
        self.after_input()

    def on_submit(self, event) -> None:
        event.preventDefault()
        form = event.target
        data = dict(js.Object.fromEntries(js.FormData.new(form, event.submitter)).to_py())
        action = form.getAttribute("data-action") or "start"
        if action == "save-settings":    # Enter in the nickname field
            self.profile.command("nickname", data.get("nickname", ""))
            self.ctl.prefs.update(self.table_prefs())
            self.after_input()
            return
        if action == "start" and data.get("mode") == "friends":
            self.create_table(data)
            return
        if action == "code-answer":
            asyncio.ensure_future(self.accept_answer(str(data.get("code", ""))))
            return
        self.ctl.command(action, data)
        if action == "chat":
            form.reset()
        self.after_input()

    def on_key(self, event) -> None:
        if event.key == "Enter" and event.target.getAttribute("data-testid") == "link-code-input":
            event.preventDefault()          # Enter in the link code field: link (not the form)
            self.link_enter()
            return
        if event.target.tagName in ("INPUT", "SELECT", "TEXTAREA") or event.ctrlKey or event.metaKey:
            return
        if event.key == "Enter" and event.target.tagName == "BUTTON":
            return   # the button's own click handles it
        if event.key.isdigit() or event.key in ("Enter", "h", "H"):
            self.ctl.command("key", event.key)
            self.after_input()

    def on_toggle(self, event) -> None:
        """The hand history is drawn only while open (web.table.render.log_panel): opened, it
        needs its lines now; closed, the page lets them go."""
        if event.target.getAttribute("data-testid") == "log":
            self.paint()

    def on_change(self, event) -> None:
        """Settings apply the moment they change; a chosen profile file is read and merged."""
        target = event.target
        pref = target.getAttribute("data-pref")
        if pref:
            self.profile.command("pref", (pref, str(target.value)))
        elif target.getAttribute("data-testid") == "nickname":
            self.profile.command("nickname", str(target.value))
        elif target.getAttribute("data-action") == "import-profile" and target.files.length:
            asyncio.ensure_future(self.import_file(target.files.item(0)))
            target.value = ""     # the field is kept across repaints: the same file may come again
            return
        else:
            return
        self.ctl.prefs.update(self.table_prefs())
        self.after_input()

    async def import_file(self, file) -> None:
        if file.size > 4_000_000:
            self.profile.message = "That file is too big to be a cribbage profile."
        else:
            self.profile.command("import-profile", str(await file.text()))
            self.ctl.prefs.update(self.table_prefs())
        self.after_input()

    def after_input(self) -> None:
        self.flush()      # the network first: the other players see the move sooner
        self.record_finished_game()
        self.paint()
        self.save()
        self.kick_bots()

    # -- output --

    def paint(self) -> None:
        """Update the app's HTML in place (keyed: web.table.motion), keeping keyboard focus on the
        same control where it survives."""
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
        self.apply_prefs()
        screen = self.profile.render() if self.profile.screen else render(self.ctl, "log" in opened)
        if self._morph is None:      # keyed update in place, so transitions run (web.table.motion)
            self._morph, self._focus_later = Morph(js.eval(MORPH_JS)), js.eval(FOCUS_JS)
        pace = self.speed
        if pace != self._pace:     # (a custom property on the root restyles the whole page)
            self._pace, style = pace, self.document.documentElement.style
            style.setProperty("--speed", f"{min(duration_ms(pace), 180)}ms")
            style.setProperty("--peg-speed", f"{duration_ms(pace)}ms")
        self._morph(self.root, screen + self._notice_html(), duration_ms(pace))
        self.peg_sound()
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
        if not self.notice:
            return ""
        return f'<p class="notice" role="alert">{escape(self.notice)}</p>'

    # -- the bots' pace --

    # -- the profile --

    @property
    def linker(self):
        """Linking a device (web.profile.device_link over web.net): imported on first use (web.lazy)."""
        if self._linker is None:
            from .profile.device_link import Linker
            from .net.transport import GuestNet, HostNet
            self._linker = Linker(self.profile, HostNet, GuestNet, repaint=self._linked, later=self._later)
        return self._linker

    def link_enter(self) -> None:
        field = self.root.querySelector('[data-testid="link-code-input"]')
        self.linker.enter(str(field.value) if field else "")

    # Settings, "Link a device": the buttons' commands (web.profile.device_link runs the link).
    LINK = {"link-show": lambda app: app.linker.show(), "link-enter": link_enter,
            "link-cancel": lambda app: app.linker.cancel()}

    def _linked(self) -> None:
        """The link's state changed (or a merge happened): save, and show it."""
        self.ctl.prefs.update(self.table_prefs())
        self.save_profile()
        self.paint()

    @staticmethod
    def _later(seconds: float, fn) -> None:
        asyncio.get_event_loop().call_later(seconds, fn)

    def table_prefs(self) -> dict:
        """The profile's preferences as the table's controller reads them."""
        return {**self.profile.profile.prefs, "name": self.profile.profile.nickname}

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

    def sync_table_prefs(self) -> None:
        """What the start form changed (name, level, players, length) is the profile's too."""
        prefs, profile = self.ctl.prefs, self.profile.profile
        wanted = {key: prefs[key] for key in ("level", "players", "target", "auto_continue")
                  if key in prefs}
        if prefs.get("name", profile.nickname) != profile.nickname or \
                any(profile.prefs[key] != value for key, value in wanted.items()):
            self.profile._change(profile.with_prefs(now_iso(), nickname=prefs.get("name"), **wanted))

    def record_finished_game(self) -> None:
        """Keep each finished game (ours, hosted, or one we joined) in the profile, once."""
        if is_a(self.ctl, GUEST_CONTROLLER):
            record = self.ctl.finished
            if record is not None and record.id != self._recorded:
                self._recorded = record.id
                self.profile.keep(record)
            return
        session = getattr(self.ctl, "session", None)
        if session is None or session.state.phase != "over":
            return
        if self.ctl.coach_waiting():
            return   # the coach's last reviews first, in the idle loop's slices (not in this move)
        key = (id(session), session.state.state_id, session.state.seed)
        if key != self._recorded:
            self._recorded = key
            fair = self.ctl.table.fair_transcript() if is_a(self.ctl, HOST_CONTROLLER) else None
            self.profile.game_finished(session, seat=0, coach=self.ctl.finished_review(), fair=fair)

    def peg_sound(self) -> None:
        """A short click when points are pegged, if the player turned sound on."""
        view = self.ctl.seat_screen.table_view if self.ctl.screen == "table" else None   # (pegged a beat before the show)
        total = sum(view.scores) if view is not None else 0
        if total > self._score_total and self.profile.profile.prefs["sound"]:
            try:
                if self._audio is None:          # one context for the page: browsers cap them
                    self._audio = js.window.AudioContext.new()
                audio = self._audio
                tone, gain = audio.createOscillator(), audio.createGain()
                tone.frequency.value, gain.gain.value = 880, 0.04
                tone.connect(gain)
                gain.connect(audio.destination)
                tone.start()
                tone.stop(audio.currentTime + 0.06)
            except Exception:   # no audio device or not allowed yet: stay silent
                pass
        self._score_total = total

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

    def save_profile(self) -> None:
        if self.profile.changed:
            js.window.localStorage.setItem(PROFILE_KEY, self.profile.profile.to_json())
            self.profile.changed = False

    def _load_profile(self) -> Profile:
        storage = js.window.localStorage
        text = storage.getItem(PROFILE_KEY) or storage.getItem(PREFS_KEY)
        if not text:
            return Profile.new(now=now_iso())
        try:
            return Profile.from_json(str(text))
        except ParseError as damaged:
            self.notice = f"Your saved profile could not be read ({damaged}); starting a new one."
            return Profile.new(now=now_iso())

    def kick_bots(self) -> None:
        if not self._bots_running:
            asyncio.ensure_future(self._run_bots())

    async def _think(self, steps=None) -> None:
        """One bot move (or the coach's review of one play), its thinking cut into slices of at
        most `THINK_SLICE` seconds with the page free in between (input, paint, the network):
        `web.slices`."""
        steps = self.ctl.bot_thinking() if steps is None else steps
        slices = Slices(THINK_SLICE)
        slices.start(time.perf_counter())
        for _ in steps:
            if slices.step_done(time.perf_counter()):
                await asyncio.sleep(0)
                slices.start(time.perf_counter())

    async def _run_bots(self) -> None:
        self._bots_running = True
        try:
            while True:
                seen = self.ctl.seat_screen
                ended = seen.play_end
                if ended is not None:
                    await asyncio.sleep(PLAY_END_BEAT[self.speed])
                    if seen.play_end is ended:
                        seen.open_show()
                        self.after_input()
                        # The coach draws the counted hand's review next: after the show's frame,
                        # or its repaint would make the browser lay the show out at once.
                        await asyncio.sleep(FRAME_PAUSE)
                    continue
                if self.ctl.bot_waiting():
                    await asyncio.sleep(BOT_DELAY[self.speed])
                    if not self.ctl.bot_waiting():
                        continue
                    await self._think()
                elif self.ctl.coach_waiting():
                    await self._think(self.ctl.coach_thinking())
                elif seen.show and self.ctl.prefs.get("auto_continue"):
                    shown = seen.show
                    await asyncio.sleep(AUTO_CONTINUE_AFTER if self.speed != "instant" else 0)
                    if seen.show is not shown:
                        continue
                    self.ctl.command("continue")
                elif self.profile.review_due():     # an imported game's figures, a hand at a time
                    await self._think(self.profile.reviewing())
                elif self._morph is not None and self._morph.faces_missing():
                    self._morph.add_faces_ahead()    # (nothing on the screen changes)
                    await asyncio.sleep(FACES_AHEAD_PAUSE)
                    continue
                else:
                    return
                self.flush()
                self.record_finished_game()
                self.paint()
                self.save()
        finally:
            self._bots_running = False

    # -- storage --

    def save(self) -> None:
        self.sync_table_prefs()
        self.save_profile()
        storage = js.window.localStorage
        if is_a(self.ctl, GUEST_CONTROLLER):
            self.save_guest()
            return
        if is_a(self.ctl, HOST_CONTROLLER):
            storage.setItem(HOST_KEY, self.ctl.table.to_json())
        elif self.ctl.session is not None:
            storage.setItem(SAVE_KEY, self.ctl.session.to_json())

    def _resume_saved(self) -> None:
        text = js.window.localStorage.getItem(SAVE_KEY)
        if not text:
            return
        try:
            session = Session.from_json(text)
        except ParseError as damaged:
            js.window.localStorage.removeItem(SAVE_KEY)
            self.notice = f"Your saved game could not be restored: {damaged}"
            return
        self.ctl.resume(session)
        if session.state.phase == "over":
            self.ctl.screen = "start"

    def _speed_from_url(self) -> str:
        params = js.URLSearchParams.new(js.window.location.search)
        speed = params.get("speed")
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
