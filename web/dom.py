"""Browser glue for the table: mount the app, route input to the controller, pace the bots,
save the game, and for tables with friends wire the controller to the network
(`web.transport`). One of the few modules allowed to touch the browser FFI.

All behaviour lives in `web.controller` / `web.host_controller` / `web.guest` and all markup
in `web.render`; this module only moves events and messages in and HTML and messages out.

A page opened with ``?table=ROOM`` is that table's host if this browser saved a hosted
table for ROOM (so a host's reload resumes it), and a guest otherwise; ``#offer=CODE`` after
it is an invite by code, for tables without a relay.
"""

from __future__ import annotations

import asyncio
import json
import secrets
from html import escape

import js
from pyodide.ffi import create_proxy

from game.errors import ParseError

from .controller import Controller
from .device_link import Linker
from .early import hand_over, read_shell
from .profile import Profile
from .profile_screens import ProfileScreens
from .guest import GuestController
from .host import HostTable
from .host_controller import HostController
from .protocol import REJECT_REASONS
from .render import render
from .session import Session, clean_name
from .transport import RELAY_DOWN, CodeGuestNet, GuestNet, HostNet

SAVE_KEY = "cribbage.table.v1"
PREFS_KEY = "cribbage.prefs.v1"     # version 1 of the profile: read once, then migrated
PROFILE_KEY = "cribbage.profile.v2"
HOST_KEY = "cribbage.host.v1"      # the table this browser hosts (seed and all cards: never sent)
GUEST_KEY = "cribbage.guest.v1"    # {room, token, name}: rejoin the same seat after a reload
BOT_DELAY = {"slow": 1.3, "normal": 0.7, "fast": 0.25, "instant": 0.0}   # seconds between bot moves
AUTO_CONTINUE_AFTER = 3.0
NO_RELAY_GUEST = ("The table's relay cannot be reached, so this link cannot connect. Ask the host "
                  "for an invite by code (in their lobby: “No relay? Invite a friend with a code”).")
CODE_LOST = ("Lost the connection to the host. Without a relay there is no reconnecting by "
             "itself: ask the host for a new invite link (your seat is kept).")


def now_iso() -> str:
    return str(js.Date.new().toISOString())


def new_seed() -> int:
    return secrets.randbelow(2**53)


