"""What a guest's page sent and got through the relay's WebSocket, and the check that all of it
is signalling or sealed ciphertext (used by tests/e2e/test_relay_path.py and the network-namespace
fallback test in tests/netns/test_fallback.py).

>>> frame = json.dumps({"kind": "signal", "data": json.dumps({"kind": "offer"})})
>>> payloads([["out", frame], ["in", json.dumps({"kind": "joined"})]])
[{'kind': 'offer'}]
"""

from __future__ import annotations

import json
import re

from game.cards import DECK

# Init script: every frame through the relay's WebSocket, as the page sent ("out") and got ("in") it.
RELAY_RECORDER = """
(() => {
  window.__relayFrames = [];
  const send = WebSocket.prototype.send;
  WebSocket.prototype.send = function (data) {
    window.__relayFrames.push(["out", String(data)]);
    return send.call(this, data);
  };
  const Socket = window.WebSocket;
  window.WebSocket = class extends Socket {
    constructor(...args) {
      super(...args);
      this.addEventListener("message", (event) => window.__relayFrames.push(["in", String(event.data)]));
    }
  };
})();
"""
SIGNALLING = {"want-offer", "host-here", "offer", "answer", "seal-hello", "seal-ready", "sealed", "seal-ping",
              "seal-pong", "seal-bye"}
BASE64 = re.compile(r"[A-Za-z0-9+/]+={0,2}")
CARD = re.compile(r"\b(" + "|".join(str(card) for card in DECK) + r")\b")


def payloads(frames):
    """The guest's signalling payloads (what members say to each other through the relay)."""
    found = []
    for _, text in frames:
        message = json.loads(text)
        data = message.get("data")
        if isinstance(data, str):
            found.append(json.loads(data))
    return found


def assert_only_signalling_and_ciphertext(frames, secrets):
    """Everything in ``frames`` is signalling or sealed ciphertext: at least a whole handshake and
    some sealed traffic, no protocol kind besides `SIGNALLING`, and none of ``secrets`` (a seat
    token, a name, a chat line) nor any card outside the ciphertext, the SDP and the public keys."""
    said = payloads(frames)
    kinds = [p.get("kind") for p in said]
    assert set(kinds) <= SIGNALLING, set(kinds) - SIGNALLING
    assert kinds.count("sealed") > 20 and "seal-hello" in kinds and "seal-ready" in kinds
    for p in said:
        if p.get("kind") == "sealed":
            assert set(p) == {"kind", "n", "more", "iv", "data"} and BASE64.fullmatch(p["data"])
        for key in ("pub", "nonce"):
            if key in p:
                assert BASE64.fullmatch(p[key]), p
    clear = json.dumps([p for p in said if p.get("kind") != "sealed"])   # all that is not ciphertext
    for secret in (*secrets, '"type"', '"hand"'):
        assert secret not in clear, secret
    assert not CARD.search(card_free_part(said))


def card_free_part(said) -> str:
    """What must show no card, as JSON: every payload but the SDP and the ciphertext, without
    the public keys and the host's nonces (random base64, in which a card's two letters turn up
    by chance about once in a thousand keys, as in ``+5H/``).

    >>> card_free_part([{"kind": "seal-hello", "pub": "BA+5H/Q="}, {"kind": "chat", "text": "5H"}])
    '[{"kind": "seal-hello"}, {"kind": "chat", "text": "5H"}]'
    >>> bool(CARD.search(card_free_part([{"kind": "seal-ready", "nonce": "B+KC/A=", "hand": "KC"}])))
    True
    """
    return json.dumps([{key: value for key, value in p.items() if key not in ("pub", "nonce")}
                       for p in said if p.get("kind") not in ("offer", "answer", "sealed")])
