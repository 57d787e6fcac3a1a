"""WebRTC in the browser: the ICE servers, one RTCPeerConnection with its data channel (`Peer`),
and the steps of an offer and its answer that both sides share. One of the few modules allowed
to touch the FFI; `web.net.host_net` and `web.net.guest_net` build the connections on it.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Any

import js
from pyodide.ffi import JsProxy, to_js

from . import identity
from .browser import Listeners, js_object

GATHER_TIMEOUT = 3.0       # seconds to wait for ICE candidates before sending what we have
# Well-known public STUN servers, used only once a table with friends (or a device link) opens
# a connection: they learn this browser's public address, nothing else. The page's
# <meta name="cribbage-ice-servers"> replaces them ("[]": none).
DEFAULT_ICE = [{"urls": ["stun:stun.l.google.com:19302", "stun:stun.cloudflare.com:3478"]}]
relay_turn: list[dict[str, Any]] = []   # short-lived TURN servers the relay handed out (serve.py --turn-url)


def ice_servers() -> list[object]:
    """STUN/TURN servers: the page's <meta name="cribbage-ice-servers" content='[...]'>, or
    `DEFAULT_ICE` when it is missing or says "default"; then the relay's TURN servers."""
    meta = js.document.querySelector('meta[name="cribbage-ice-servers"]')
    text = (meta.getAttribute("content") or "").strip() if meta else ""
    servers: object = DEFAULT_ICE
    if text not in ("", "default"):
        try:
            servers = json.loads(text)
        except ValueError:
            js.console.warn("cribbage-ice-servers is not JSON: using no STUN or TURN server")
            servers = []
    return (servers if isinstance(servers, list) else []) + relay_turn


def candidates(sdp: str) -> int:
    """How many ICE candidates an SDP carries (none: the peers cannot connect), for `trace`.

    >>> candidates("v=0\\r\\na=candidate:1 1 udp 2113937151 10.0.0.2 5000 typ host\\r\\n")
    1
    """
    return sdp.count("a=candidate:")


def certificate_pin(certificate: JsProxy) -> str:
    """The link-safe pin of a certificate's SHA-256 fingerprint (`web.net.identity`)."""
    for found in certificate.getFingerprints():
        if str(found.algorithm).lower() == identity.ALGORITHM:
            return identity.pin_from_hex(str(found.value))
    raise ValueError("the browser gave no SHA-256 fingerprint")


async def gathered(pc: JsProxy) -> None:
    """Wait until ICE gathering is complete (or GATHER_TIMEOUT passes)."""
    for _ in range(int(GATHER_TIMEOUT / 0.02)):
        if pc.iceGatheringState == "complete":
            return
        await asyncio.sleep(0.02)


def rtc_config(certificate: JsProxy | None = None) -> JsProxy:
    """An RTCConfiguration: the ICE servers, and the certificate to use (None: a new one)."""
    config = js_object({"iceServers": ice_servers()})
    if certificate is not None:
        config.certificates = to_js([certificate])
    return config


async def answer_offer(peer: Peer, sdp: str, on_open: Callable[[], object], on_message: Callable[[str], object],
                       on_close: Callable[[], object]) -> str:
    """Take the host's offer on ``peer`` (the data channel arrives with the connection) and
    return our answer, its candidates gathered."""
    def channel_arrived(event: JsProxy) -> None:
        peer.attach(event.channel, on_open, on_message, on_close)
    peer.listeners.on(peer.pc, "datachannel", channel_arrived)
    await peer.pc.setRemoteDescription(js_object({"type": "offer", "sdp": sdp}))
    answer = await peer.pc.createAnswer()
    await peer.pc.setLocalDescription(answer)
    await gathered(peer.pc)
    return str(peer.pc.localDescription.sdp)


class Peer:
    """One RTCPeerConnection with its data channel and the listeners we own."""

    def __init__(self, certificate: JsProxy | None = None) -> None:
        self.pc = js.RTCPeerConnection.new(rtc_config(certificate))
        self.channel: JsProxy | None = None
        self.listeners = Listeners()
        self.open = False
        self.ended = False

    def attach(self, channel: JsProxy, on_open: Callable[[], object], on_message: Callable[[str], object],
               on_close: Callable[[], object]) -> None:
        """Attach the channel's handlers now (never later: the open event would be lost)."""
        self.channel = channel

        def opened(_event: JsProxy) -> None:
            self.open = True
            on_open()

        def closed(_event: JsProxy | None) -> None:
            self.open = False
            if not self.ended:      # once, whether the channel or the connection said so first
                self.ended = True
                on_close()

        self.listeners.on(channel, "open", opened)
        self.listeners.on(channel, "message", lambda event: on_message(str(event.data)))
        self.listeners.on(channel, "close", closed)

        def state(_event: JsProxy) -> None:
            if self.pc.connectionState in ("failed", "closed") and self.channel is not None:
                closed(None)
        self.listeners.on(self.pc, "connectionstatechange", state)

    def send(self, text: str) -> None:
        if self.channel is not None and self.channel.readyState == "open":
            self.channel.send(text)

    def close(self) -> None:
        self.ended = True
        self.listeners.clear()
        if self.channel is not None:
            self.channel.close()
        self.pc.close()
        self.open = False


async def peer_path(peer: Peer) -> tuple[str, float | None]:
    """A direct connection's path from its selected ICE candidate pair: ``"TURN"`` when either
    end is a relay candidate, else ``"direct"``; and its round trip in ms."""
    try:
        stats = await peer.pc.getStats()
        reports = {report.id: report for report in stats.values()}
        for report in reports.values():
            if report.type == "transport" and getattr(report, "selectedCandidatePairId", None):
                pair = reports[report.selectedCandidatePairId]
                local = reports.get(pair.localCandidateId)
                remote = reports.get(pair.remoteCandidateId)
                relayed = "relay" in (getattr(local, "candidateType", ""), getattr(remote, "candidateType", ""))
                rtt = getattr(pair, "currentRoundTripTime", None)
                return ("TURN" if relayed else "direct", None if rtt is None else float(rtt) * 1000)
    except Exception as failed:
        js.console.warn(f"no connection stats: {failed}")
    return ("direct", None)

