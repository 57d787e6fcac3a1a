"""Tables with friends: the wire protocol, the host's table, a guest's screen, the lobby,
and the browser glue that hosts or joins a table over `web.net`.
"""
