"""Networking in the browser: the relay's WebSocket, WebRTC peers and invites by code.

It moves text between browsers and knows nothing of cribbage: what the text means belongs
to `web.friends.protocol`, who may send what to `web.friends.host`.
"""
