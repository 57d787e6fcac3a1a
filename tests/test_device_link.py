"""Linking a device (web.profile.device_link): codes, the handshake that proves the code, the
transfer in parts, and Linkers swapping profiles over fake connections that behave like
web.net.transport's (host: conn ids, many channels; guest: one channel, no id). Then the
attacker's side: someone who knows the room (what the relay sees) but not the code's secret
half, joining first, posing as either device, replaying, or sitting in the middle."""

import json
import secrets

import pytest

from game.errors import ParseError
from web.profile.device_link import (ALPHABET, DESCRIBED_WAIT, NO_RELAY, PART_CHARS, PROOF_SECONDS, REFUSED_SHOWN,
                                     REFUSED_TYPED, VERSION, Linker, Transfer, ack, new_code, read_code, room_for,
                                     secret_of)
from web.profile.pake import P, Handshake
from web.profile.model import Profile
from web.profile.screens import ProfileScreens
from web.profile.records import record_game
from web.session import Session
from web.net.signal_code import REFUSED, RELAY_DOWN


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
    for bad in ("", "ABC", "K7MQ-2XRT-9", "K7MQ-2XR0", "K7MQ-2XRI"):
        with pytest.raises(ParseError):
            read_code(bad)


def test_the_room_names_only_the_first_half_of_the_code():
    """The relay, and anyone in the room, learn the first half; every second half stays as likely."""
    for code in {new_code() for _ in range(200)}:
        room = room_for(code)
        assert room == "link-" + code[:4] and len(secret_of(code)) == 4
        others = {code[:5] + "".join(secrets.choice(ALPHABET) for _ in range(4)) for _ in range(20)}
        assert {room_for(other) for other in others} == {room}      # the room says nothing of the rest
        assert len({secret_of(other) for other in others}) == len(others)


# ---- the handshake on its own ----

def honest_pair(secret="2XRT", channel=("AA:01", "BB:02")):
    return Handshake(secret, True, channel), Handshake(secret, False, channel)


def run_handshake(shown, typed):
    """The honest order of messages; what each side sent, in order."""
    sent = {"shown": [shown.opening()], "typed": [typed.opening()]}
    assert shown.receive(sent["typed"][0]) == []              # the showing side never proves first
    sent["typed"] += typed.receive(sent["shown"][0])          # the typing side proves...
    sent["shown"] += shown.receive(sent["typed"][-1])         # ...the showing side checks, then proves
    assert typed.receive(sent["shown"][-1]) == []
    return sent


def test_two_honest_sides_agree():
    shown, typed = honest_pair()
    sent = run_handshake(shown, typed)
    assert shown.ok and typed.ok and shown.key == typed.key
    assert [json.loads(text)["type"] for text in sent["shown"]] == ["share", "proof"]
    again_shown, again_typed = honest_pair()
    run_handshake(again_shown, again_typed)
    assert again_shown.key != shown.key            # fresh every time


def test_a_wrong_secret_fails_and_the_showing_side_never_proves():
    shown, _ = honest_pair("2XRT")
    guess = Handshake("2XRX", False, ("AA:01", "BB:02"))
    assert shown.receive(guess.opening()) == []    # all the showing side ever sends it: its share
    [proof] = guess.receive(shown.opening())
    with pytest.raises(ParseError, match="does not know this code"):
        shown.receive(proof)
    assert not shown.ok and not shown.committed


def test_a_typing_side_refuses_a_wrong_proof_after_spending_its_own():
    impostor = Handshake("2XRX", True, ("AA:01", "BB:02"))
    _, typed = honest_pair("2XRT")
    impostor.receive(typed.opening())
    typed.receive(impostor.opening())
    assert typed.committed and not typed.ok
    forged = json.dumps({"v": 2, "type": "proof", "proof": impostor._mac("shown")})
    with pytest.raises(ParseError, match="does not know this code"):
        typed.receive(forged)


