"""The bot line protocol: any bot as a separate process, one JSON object per line.

    python -m game.bots.proto hard [--seed 7]

runs a built-in bot over stdin/stdout; `ExternalBot` is the other end, used by the arena to
seat any program that speaks the protocol. The full specification, with an example session,
is in docs/bot-protocol.md. In short (version 1):

1. The bot starts by writing ``{"protocol": "cribbage-bot", "version": 1, "name": ...}``.
2. The table writes ``{"type": "choose", "id": 1, "view": VIEW}``; VIEW is
   `game.codec.view_to_json` of the seat to move, its legal actions included.
3. The bot answers ``{"type": "action", "id": 1, "action": {"seat": 0, "type": "play",
   "cards": ["5H"]}}`` (`Action.to_json`), or ``{"type": "error", "id": 1, "message": ...}``
   when it cannot read the request; it then waits for the next line.
4. ``{"type": "quit"}`` or the end of input stops the bot.

>>> import io, json
>>> from game.engine import Config, new_game
>>> from game.view import view
>>> from game.codec import view_to_json
>>> request = {"type": "choose", "id": 1, "view": view_to_json(view(new_game(Config(), 1), 0))}
>>> out = io.StringIO()
>>> serve("easy", 0, io.StringIO(json.dumps(request) + "\\nnot json\\n"), out)
0
>>> [json.loads(line)["type"] for line in out.getvalue().splitlines()]
['hello', 'action', 'error']
"""

from __future__ import annotations

import argparse
import json
import shlex
import subprocess
import sys
from collections.abc import Iterable, Sequence
from typing import IO, Any

from ..actions import Action
from ..codec import view_from_json, view_to_json
from ..view import View
from . import ARENA_LEVELS, Bot, make_bot

PROTOCOL, VERSION = "cribbage-bot", 1
MAX_LINE = 1_000_000  # a view is a few kilobytes


def hello(name: str) -> dict[str, object]:
    return {"type": "hello", "protocol": PROTOCOL, "version": VERSION, "name": name}


def answer(bot: Bot, line: str) -> dict[str, object] | None:
    """The reply to one request line (None for ``quit``). Never raises: a bad request gets
    an ``error`` reply naming what is wrong."""
    request_id = None
    try:
        if len(line) > MAX_LINE:
            raise ValueError(f"a request is at most {MAX_LINE} characters")
        try:
            request = json.loads(line)
        except ValueError:
            raise ValueError("a request is one JSON object on one line") from None
        if not isinstance(request, dict):
            raise ValueError("a request is a JSON object")
        request_id = request.get("id")
        kind = request.get("type")
        if kind == "quit":
            return None
        if kind != "choose":
            raise ValueError(f"unknown request type {str(kind)[:20]!r}: expected choose or quit")
        view = view_from_json(request.get("view"))
        if not view.legal:
            raise ValueError("this view has no legal action: nothing to choose")
        action = bot.choose(view)
        return {"type": "action", "id": request_id, "action": action.to_json()}
    except ValueError as error:
        return {"type": "error", "id": request_id, "message": str(error)}
    except Exception as error:  # a bug in the bot: say so on the wire rather than die mute
        return {"type": "error", "id": request_id,
                "message": f"internal error: {type(error).__name__}: {error}"}


def serve(level: str, seed: int, stdin: Iterable[str] | None = None, stdout: IO[str] | None = None) -> int:
    """Run bot ``level`` over the protocol until ``quit`` or the end of input."""
    stdin, stdout = stdin or sys.stdin, stdout or sys.stdout
    bot = make_bot(level, seed)
    _write(stdout, hello(level))
    for line in stdin:
        if not line.strip():
            continue
        reply = answer(bot, line)
        if reply is None:
            break
        _write(stdout, reply)
    return 0


def _write(stdout: IO[str], message: dict[str, object]) -> None:
    stdout.write(json.dumps(message, separators=(",", ":")) + "\n")
    stdout.flush()


class ProtocolError(RuntimeError):
    """The other program broke the protocol: no hello, a bad answer, an illegal action."""


class ExternalBot:
    """A bot in another process, started from a command line; ``choose(view)`` like `Bot`.

    >>> bot = ExternalBot("python -m game.bots.proto easy")
    >>> from game.engine import Config, new_game
    >>> from game.view import view
    >>> v = view(new_game(Config(), 2), 1)
    >>> bot.choose(v) in v.legal
    True
    >>> bot.close()
    """

    def __init__(self, command: str) -> None:
        self.command = command
        argv = shlex.split(command)
        if argv and argv[0] in ("python", "python3"):
            argv[0] = sys.executable  # the same interpreter as the table
        self.process = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        text=True, bufsize=1)
        assert self.process.stdin is not None and self.process.stdout is not None   # both piped
        self.requests, self.replies = self.process.stdin, self.process.stdout
        self.next_id = 0
        first = self._read()
        if first.get("protocol") != PROTOCOL or first.get("version") != VERSION:
            self.close()
            raise ProtocolError(f"{command!r} does not speak {PROTOCOL} version {VERSION}: "
                                f"its first line was {json.dumps(first)[:200]}")
        self.name = str(first.get("name", command))

    def _read(self) -> dict[str, Any]:
        line = self.replies.readline()
        if not line:
            code = self.process.poll()
            raise ProtocolError(f"{self.command!r} stopped answering (exit code {code})")
        try:
            message = json.loads(line)
        except ValueError:
            raise ProtocolError(f"{self.command!r} wrote a line that is not JSON: "
                                f"{line.strip()[:200]!r}") from None
        if not isinstance(message, dict):
            raise ProtocolError(f"{self.command!r} wrote {line.strip()[:200]!r}, not an object")
        return message

    def choose(self, view: View) -> Action:
        self.next_id += 1
        request = {"type": "choose", "id": self.next_id, "view": view_to_json(view)}
        self.requests.write(json.dumps(request, separators=(",", ":")) + "\n")
        self.requests.flush()
        reply = self._read()
        if reply.get("type") == "error":
            raise ProtocolError(f"{self.command!r} refused a request: {reply.get('message')}")
        if reply.get("type") != "action" or reply.get("id") != self.next_id:
            raise ProtocolError(f"{self.command!r} answered {json.dumps(reply)[:200]} to "
                                f"request {self.next_id}")
        try:
            action = Action.from_json(reply.get("action"))
        except ValueError as error:
            raise ProtocolError(f"{self.command!r} sent an unreadable action: {error}") from None
        if action not in view.legal:
            raise ProtocolError(f"{self.command!r} chose an illegal action: {action}")
        return action

    def close(self) -> None:
        if self.process.poll() is None:
            try:
                self.requests.write(json.dumps({"type": "quit"}) + "\n")
                self.requests.flush()
            except OSError:
                pass
            try:
                self.process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        for stream in (self.requests, self.replies):
            stream.close()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Run a built-in cribbage bot over the line protocol (docs/bot-protocol.md).")
    parser.add_argument("level", choices=ARENA_LEVELS)
    parser.add_argument("--seed", type=int, default=0, help="the bot's own seed")
    args = parser.parse_args(argv)
    return serve(args.level, args.seed)


if __name__ == "__main__":
    sys.exit(main())
