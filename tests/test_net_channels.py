"""The host's open channels under a hoarder (issue 35, finding 12), under CPython
(`web.net.channels`): one guest answered every offer and asked again, and held 130 channels
after a minute; two such guests reached Chromium's 500 peer connections and a friend could no
longer sit down. The browser test is tests/e2e/test_hostile_net.py."""

from web.net.channels import MAX_UNSEATED, UNSEATED_FOR, ChannelBook


class Host:
    """The book and the channels it leaves open, as `web.net.transport.HostNet` uses it."""

    def __init__(self):
        self.book, self.live, self.count = ChannelBook(), set(), 0

    def channel(self, member: str, now: float) -> str:
        self.count += 1
        conn = f"c{self.count}"
        self.live -= set(self.book.opened(conn, member, now))
        self.live.add(conn)
        return conn


def test_a_member_that_asks_again_keeps_one_channel():
    host = Host()
    for tick in range(130):                       # a channel every half second for a minute
        host.channel("hoarder", now=tick / 2)
    assert len(host.live) == 1


def test_a_hoarder_coming_back_as_new_members_never_closes_a_friends_channel():
    """Four lanes of a hoarder, each coming back as a new member every 4 s, a channel each
    every 0.25 s; a friend on the name form meanwhile, then seated. The unseated channels
    never pass the cap, and the friend's is never the one closed."""
    host = Host()
    friend = host.channel("friend", now=0.0)
    for tick in range(1, 400):
        now = tick / 4
        for lane in range(4):
            member = f"lane{lane}-{int(now // 4)}"
            if tick % 16 == 0:
                host.book.left(f"lane{lane}-{int(now // 4) - 1}")
            host.channel(member, now)
        assert friend in host.live
        assert len(host.live) <= MAX_UNSEATED + (now > 30)
        if now == 30:                             # the friend sits down at last
            host.book.seated({friend})


def test_seated_channels_are_never_closed_by_the_cap_or_the_clock():
    host = Host()
    seated = [host.channel(f"guest{n}", now=0.0) for n in range(3)]
    host.book.seated(set(seated))
    for n in range(50):
        host.channel(f"stranger{n}", now=1.0 + n)
    assert set(seated) <= host.live
    assert host.book.expire(now=10 * UNSEATED_FOR) == sorted(host.live - set(seated), key=lambda c: int(c[1:]))


def test_an_unseated_channel_is_given_up_after_a_while_and_a_seat_lost_counts_again():
    book = ChannelBook()
    book.opened("c1", "m1", now=0.0)
    book.opened("c2", "m2", now=0.0)
    book.seated({"c1", "c2"})
    assert book.expire(now=UNSEATED_FOR) == []
    book.seated({"c2"})                            # c1's seat went to the same player's new tab
    assert book.expire(now=UNSEATED_FOR) == ["c1"]


def test_after_the_relay_restarts_old_channels_go_first():
    book = ChannelBook(max_unseated=2)
    book.opened("c1", "old", now=0.0)
    book.relay_lost()                              # members come back under new ids
    book.opened("c2", "new1", now=1.0)
    assert book.opened("c3", "new2", now=2.0) == ["c1"]
    book.closed("c2")
    assert book.opened("c4", "new3", now=3.0) == []