def test_replayed_messages_fail():
    """Everything an honest typing device sent, played again to a new handshake (same code,
    even the same channel): the showing side's fresh power makes another key."""
    shown, typed = honest_pair()
    sent = run_handshake(shown, typed)
    fresh, _ = honest_pair()
    assert fresh.receive(sent["typed"][0]) == []
    with pytest.raises(ParseError, match="does not know this code"):
        fresh.receive(sent["typed"][1])
    late = Handshake("2XRT", False, ("AA:01", "BB:02"))     # and the showing side's, to a typing one
    [_proof] = late.receive(sent["shown"][0])
    with pytest.raises(ParseError, match="does not know this code"):
        late.receive(sent["shown"][1])
    with pytest.raises(ParseError):                    # the same message twice
        shown.receive(sent["typed"][1])


def test_a_man_in_the_middle_with_other_fingerprints_fails():
    """A relay connects each device to itself (its own certificates) and passes the handshake
    along unchanged: both devices know the code, yet the proofs cover different channels."""
    shown = Handshake("2XRT", True, ("AA:01", "EE:01"))     # the showing device, talking to E
    typed = Handshake("2XRT", False, ("EE:02", "BB:02"))    # the typing device, talking to E
    assert shown.receive(typed.opening()) == []
    [proof] = typed.receive(shown.opening())
    with pytest.raises(ParseError, match="does not know this code"):
        shown.receive(proof)


def test_a_proof_before_the_share_and_other_messages_out_of_turn_fail():
    shown, typed = honest_pair()
    early = json.dumps({"v": 2, "type": "proof", "proof": "0" * 64})
    for text in (early, json.dumps({"v": 2, "type": "part", "index": 0, "count": 1, "data": "{}"}), ack()):
        with pytest.raises(ParseError, match="did not follow"):
            Handshake("2XRT", True, ("AA", "BB")).receive(text)
    shown.receive(typed.opening())
    with pytest.raises(ParseError, match="did not follow"):
        shown.receive(typed.opening())                 # a second share
    old = json.dumps({"v": 1, "type": "part", "index": 0, "count": 1, "data": "{}"})
    with pytest.raises(ParseError, match="another version"):
        shown.receive(old)


@pytest.mark.parametrize("share", ["0" * 512, f"{1:0512x}", f"{P - 1:0512x}", f"{P:0512x}", "f" * 512,
                                   "0" * 511, "G" * 512, "AB" * 256, 12, None])
def test_a_damaged_share_is_refused(share):
    with pytest.raises(ParseError, match="share is damaged"):
        Handshake("2XRT", True, ("AA", "BB")).receive(json.dumps({"v": 2, "type": "share", "share": share}))


# ---- two Linkers over fake connections ----

class Hub:
    """Rooms of fake connections. A guest that starts is joined to the first host in its room
    (and a host that starts, to the guests waiting there); `connect` joins any two."""

    def __init__(self, relay=True, refusal=""):
        self.relay, self.rooms, self.timers, self.queue = relay, {}, [], []
        self.refusal = refusal      # the relay's reason for refusing every join ("": none)

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
            self.pump()

    def connect(self, host, guest):
        host.count += 1
        conn = f"c{host.count}"
        host.links[conn], guest.link = guest, (host, conn)
        host.on_open(conn)
        guest.on_open()
        self.pump()
        return conn


