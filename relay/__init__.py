"""The signalling relay: members of a room exchange opaque payloads (WebRTC offers, answers,
candidates, sealed pieces) and nothing else. `serve.py` runs it on the site's port.

- `relay.limits`: the limits (`Limits`, one command-line option each), the throttled `Log`,
  the connections open per address (`Connections`).
- `relay.addresses`: which client a connection is for (`client_address`, X-Forwarded-For from
  a ``--trusted-proxy`` only).
- `relay.rooms`: the rooms in this process's memory (`Relay`, no sockets) and TURN credentials.
- `relay.shared`: the same rooms in Redis, shared by several instances (``--redis``).
- `relay.websocket`: one relay WebSocket on an HTTP connection, framed by `websockets`.

Nothing here imports the engine (game/) or the browser layer (web/).
"""