class App:
    """The mounted table: one controller, one root element, the listeners we own."""

    # Copy buttons: the field each copies, and what to say once it is on the clipboard.
    COPY = {"copy-link": ("invite-link", "Invite link copied: paste it to your friends."),
            "copy-code-link": ("code-invite-link", "Invite link copied: send it to one friend."),
            "copy-answer": ("answer-code", "Answer code copied: send it to your host.")}

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
        self.linker = Linker(self.profile, HostNet, GuestNet, repaint=self._linked, later=self._later)

    # -- set-up and teardown --

    def mount(self) -> None:
        self._listen(self.root, "click", self.on_click)
        self._listen(self.root, "submit", self.on_submit)
        self._listen(self.document, "keydown", self.on_key)
        self._listen(self.root, "change", self.on_change)
        room = js.URLSearchParams.new(js.window.location.search).get("table")
        shared = str(js.window.location.hash or "")
        offer = shared.removeprefix("#offer=") if room and shared.startswith("#offer=") else None
        if offer:   # used once: a reload must not answer the same offer again
            js.window.history.replaceState(None, "", js.window.location.pathname + js.window.location.search)
        if shared.startswith("#record="):
            self.profile.command("open-record", shared.removeprefix("#record="))
            js.window.history.replaceState(None, "", js.window.location.pathname + js.window.location.search)
            self.save_profile()
        if room:
            self._open_table(str(room), offer)
        else:
            self._resume_saved()
        self.paint()
        self.kick_bots()

    def unmount(self) -> None:
        for target, name, proxy in self._proxies:
            target.removeEventListener(name, proxy)
            proxy.destroy()
        self._proxies.clear()

    def _listen(self, target, name, handler) -> None:
        proxy = create_proxy(handler)   # without a kept proxy the listener silently never fires
        target.addEventListener(name, proxy)
        self._proxies.append((target, name, proxy))

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
        if event.key.isdigit() or event.key == "Enter":
            self.ctl.command("key", event.key)
            self.after_input()

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
        """Replace the app's HTML, keeping keyboard focus on the same control where it survives."""
        active = self.document.activeElement
        key = testid = None
        if active and active.getAttribute("data-action"):
            key = (active.getAttribute("data-action"), active.getAttribute("data-arg") or None)
        elif active and active.tagName == "INPUT" and active.getAttribute("data-testid"):
            testid = active.getAttribute("data-testid")
        typed = {}   # what is being typed survives a repaint caused by a message
        for field in self.root.querySelectorAll("input[data-testid]"):
            if field.type == "text" or not field.type or field.type == "":
                typed[field.getAttribute("data-testid")] = field.value
        self.apply_prefs()
        screen = self.profile.render() if self.profile.screen else render(self.ctl)
        self.root.innerHTML = screen + self._notice_html()
        self.peg_sound()
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
        if focus and not focus.disabled:
            focus.focus()
        lines = self.root.querySelector(".chat-lines")
        if lines:
            lines.scrollTop = lines.scrollHeight

    def _notice_html(self) -> str:
        if not self.notice:
            return ""
        return f'<p class="notice" role="alert">{escape(self.notice)}</p>'

    # -- the bots' pace --

    # -- the profile --

    def link_enter(self) -> None:
        field = self.root.querySelector('[data-testid="link-code-input"]')
        self.linker.enter(str(field.value) if field else "")

    # Settings, "Link a device": the buttons' commands (web.device_link runs the link).
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
        prefs = self.profile.profile.prefs
        data = self.document.documentElement.dataset
        data.theme, data.cardSize = prefs["theme"], prefs["card_size"]
        data.fourColour = "true" if prefs["four_colour"] else "false"

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
        if isinstance(self.ctl, GuestController):
            record = self.ctl.finished
            if record is not None and record.id != self._recorded:
                self._recorded = record.id
                self.profile.keep(record)
            return
        session = getattr(self.ctl, "session", None)
        if session is None or session.state.phase != "over":
            return
        key = (id(session), session.state.state_id, session.state.seed)
        if key != self._recorded:
            self._recorded = key
            self.profile.game_finished(session, seat=0)

    def peg_sound(self) -> None:
        """A short click when points are pegged, if the player turned sound on."""
        view = self.ctl.view() if self.ctl.screen == "table" and getattr(self.ctl, "session", True) else None
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

    async def _run_bots(self) -> None:
        self._bots_running = True
        try:
            while True:
                if self.ctl.bot_waiting():
                    await asyncio.sleep(BOT_DELAY[self.speed])
                    if not self.ctl.bot_waiting():
                        continue
                    self.ctl.bot_step()
                elif self.ctl.show and self.ctl.prefs.get("auto_continue"):
                    shown = self.ctl.show
                    await asyncio.sleep(AUTO_CONTINUE_AFTER if self.speed != "instant" else 0)
                    if self.ctl.show is not shown:
                        continue
                    self.ctl.command("continue")
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
        if isinstance(self.ctl, GuestController):
            if self.ctl.token:
                storage.setItem(GUEST_KEY, json.dumps({"room": self.ctl.room, "token": self.ctl.token,
                                                       "name": self.ctl.prefs["name"]}))
            return
        if isinstance(self.ctl, HostController):
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

    # -- tables with friends --

    def create_table(self, form: dict) -> None:
        """The start form's "Invite friends": host a new table and show its invite link."""
        try:
            players, target = int(form.get("players", 2)), int(form.get("target", 121))
            self.ctl.prefs.update(players=players, target=target)
            name = clean_name(form.get("name"), "Host")
            self.ctl.prefs["name"] = name
            table = HostTable(secrets.token_urlsafe(16), players, target, name, seed_source=new_seed)
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

    def invite_link(self, room: str) -> str:
        location = js.window.location
        return f"{location.origin}{location.pathname}?table={room}"

    def become_host(self, table: HostTable) -> None:
        ctl = HostController(table, seed_source=new_seed, prefs=self.ctl.prefs)
        ctl.invite = self.invite_link(table.room)
        ctl.utc_offset = -int(js.Date.new().getTimezoneOffset())
        self.ctl = ctl

        def opened(conn):
            table.connect(conn)
            invite = self.net.invite if self.net is not None else None
            if invite is not None and self.net.conns.get(conn) is invite[1]:
                # the code invite is used up: the next friend needs a new one
                ctl.code_link = ""
                ctl.code_note = "Connected. Make a new invite link for the next friend."
                self.paint()
            self.flush()

        def message(conn, text):
            table.receive(conn, text)
            self.after_input()

        def closed(conn):
            table.disconnect(conn)
            self.after_input()

        self.net = HostNet(table.room, opened, message, closed, self.link_status)
        self.net.start()

    def _open_table(self, room: str, offer: str | None = None) -> None:
        text = js.window.localStorage.getItem(HOST_KEY)
        if text:
            try:
                table = HostTable.from_json(text, seed_source=new_seed)
            except ParseError as damaged:
                js.window.localStorage.removeItem(HOST_KEY)
                self.notice = f"Your hosted table could not be restored: {damaged}"
                table = None
            if table is not None and table.room == room:
                self.become_host(table)
                return
        saved = self._load_json(GUEST_KEY) or {}
        token = saved.get("token") if saved.get("room") == room else None
        name = saved.get("name") if isinstance(saved.get("name"), str) else self.ctl.prefs["name"]
        ctl = GuestController(room, name=name, token=token if isinstance(token, str) else None,
                              clock=now_iso)
        ctl.utc_offset = -int(js.Date.new().getTimezoneOffset())
        ctl.link = "Connecting to the table…"
        if ctl.token:
            ctl.screen = "lobby"
        self.ctl = ctl
        if offer:
            ctl.link = "Making your answer code…"
            self.net = CodeGuestNet(offer, self.guest_open, self.guest_message, self.guest_closed,
                                    self.link_status, self.got_answer)
        else:
            self.net = GuestNet(room, self.guest_open, self.guest_message, self.guest_closed, self.link_status)
        self.net.start()

    def got_answer(self, code: str) -> None:
        self.ctl.answer_code = code
        self.ctl.link = "Waiting for the host to paste your answer code…"
        self.paint()

    async def make_code_invite(self) -> None:
        """Host: a new invite link with this browser's offer inside (for tables without a relay)."""
        ctl = self.ctl
        ctl.code_note = "Making the invite…"
        self.paint()
        code = await self.net.make_invite()
        ctl.code_link = f"{self.invite_link(ctl.room)}#offer={code}"
        ctl.code_note = "Send this link to one friend, then paste the answer code they send back."
        self.paint()

    async def accept_answer(self, code: str) -> None:
        ctl = self.ctl
        try:
            await self.net.accept_answer(code)
        except ParseError as refused:
            ctl.code_note = f"That code did not work: {refused}."
        else:
            if ctl.code_link:     # else the channel opened already, and said so
                ctl.code_note = "Connecting to your friend… they appear in a seat above once connected."
        self.paint()

    def guest_open(self) -> None:
        if not any('"type":"hello"' in text for text in self.ctl.outbox):
            self.ctl.rejoin()
        self.ctl.link = ""
        self.after_input()

    def guest_message(self, text: str) -> None:
        self.ctl.receive(text)
        self.after_input()

    def guest_closed(self) -> None:
        by_code = isinstance(self.net, CodeGuestNet)
        self.ctl.link = CODE_LOST if by_code else "Lost the connection to the host. Reconnecting…"
        self.paint()

    def link_status(self, text: str) -> None:
        if text == "version":
            self.ctl.screen, self.ctl.rejected = "rejected", REJECT_REASONS["version"]
        elif isinstance(self.ctl, HostController):
            if text == RELAY_DOWN:
                self.ctl.relay_down, text = True, ""
            elif self.net is not None and self.net.signal.joined:
                self.ctl.relay_down = False
            self.ctl.link = text
        else:
            self.ctl.link = NO_RELAY_GUEST if text == RELAY_DOWN else text
        self.paint()

    def flush(self) -> None:
        """Send what the controller has queued for the network."""
        if self.net is None:
            return
        if isinstance(self.ctl, HostController):
            for conn, text in self.ctl.table.take_outbox():
                self.net.send(conn, text)
        elif isinstance(self.ctl, GuestController):
            unsent = [text for text in self.ctl.take_outbox() if not self.net.send(text)]
            self.ctl.outbox[:0] = unsent

    async def copy_field(self, testid: str, done: str) -> None:
        """Copy a read-only field (an invite link, an answer code) to the clipboard."""
        field = self.root.querySelector(f'[data-testid="{testid}"]')
        if not field:
            return
        try:
            await js.navigator.clipboard.writeText(field.value)
            self.notice = done
        except Exception:   # no clipboard permission: leave the text selected for the player
            self.notice = "Select the text and copy it (Ctrl+C or long-press)."
            self.paint()
            field = self.root.querySelector(f'[data-testid="{testid}"]')
            if field:
                field.select()
            return
        self.paint()

    def leave_table(self) -> None:
        """Leave (a guest) or close (the host) the table, back to the start screen. Mid-game,
        only once the player confirms."""
        view = self.ctl.view() if getattr(self.ctl, "screen", "") == "table" else None
        if view is not None and view.phase != "over" and not js.window.confirm(
                "Close this table for everyone?" if isinstance(self.ctl, HostController)
                else "Leave this game? A bot can take your seat until you come back."):
            return
        if isinstance(self.ctl, HostController):
            self.ctl.table.close()      # every guest hears why the table went away
            self.flush()
        if self.net is not None:
            net, self.net = self.net, None
            self._later(0.5, net.close)   # let the goodbye leave first
        storage = js.window.localStorage
        if isinstance(self.ctl, HostController):
            storage.removeItem(HOST_KEY)
        else:
            storage.removeItem(GUEST_KEY)
        prefs = dict(self.ctl.prefs) if isinstance(self.ctl, HostController) else None
        self.ctl = Controller(seed_source=new_seed, prefs=prefs or self.table_prefs())
        self._set_url(None)
        self.paint()

    def _load_json(self, key: str):
        try:
            value = json.loads(js.window.localStorage.getItem(key) or "null")
        except ValueError:
            return None
        return value if isinstance(value, dict) else None

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