class FakeNet:
    """web.net.transport's HostNet (``role`` "host") or GuestNet ("guest"), each end with a
    certificate of its own; ``sent`` keeps every text it sent."""

    def __init__(self, hub, role, room, on_open, on_message, on_close, on_status, *, version):
        assert version == VERSION, "the link's nets speak the link's protocol"
        self.hub, self.role, self.room = hub, role, room
        self.on_open, self.on_message, self.on_close, self.on_status = on_open, on_message, on_close, on_status
        self.certificate = ":".join(secrets.token_hex(1).upper() for _ in range(32))
        self.links, self.link, self.count = {}, None, 0     # host: conn -> guest; guest: (host, conn)
        self.closed, self.sent = False, []
        self.undescribed = 0        # this many looks at a channel's SDPs find the remote one missing

    def start(self):
        if not self.hub.relay:
            return self.on_status(RELAY_DOWN)
        if self.hub.refusal:
            return self.on_status(REFUSED + self.hub.refusal)
        members = self.hub.rooms.setdefault(self.room, [])
        members.append(self)
        hosts = [m for m in members if m.role == "host" and not m.closed]
        waiting = [m for m in members if m.role == "guest" and not m.closed and m.link is None]
        if self.role == "guest" and hosts:
            self.hub.connect(hosts[0], self)
        elif self.role == "host":
            for guest in waiting:
                self.hub.connect(self, guest)
        else:
            self.on_status("Connecting to the table…")

    def other(self, conn=None):
        return self.links.get(conn) if self.role == "host" else (self.link or (None,))[0]

    def fingerprints(self, *conn):
        other = self.other(*conn)
        if self.undescribed:
            self.undescribed -= 1
            other = None
        return [("sha-256", self.certificate)], [("sha-256", other.certificate)] if other else []

    def send(self, *args):
        *conn, text = args
        other = self.other(*conn)
        if other is None or self.closed:
            return
        self.sent.append(text)
        if self.role == "host":
            self.hub.queue.append(lambda: other.closed or other.on_message(text))
        else:
            self.hub.queue.append(lambda: other.closed or other.on_message(self.link[1], text))

    def drop(self, conn=None):
        """One channel closes (both ends hear it)."""
        if self.role == "guest":
            host, conn = self.link
            self.link = None
            host.links.pop(conn, None)
            host.closed or host.on_close(conn)
            self.closed or self.on_close()
        else:
            guest = self.links.pop(conn)
            guest.link = None
            guest.closed or guest.on_close()
            self.closed or self.on_close(conn)

    def close(self):
        if not self.closed:
            self.closed = True
            if self.role == "guest" and self.link is not None:
                self.drop()
            for conn in list(self.links):
                self.drop(conn)


def device(hub, profile):
    """A device's screens and Linker; ``nets`` keeps the connections it made."""
    screens = ProfileScreens(profile, clock=lambda: "2026-11-30T12:00:00Z")
    nets = []

    def make(role):
        def made(*args, **kwargs):
            nets.append(FakeNet(hub, role, *args, **kwargs))
            return nets[-1]
        return made
    linker = Linker(screens, make("host"), make("guest"), repaint=lambda: None, later=hub.later)
    linker.nets = nets
    return screens, linker


def kinds(texts):
    return [json.loads(text)["type"] for text in texts]


class Intruder:
    """A scripted relay member who knows the room (what the relay sees), not the secret:
    a raw connection that records what it hears and says what the test tells it to."""

    def __init__(self, hub, role, room):
        self.heard = []
        self.net = FakeNet(hub, role, room, lambda *conn: None, lambda *args: self.heard.append(args[-1]),
                           lambda *conn: None, lambda text: None, version=VERSION)


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
    # The relay was given the room, nothing more; the channel carried the handshake first.
    assert [net.room for net in phone_link.nets + laptop_link.nets] == [room_for(code)] * 2
    assert kinds(phone_link.nets[0].sent)[:2] == ["share", "proof"]
    assert kinds(laptop_link.nets[0].sent)[:2] == ["share", "proof"]
    hub.run_timers(1.0)                      # the goodbye closes both ends
    phone_link.show()
    laptop_link.enter(phone_screens.link.code)
    assert laptop_screens.link.status.startswith("Linked: 0 new games here")
    assert len(laptop_screens.profile.records) == 3
    hub.run_timers(PROOF_SECONDS)            # a proof that came in time is not late
    assert laptop_screens.link.status.startswith("Linked: 0 new games here")


def test_a_channel_that_opens_before_its_answer_is_set_waits_for_it(records):
    """Chromium may open the showing device's channel before setRemoteDescription resolves:
    the handshake waits for the SDP, and the other device's share, come meanwhile, is kept."""
    hub = Hub()
    screens, linker = device(hub, Profile.new("Ann").add_record(records[0]))
    linker.show()
    linker.nets[0].undescribed = 3
    other_screens, other = device(hub, Profile.new("Ann"))
    other.enter(screens.link.code)
    assert kinds(other.nets[0].sent) == ["share"] and linker.nets[0].sent == []
    for _ in range(3):
        hub.run_timers(DESCRIBED_WAIT)
    assert other_screens.link.status.startswith("Linked: 1 new game here")
    assert screens.link.status.startswith("Linked: 0 new games here")


