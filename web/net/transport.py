"""Browser networking for tables with friends: the relay's WebSocket and WebRTC data channels.
It moves text only: what the text means is `web.friends.protocol`'s business, and who may send
what is `web.friends.host`'s. The page's glue imports its parts from here: `HostNet`,
`GuestNet`, `CodeGuestNet`, `certificate_pin` and `trace`.

Star topology: the host keeps one RTCPeerConnection and data channel per guest (`web.net.rtc`'s
`Peer`). Signalling payloads (opaque to the relay, which `web.net.relay_socket`'s `Signal`
joins) are JSON objects with ``kind``: ``want-offer`` (a guest without a channel asks; carries
the version of the protocol the channel will speak, which its owner gives:
`web.friends.protocol.VERSION` for a table), ``host-here`` (a host that (re)joined tells
everyone, with the same version), ``offer`` / ``answer`` (complete SDP, candidates included, so
no trickle). Once a channel is open the relay is not needed: a game survives a relay restart.

Anyone with the link can join the relay room, so nothing that arrives through the relay is
trusted: a table's host uses one persistent certificate (`web.net.keystore.table_certificate`),
whose pin the invite link carries, and a guest takes only offers made with it
(`web.net.identity`); the protocol's version is checked on the channel itself. The host
(`web.net.host_net`) answers want-offers within the bounds of `web.net.offers.OfferBook`, and
keeps open channels within those of `web.net.channels.ChannelBook` (one per relay member, few
with no one seated), so neither a flood of requests nor a guest that takes every offer can
exhaust its peer connections. A guest (`web.net.guest_net`) with no direct path falls back to
the relay path (`web.net.relay_path`).

Without a relay (a plain static host), `HostNet.make_invite` and `CodeGuestNet` do the same
exchange by hand: the offer travels in the invite link and the answer comes back as a code the
host pastes (`web.net.signal_code`). Signal reports ``RELAY_DOWN`` when the relay cannot be reached.

Each step of a connection is traced (`web.net.browser.trace`) for DevTools' verbose level.
"""

from __future__ import annotations

from .browser import trace
from .guest_net import CodeGuestNet, GuestNet
from .host_net import HostNet
from .rtc import certificate_pin

__all__ = ["CodeGuestNet", "GuestNet", "HostNet", "certificate_pin", "trace"]
