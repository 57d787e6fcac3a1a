"""Linking a device (web.profile.device_link): codes, the transfer in parts, and two Linkers swapping
profiles over fake connections that behave like web.net.transport's (host: conn ids; guest: none)."""

import json

import pytest

from game.errors import ParseError
from web.profile.device_link import (ALPHABET, NO_RELAY, PART_CHARS, Linker, Transfer, ack, new_code,
                             read_code, room_for)
from web.profile.model import Profile
from web.profile.screens import ProfileScreens
from web.profile.records import record_game
from web.session import Session
from web.net.signal_code import RELAY_DOWN


def finished(seed):
    session = Session.new(2, 61, ["A", "B"], ["easy", "easy"], seed=seed)
    while session.state.phase != "over":
        session.bot_move()
    return record_game(session, seat=0, finished=f"2026-11-{10 + seed:02d}T12:00:00Z")


@pytest.fixture(scope="module")
def records():
    return [finished(seed) for seed in range(3)]


def test_codes_are_readable_and_forgiving_to_type():
    codes = {new_code() for _ in range(200)}
    assert len(codes) == 200
    for code in codes:
        assert len(code) == 9 and code[4] == "-" and set(code.replace("-", "")) <= set(ALPHABET)
        assert read_code(code.lower().replace("-", " ")) == code
        assert room_for(code).startswith("link-") and "-" not in room_for(code)[5:]
    for bad in ("", "ABC", "K7MQ-2XRT-9", "K7MQ-2XR0", "K7MQ-2XRI"):
        with pytest.raises(ParseError):
            read_code(bad)


def test_a_big_profile_travels_in_parts_and_checks_its_order():
    text = "x" * (PART_CHARS * 2 + 5)
    parts = Transfer(text).outgoing()
    assert len(parts) == 3
    other = Transfer("")
    with pytest.raises(ParseError, match="out of order"):
        other.receive(parts[1])
    for part in parts:
        other.receive(part)
    assert other.received == text and other.take_replies() == [ack()]
    with pytest.raises(ParseError, match="out of order"):
        other.receive(parts[0])                       # nothing after the whole has arrived
    for bad in ("nope", "[]", json.dumps({"v": 9, "type": "got"}), json.dumps({"v": 1, "type": "part"}),
                json.dumps({"v": 1, "type": "part", "index": 0, "count": 0, "data": ""}), "x" * 40_000):
        with pytest.raises(ParseError):
            Transfer("").receive(bad)


class Hub:
    """Rooms of fake connections: the first host and the first guest of a room are joined."""

    def __init__(self, relay=True):
        self.relay, self.rooms, self.timers, self.queue = relay, {}, [], []

    def pump(self):
        """Deliver messages in order, as a data channel does, once both ends are open."""
        while self.queue:
            deliver = self.queue.pop(0)
            deliver()

    def later(self, seconds, fn):
        self.timers.append((seconds, fn))

    def run_timers(self, up_to):
        due = [(s, fn) for s, fn in self.timers if s <= up_to]
        self.timers = [(s, fn) for s, fn in self.timers if s > up_to]
        for _, fn in due:
            fn()


class FakeNet:
    def __init__(self, hub, role, room, on_open, on_message, on_close, on_status):
        self.hub, self.role, self.room = hub, role, room
        self.on_open, self.on_message, self.on_close, self.on_status = on_open, on_message, on_close, on_status
        self.other, self.closed = None, False

    def start(self):
        if not self.hub.relay:
            return self.on_status(RELAY_DOWN)
        members = self.hub.rooms.setdefault(self.room, [])
        members.append(self)
        hosts = [m for m in members if m.role == "host" and not m.closed]
        guests = [m for m in members if m.role == "guest" and not m.closed and m.other is None]
        if hosts and guests and hosts[0].other is None:
            host, guest = hosts[0], guests[0]
            host.other, guest.other = guest, host
            host.on_open("c1")
            guest.on_open()
            self.hub.pump()
        elif self.role == "guest":
            self.on_status("Connecting to the table…")

    def send(self, *args):
        text = args[-1]
        if self.other is not None and not self.closed:
            peer = self.other
            self.hub.queue.append(lambda: peer.closed or peer.on_message(*(("c1",) if peer.role == "host" else ()), text))

    def close(self):
        if not self.closed:
            self.closed = True
            if self.other is not None and not self.other.closed:
                self.other.on_close(*(("c1",) if self.other.role == "host" else ()))


def device(hub, profile):
    screens = ProfileScreens(profile, clock=lambda: "2026-11-30T12:00:00Z")
    linker = Linker(screens, lambda *a: FakeNet(hub, "host", *a), lambda *a: FakeNet(hub, "guest", *a),
                    repaint=lambda: None, later=hub.later)
    return screens, linker


def test_two_devices_swap_their_games_and_linking_twice_adds_nothing(records):
    hub = Hub()
    phone = Profile.new("Ann", now="2026-11-01T00:00:00Z", profile_id="phone")
    laptop = Profile.new("Ann", now="2026-11-02T00:00:00Z", profile_id="laptop")
    phone = phone.add_record(records[0]).add_record(records[1])
    laptop = laptop.add_record(records[1]).add_record(records[2])
    phone_screens, phone_link = device(hub, phone)
    laptop_screens, laptop_link = device(hub, laptop)
    phone_link.show()
    code = phone_screens.link.code
    assert phone_screens.link.showing and "Waiting" in phone_screens.link.status
    laptop_link.enter(code.lower())
    for screens, news in ((phone_screens, "1 new game"), (laptop_screens, "1 new game")):
        assert screens.link.finished and screens.link.status.startswith(f"Linked: {news} here"), screens.link
        assert {r.id for r in screens.profile.records} == {r.id for r in records}
    hub.run_timers(1.0)                      # the goodbye closes both ends
    phone_link.show()
    laptop_link.enter(phone_screens.link.code)
    assert laptop_screens.link.status.startswith("Linked: 0 new games here")
    assert len(laptop_screens.profile.records) == 3


def test_a_wrong_code_a_missing_relay_and_expiry_say_so(records):
    hub = Hub()
    screens, linker = device(hub, Profile.new("Ann"))
    linker.enter("K7MQ-2XR0")
    assert screens.link.finished and "never has 0" in screens.link.status
    linker.enter("K7MQ-2XRT")                # nobody shows this code
    assert "Looking for the device" in screens.link.status and not screens.link.finished
    hub.run_timers(10 * 60)
    assert screens.link.finished and "expired" in screens.link.status
    offline_screens, offline = device(Hub(relay=False), Profile.new("Ann"))
    offline.show()
    assert offline_screens.link.status == NO_RELAY and offline_screens.link.finished


def test_a_damaged_profile_from_the_other_device_changes_nothing(records):
    hub = Hub()
    screens, linker = device(hub, Profile.new("Ann").add_record(records[0]))
    linker.show()
    intruder = FakeNet(hub, "guest", room_for(screens.link.code), lambda: None, lambda text: None,
                       lambda: None, lambda text: None)
    intruder.start()
    before = screens.profile
    intruder.send(Transfer('{"v": 2, "nickname": "Eve", "records": "lots"}').outgoing()[0])
    hub.pump()
    assert screens.profile == before
    assert screens.link.finished and "could not be used" in screens.link.status