def test_the_last_links_connection_closing_late_does_not_touch_the_next(records):
    """A finished link's connection closes a second later (its goodbye); by then the next link
    may be under way, on a channel with the same id: its handshake must go on."""
    hub = Hub()
    screens, linker = device(hub, Profile.new("Ann").add_record(records[0]))
    other_screens, other = device(hub, Profile.new("Ann"))
    linker.show()
    other.enter(screens.link.code)
    assert other_screens.link.status.startswith("Linked: 1 new game here")
    linker.show()
    linker.nets[-1].undescribed = 1          # the next handshake waits a moment...
    other.enter(screens.link.code)
    hub.run_timers(1.0)                      # ...while the last link's connections close
    hub.run_timers(DESCRIBED_WAIT)
    assert other_screens.link.status.startswith("Linked: 0 new games here"), other_screens.link


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


def test_a_relay_that_refuses_the_join_says_why_and_the_link_waits():
    """Someone who mistyped many codes in a minute (the relay counts joins per address):
    the device says what the relay said, not "looking for the device", and the link stays on."""
    why = "one address may join at most 60 rooms a minute: try again in a minute"
    for start in (lambda linker: linker.show(), lambda linker: linker.enter("K7MQ-2XRT")):
        screens, linker = device(Hub(refusal=why), Profile.new("Ann"))
        start(linker)
        assert screens.link.status.endswith(why) and not screens.link.finished, screens.link


def test_someone_who_knows_only_the_room_is_refused_and_gets_nothing(records):
    """The relay's operator joins the room and connects first, with a guess of the secret:
    the showing device says so, stops, and sent it its share only; a forged profile is never
    merged; then the real device cannot use that code, and a new code links as usual."""
    hub = Hub()
    screens, linker = device(hub, Profile.new("Ann").add_record(records[0]))
    linker.show()
    code, before = screens.link.code, screens.profile
    intruder = Intruder(hub, "guest", room_for(code))
    intruder.net.start()
    shower_certificate = intruder.net.fingerprints()[1][0][1]     # from the showing device's SDP
    guess = Handshake("ABCD" if secret_of(code) != "ABCD" else "ABCE", False,
                      (shower_certificate, intruder.net.certificate))
    intruder.net.send(guess.opening())
    hub.pump()
    [proof] = guess.receive(intruder.heard[0])
    intruder.net.send(proof)
    forged = Transfer('{"v": 2, "nickname": "Eve", "records": []}').outgoing()
    for part in forged:
        intruder.net.send(part)
    hub.pump()
    assert kinds(intruder.heard) == ["share"]
    assert screens.link.finished and screens.link.status == REFUSED_SHOWN
    assert screens.profile == before and linker.nets[0].closed
    real_screens, real = device(hub, Profile.new("Ann"))
    real.enter(code)                         # the refused code is dead
    assert not real_screens.link.finished and "Looking for the device" in real_screens.link.status
    linker.show()
    real.enter(screens.link.code)
    assert real_screens.link.status.startswith("Linked: 1 new game here")


def test_a_forged_profile_sent_without_the_handshake_changes_nothing(records):
    hub = Hub()
    screens, linker = device(hub, Profile.new("Ann").add_record(records[0]))
    linker.show()
    intruder = Intruder(hub, "guest", room_for(screens.link.code))
    intruder.net.start()
    before = screens.profile
    intruder.net.send(Transfer('{"v": 2, "nickname": "Eve", "records": "lots"}').outgoing()[0])
    hub.pump()
    assert screens.profile == before and kinds(intruder.heard) == ["share"]
    assert screens.link.finished and screens.link.status == REFUSED_SHOWN


def test_a_damaged_profile_from_a_device_that_knows_the_code_changes_nothing(records):
    hub = Hub()
    screens, linker = device(hub, Profile.new("Ann").add_record(records[0]))
    linker.show()
    code = screens.link.code
    knows = Intruder(hub, "guest", room_for(code))
    knows.net.start()
    check = Handshake(secret_of(code), False, (linker.nets[0].certificate, knows.net.certificate))
    knows.net.send(check.opening())
    hub.pump()
    knows.net.send(*check.receive(knows.heard[0]))
    hub.pump()
    check.receive(knows.heard[1])
    assert check.ok and kinds(knows.heard)[2:] == ["part"]      # proved: the profile comes
    before = screens.profile
    knows.net.send(Transfer('{"v": 2, "nickname": "Eve", "records": "lots"}').outgoing()[0])
    hub.pump()
    assert screens.profile == before
    assert screens.link.finished and "could not be used" in screens.link.status


