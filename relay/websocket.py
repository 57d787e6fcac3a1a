"""One relay WebSocket on an HTTP connection whose request head was read already: the
`websockets` Sans-I/O protocol does the handshake and the framing, `relay_connection` moves
bytes between it and the socket and messages between it and the relay (`relay.rooms.Relay`
or `relay.shared.RedisRelay`)."""

import asyncio
import contextlib
from http import HTTPStatus

from websockets.frames import CloseCode, Frame, Opcode
from websockets.http11 import Request
from websockets.protocol import State
from websockets.server import ServerProtocol
from websockets.typing import BytesLike

from .rooms import Relay

RELAY_PATH = "/relay"
PING_EVERY = 25.0            # seconds of silence before the relay pings a client
CLOSE_WAIT = 2.0             # seconds a client has to close its side after the relay closed
SLOW_CLIENT_BYTES = 1 << 20  # a client this far behind in reading is disconnected


async def relay_connection(relay: Relay, head: bytes, reader: asyncio.StreamReader,
                           writer: asyncio.StreamWriter, address: str) -> None:
    """Run one relay WebSocket on an HTTP connection whose request ``head`` was read already.

    The `websockets` Sans-I/O protocol does the handshake and the framing; this loop moves
    bytes between it and the socket, and messages between it and the `Relay`.
    """
    protocol = ServerProtocol(max_size=4 * relay.limits.max_payload)
    transport = writer.transport

    def flush() -> None:
        for data in protocol.data_to_send():
            if data:
                writer.write(data)
            elif writer.can_write_eof():
                writer.write_eof()

    def send(text: str) -> None:
        if protocol.state is not State.OPEN:
            return
        if transport.get_write_buffer_size() > SLOW_CLIENT_BYTES:
            protocol.fail(CloseCode.POLICY_VIOLATION, "slow: not reading")
        else:
            protocol.send_text(text.encode())
        flush()

    def hang_up(reason: str) -> None:
        if protocol.state is State.OPEN:
            protocol.fail(CloseCode.TRY_AGAIN_LATER, reason)
            flush()

    protocol.receive_data(head)
    events = protocol.events_received()
    request = events[0] if events and isinstance(events[0], Request) else None
    if request is None:
        response = protocol.reject(HTTPStatus.BAD_REQUEST, "Bad request\n")
    elif not relay.available:   # a shared relay whose Redis is down: the page says the relay is down
        response = protocol.reject(HTTPStatus.SERVICE_UNAVAILABLE, "The relay is down; try again later\n")
    else:
        response = protocol.accept(request)
    protocol.send_response(response)
    flush()
    relay.log(address, "relay", f'{address} "GET {RELAY_PATH}" {response.status_code} -')
    if response.status_code != 101:
        writer.close()
        return
    member = relay.connect(address, send, hang_up)
    loop = asyncio.get_running_loop()
    join_by = loop.time() + relay.limits.join_timeout
    parts: list[BytesLike] = []
    pinged = False
    try:
        while protocol.state is State.OPEN or protocol.state is State.CLOSING:
            unjoined = relay.unjoined(member)
            if unjoined and loop.time() >= join_by:
                protocol.fail(CloseCode.POLICY_VIOLATION, "join a room first")
                break
            try:
                async with asyncio.timeout(min(PING_EVERY, join_by - loop.time()) if unjoined else PING_EVERY):
                    data = await reader.read(65536)
            except TimeoutError:
                if unjoined:     # the check above closes it, or waits out the rest
                    continue
                if pinged:       # silent through a whole ping: gone
                    break
                protocol.send_ping(b"relay")
                flush()
                pinged = True
                continue
            pinged = False
            if not data:
                protocol.receive_eof()
                flush()
                break
            protocol.receive_data(data)
            for event in protocol.events_received():
                if not isinstance(event, Frame):   # the request came first, with the head
                    continue
                if event.opcode is Opcode.TEXT or (event.opcode is Opcode.CONT and parts):
                    parts.append(event.data)
                    if sum(map(len, parts)) > 4 * relay.limits.max_payload:
                        protocol.fail(CloseCode.MESSAGE_TOO_BIG, "message too big")
                        break
                    if event.fin:
                        text, parts = b"".join(parts), []
                        try:
                            await relay.handle(member, text.decode())
                        except UnicodeDecodeError:
                            protocol.fail(CloseCode.INVALID_DATA, "not UTF-8")
                        if member.closing:
                            protocol.fail(CloseCode.POLICY_VIOLATION, member.closing)
                            break
                elif event.opcode in (Opcode.BINARY, Opcode.CONT):
                    protocol.fail(CloseCode.UNSUPPORTED_DATA, "bad-frame: text messages only")
            flush()
            if protocol.close_expected():
                break
    except (ConnectionError, OSError):
        pass
    finally:
        await relay.leave(member)
        with contextlib.suppress(ConnectionError, OSError):
            flush()
            if protocol.close_expected():
                await discard_until_eof(reader)
            writer.close()
            await writer.wait_closed()


async def discard_until_eof(reader: asyncio.StreamReader) -> None:
    """After the relay closed a WebSocket, drop what the client still sends until it closes
    its side (at most CLOSE_WAIT seconds): closing a socket with unread data resets it, and
    the client would lose the close frame that says why."""
    with contextlib.suppress(TimeoutError):
        async with asyncio.timeout(CLOSE_WAIT):
            while await reader.read(65536):
                pass