def test_a_stalling_intruder_does_not_block_the_real_device(records):
    hub = Hub()
    screens, linker = device(hub, Profile.new("Ann").add_record(records[0]))
    linker.show()
    code = screens.link.code
    intruder = Intruder(hub, "guest", room_for(code))
    intruder.net.start()                      # connects first, sends nothing
    real_screens, real = device(hub, Profile.new("Ann"))
    real.enter(code)
    assert real_screens.link.status.startswith("Linked: 1 new game here")
    assert kinds(intruder.heard) == ["share"]


def posing_as_the_shower(hub, room):
    """An intruder in the room first, as a host: the typing device connects to it."""
    intruder = Intruder(hub, "host", room)
    intruder.net.start()
    return intruder


@pytest.mark.parametrize("then", ["closes", "stalls", "lies"])
def test_someone_posing_as_the_showing_device_gets_one_guess_and_no_profile(records, then):
    """The typing device proves first, so an impostor learns whether its one guess was right;
    whatever it does next (close, stall, a wrong proof), the typing device stops for good."""
    hub = Hub()
    code = "K7MQ-2XRT"
    intruder = posing_as_the_shower(hub, room_for(code))
    screens, linker = device(hub, Profile.new("Ann").add_record(records[0]))
    before = screens.profile
    linker.enter(code)
    net = linker.nets[0]
    guess = Handshake("ABCD", True, (intruder.net.certificate, net.certificate))
    intruder.net.send("c1", guess.opening())
    hub.pump()
    assert kinds(intruder.heard) == ["share", "proof"]        # its guess is now spent
    if then == "closes":
        intruder.net.drop("c1")
    elif then == "stalls":
        hub.run_timers(PROOF_SECONDS)
    else:
        intruder.net.send("c1", json.dumps({"v": 2, "type": "proof", "proof": "ab" * 32}))
        hub.pump()
    assert screens.link.finished and screens.link.status == REFUSED_TYPED
    assert screens.profile == before and kinds(intruder.heard) == ["share", "proof"]
    assert net.closed


def test_a_relay_in_the_middle_passing_the_handshake_along_fails_both_ends(records):
    """The relay connects each device to itself instead of to the other, and passes every
    message along: both devices know the code, yet each refuses and neither sends a profile."""
    hub = Hub()
    shower_screens, shower = device(hub, Profile.new("Ann").add_record(records[0]))
    shower.show()
    code = shower_screens.link.code
    to_shower = Intruder(hub, "guest", "relay-end-1")      # the relay's own two ends
    hub.connect(shower.nets[0], to_shower.net)
    hub.rooms[room_for(code)].remove(shower.nets[0])        # it hides the showing device...
    to_typist = Intruder(hub, "host", room_for(code))       # ...and puts its other end there
    to_typist.net.start()
    typist_screens, typist = device(hub, Profile.new("Ann").add_record(records[1]))
    typist.enter(code)
    up = down = 0
    while up < len(to_shower.heard) or down < len(to_typist.heard):    # everything passed along
        for text in to_shower.heard[up:]:
            to_typist.net.send("c1", text)
        for text in to_typist.heard[down:]:
            to_shower.net.send(text)
        up, down = len(to_shower.heard), len(to_typist.heard)
        hub.pump()
    assert kinds(to_shower.heard) == ["share"] and kinds(to_typist.heard) == ["share", "proof"]
    hub.run_timers(PROOF_SECONDS)
    assert shower_screens.link.status == REFUSED_SHOWN and typist_screens.link.status == REFUSED_TYPED
    assert "part" not in kinds(to_shower.heard + to_typist.heard)
    assert [r.id for r in shower_screens.profile.records] == [records[0].id]
    assert [r.id for r in typist_screens.profile.records] == [records[1].id]


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
    for bad in ("nope", "[]", json.dumps({"v": 9, "type": "got"}), json.dumps({"v": 2, "type": "part"}),
                json.dumps({"v": 2, "type": "part", "index": 0, "count": 0, "data": ""}), "x" * 40_000):
        with pytest.raises(ParseError):
            Transfer("").receive(bad)
