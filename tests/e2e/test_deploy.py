"""The deployment of docs/deploy/, run for real (scripts/deploy_local.py): Caddy serving the
built site over TLS from its own local CA and proxying /relay to two `serve.py --relay-only
--redis` instances, Redis, and coturn sharing the relays' TURN secret, all on loopback.

Browsers (Debian's Chromium, trusting Caddy's CA through an NSS database in a HOME of their
own; no certificate error is ignored) play a bot game and a table of three whose two guests
sit on different relay instances; one instance is killed mid-game, and Redis is restarted.
Scripted peers check the site's headers against serve.py's, the TURN credentials against
coturn (over TCP and TLS), the per-address limits for clients behind Caddy, and a small load.

Marked e2e and deploy (`-m deploy`); skipped, with the reason, without caddy, redis-server,
coturn or certutil (`scripts/setup --deploy`, as root: scripts/test does it in CI).
"""

from __future__ import annotations

import asyncio
import base64
import brotli
import gzip
import hashlib
import hmac
import http.client
import json
import os
import re
import secrets
import shutil
import socket
import ssl
import struct
import subprocess
import sys
import threading
import time
from pathlib import Path, PurePosixPath

import pytest
from harness import CHROMIUM, CHROMIUM_ARGS, Network, wait_ready
from playwright.sync_api import expect
from tables import play_until
from websockets.exceptions import ConnectionClosed, InvalidStatus
from test_friends import back_at_the_table, check_scores, host_table, join, play

import serve

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))
import deploy_load  # noqa: E402
import deploy_local  # noqa: E402
from deploy_local import SITE_DOMAIN, TURN_DOMAIN  # noqa: E402

pytestmark = [pytest.mark.e2e, pytest.mark.deploy]
ARTIFACTS = ROOT / "test-artifacts" / "deploy-logs"
RESOLVER = f"--host-resolver-rules=MAP {SITE_DOMAIN} 127.0.0.1, MAP {TURN_DOMAIN} 127.0.0.1, " \
           "MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost"
REFUSED = ("WebSocket connection to",)   # Chromium's own line when a relay socket is cut
UPGRADED = '"GET /relay" 101'


@pytest.fixture(scope="module")
def deployment(site_root, tmp_path_factory):
    missing = deploy_local.missing_tools() + ["certutil"] * (shutil.which("certutil") is None)
    if missing:
        pytest.skip(f"not installed: {', '.join(missing)} (scripts/setup --deploy, as root)")
    if not (site_root / "sw.js").is_file():
        pytest.skip("docs/deploy/ serves the built site: CRIBBAGE_E2E_SITE=sources has none")
    folder = tmp_path_factory.mktemp("deploy")
    try:
        with deploy_local.deployed(site_root, folder) as found:
            yield found
    finally:
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        for log in folder.glob("*.log"):
            shutil.copy(log, ARTIFACTS / log.name)


class Background:
    """An asyncio loop in a thread, for scripted peers beside Playwright's synchronous API."""

    def __init__(self):
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()

    def run(self, coroutine, timeout: float = 120):
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(timeout)

    def close(self) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)


@pytest.fixture(scope="module")
def background():
    made = Background()
    yield made
    made.close()


# --- the site's files, as serve.py serves them ---------------------------------------------

def fetch(found: deploy_local.Deployment, path: str, accept: str | None) -> tuple[int, dict[str, str], bytes]:
    """GET ``path`` from Caddy over TLS (checked against its CA, for SITE_DOMAIN)."""
    connection = http.client.HTTPSConnection(SITE_DOMAIN, found.https_port, context=found.tls(), timeout=20)
    connection.sock = found.tls().wrap_socket(socket.create_connection(("127.0.0.1", found.https_port), 20),
                                              server_hostname=SITE_DOMAIN)
    connection.request("GET", path, headers={"Accept-Encoding": accept} if accept else {})
    response = connection.getresponse()
    body = response.read()
    connection.close()
    return response.status, {name.lower(): value for name, value in response.getheaders()}, body


def decoded(body: bytes, coding: str | None) -> bytes:
    return {"br": brotli.decompress, "gzip": gzip.decompress}.get(coding or "", bytes)(body)


def test_caddy_serves_the_built_site_as_serve_py_does(deployment, site_root):
    """Every file of dist/, asked for with brotli, gzip or neither: serve.py's type, caching and
    precompressed copy; what the service worker needs (sw.js revalidated, the hashed chunks
    immutable, the manifest's type)."""
    problems = []
    files = [path for path in site_root.rglob("*") if path.is_file() and path.suffix not in (".br", ".gz")]
    for path in files:
        rel = PurePosixPath(path.relative_to(site_root).as_posix())
        siblings = any(path.with_name(path.name + suffix).is_file() for _, suffix in serve.ENCODINGS)
        for accept in ("gzip, deflate, br", "gzip", None):   # (zstd, which Caddy also makes: no decoder here)
            want = serve.respond(site_root, "GET", f"/{rel}", {"accept-encoding": accept} if accept else {})
            if want.file:
                want.file.close()
            status, got, body = fetch(deployment, f"/{rel}", accept)
            said = f"/{rel} (Accept-Encoding: {accept})"
            if status != 200:
                problems.append(f"{said}: {status}")
                continue
            for name in ("Content-Type", "Cache-Control", "X-Content-Type-Options"):
                wanted = want.headers.get(name, "nosniff" if name == "X-Content-Type-Options" else None)
                if got.get(name.lower()) != wanted:
                    problems.append(f"{said}: {name} {got.get(name.lower())!r}, serve.py {wanted!r}")
            coding = got.get("content-encoding")
            if siblings and coding != want.headers.get("Content-Encoding"):   # else Caddy may gzip it itself
                problems.append(f"{said}: Content-Encoding {coding!r}, serve.py {want.headers.get('Content-Encoding')!r}")
            if siblings and "Accept-Encoding" not in got.get("vary", ""):
                problems.append(f"{said}: no Vary: Accept-Encoding")
            if decoded(body, coding) != path.read_bytes():
                problems.append(f"{said}: the body is not the file")
    assert len(files) > 15 and not problems, "\n".join(problems)
    assert fetch(deployment, "/sw.js", None)[1]["cache-control"] == "no-cache"


def test_every_server_listens_on_loopback_only(deployment):
    """Caddy (TCP, and UDP for HTTP/3), the relays, Redis and coturn: 127.0.0.1, nothing else."""
    if shutil.which("ss") is None:
        pytest.skip("ss (iproute2) is not installed")
    pids = {child.pid for child in deployment.processes()}
    assert len(pids) == 5
    listening = []
    for line in subprocess.run(["ss", "-H", "-l", "-n", "-t", "-u", "-p"], capture_output=True, text=True,
                               check=True).stdout.splitlines():
        owners = {int(pid) for pid in re.findall(r"pid=(\d+),", line)}
        if owners & pids:
            listening.append((owners & pids, line.split()[4]))
    assert {pid for owners, _ in listening for pid in owners} == pids, listening
    assert all(address.startswith("127.0.0.1:") for _, address in listening), listening


# --- TURN: the relays' credentials open coturn -----------------------------------------------

STUN_MAGIC = 0x2112A442
ALLOCATE, ALLOCATE_OK, ALLOCATE_ERROR = 0x0003, 0x0103, 0x0113
USERNAME, INTEGRITY, ERROR_CODE, REALM, NONCE, TRANSPORT = 0x0006, 0x0008, 0x0009, 0x0014, 0x0015, 0x0019


def attribute(kind: int, value: bytes) -> bytes:
    return struct.pack("!HH", kind, len(value)) + value + b"\0" * (-len(value) % 4)


def stun(kind: int, attributes: bytes, key: bytes | None = None) -> bytes:
    """A STUN message; with ``key``, ended by its MESSAGE-INTEGRITY (RFC 5389, 15.4)."""
    transaction = secrets.token_bytes(12)
    if key is None:
        return struct.pack("!HHI", kind, len(attributes), STUN_MAGIC) + transaction + attributes
    head = struct.pack("!HHI", kind, len(attributes) + 24, STUN_MAGIC) + transaction
    return head + attributes + attribute(INTEGRITY, hmac.new(key, head + attributes, hashlib.sha1).digest())


def read_stun(stream: socket.socket) -> tuple[int, dict[int, bytes]]:
    """One STUN message from a stream (TCP or TLS): (type, attributes by type)."""
    def exactly(size: int) -> bytes:
        data = b""
        while len(data) < size:
            chunk = stream.recv(size - len(data))
            if not chunk:
                raise ConnectionError("coturn closed the connection")
            data += chunk
        return data
    kind, length, _ = struct.unpack("!HHI", exactly(8))
    exactly(12)
    body, found, at = exactly(length), {}, 0
    while at < length:
        name, size = struct.unpack("!HH", body[at:at + 4])
        found[name] = body[at + 4:at + 4 + size]
        at += 4 + size + (-size % 4)
    return kind, found


def allocate(stream: socket.socket, username: str, password: str) -> int:
    """Ask coturn for a relayed UDP address with TURN REST credentials: the error code it
    answers (0 when it allocated one)."""
    transport = attribute(TRANSPORT, bytes([17, 0, 0, 0]))
    stream.sendall(stun(ALLOCATE, transport))
    kind, said = read_stun(stream)   # 401, with the realm and a nonce
    assert kind == ALLOCATE_ERROR and said[ERROR_CODE][2:4] == bytes([4, 1]), (kind, said)
    key = hashlib.md5(f"{username}:{said[REALM].decode()}:{password}".encode()).digest()
    signed = transport + attribute(USERNAME, username.encode()) + attribute(REALM, said[REALM]) \
        + attribute(NONCE, said[NONCE])
    stream.sendall(stun(ALLOCATE, signed, key))
    kind, said = read_stun(stream)
    return 0 if kind == ALLOCATE_OK else said[ERROR_CODE][2] * 100 + said[ERROR_CODE][3]


def test_the_relays_turn_credentials_open_coturn_over_tcp_and_tls(deployment, background):
    way = deploy_load.through_caddy(deployment)

    async def credentials():
        member, joined = await way.member("turn-check-room-0001", "127.0.0.40")
        assert joined["type"] == "joined" and joined.get("ice") is True, joined
        await member.send(json.dumps({"type": "ice"}))
        said = json.loads(await asyncio.wait_for(member.recv(), 10))
        await member.close()
        return said

    said = background.run(credentials())
    (server,) = said["iceServers"]
    assert server["urls"] == [f"turn:{TURN_DOMAIN}:{deployment.turn_port}?transport=udp",
                              f"turn:{TURN_DOMAIN}:{deployment.turn_port}?transport=tcp",
                              f"turns:{TURN_DOMAIN}:{deployment.turns_port}?transport=tcp"], server
    tls = ssl.create_default_context(cafile=str(deployment.ca))   # Caddy's certificate for TURN_DOMAIN
    for port, wrap in ((deployment.turn_port, None), (deployment.turns_port, tls)):
        for password, outcome in ((server["credential"], 0), (base64.b64encode(b"x" * 20).decode(), 401)):
            with socket.create_connection(("127.0.0.1", port), 10) as raw:
                stream = wrap.wrap_socket(raw, server_hostname=TURN_DOMAIN) if wrap else raw
                stream.settimeout(10)
                assert allocate(stream, server["username"], password) == outcome, (port, password)


# --- limits per client behind Caddy, and a small load ---------------------------------------

def test_each_client_behind_caddy_has_its_own_limits(deployment, background):
    """Behind Caddy the relays count each client's own address (X-Forwarded-For, from Caddy
    alone): one over `--max-rooms-per-address` (20 by default) is refused, another client
    behind the same proxy is not, and a client naming another address itself gains nothing."""
    way = deploy_load.through_caddy(deployment)
    before = [len(deployment.relay_log(index)) for index in (0, 1)]

    async def main():
        held = []
        for n in range(20):
            socket_, said = await way.member(f"limits-greedy-room-{n:03d}", "127.0.0.50")
            assert said["type"] == "joined", said
            held.append(socket_)
        for headers in (None, {"X-Forwarded-For": "127.0.0.51"}):   # the header a client sends is replaced
            refused, said = await way.member("limits-greedy-room-999", "127.0.0.50", headers)
            assert said["type"] == "error" and said["code"] == "too-many-rooms", said
            held.append(refused)
        other, said = await way.member("limits-modest-room-000", "127.0.0.51")
        assert said["type"] == "joined", said
        held.append(other)
        await asyncio.gather(*(socket_.close() for socket_ in held))

    background.run(main())
    logs = "".join(deployment.relay_log(index)[before[index]:] for index in (0, 1))   # this test's lines
    assert f'127.0.0.50 {UPGRADED}' in logs and f'127.0.0.51 {UPGRADED}' in logs
    assert "127.0.0.1 \"GET /relay\"" not in logs, "a relay counted Caddy's address, not the client's"


def test_a_small_load_through_caddy_and_straight(deployment, background, capsys):
    """deploy_load's run, small: every room joins and every round trip comes back, through
    Caddy and straight to one relay (scripts/deploy_load.py measures 1,000 and 5,000 rooms)."""
    rows = []
    for way in (deploy_load.through_caddy(deployment), deploy_load.straight(deployment)):
        figures = background.run(deploy_load.measure(way, 100, in_flight=16, tag=f"ci-{way.name.split()[0]}"))
        assert figures.rooms == 100 and figures.joins_per_second > 0 and figures.p95_ms >= figures.p50_ms > 0
        rows.append(figures.row())
    with capsys.disabled():
        print("\n" + "\n".join(rows))


# --- browsers ---------------------------------------------------------------------------------

class Secure(Network):
    """`Network` for a site on https: its requests and WebSockets (wss:) must stay on its origin."""

    def same_origin(self, url: str) -> bool:
        scheme, _, rest = url.partition("://")
        return scheme in ("data", "blob") or (scheme in ("https", "wss") and rest.split("/")[0] == self.origin)


@pytest.fixture(scope="module")
def trusting_browser(browser, deployment, tmp_path_factory):
    """Chromium whose HOME's NSS database trusts Caddy's local CA (and whose resolver maps the
    site's names to 127.0.0.1): it checks every certificate, as a visitor's would."""
    home = deploy_local.trusting_home(deployment.ca, tmp_path_factory.mktemp("home"))
    args = [arg for arg in CHROMIUM_ARGS if not arg.startswith("--host-resolver-rules=")] + [RESOLVER]
    chromium = browser.browser_type.launch(executable_path=CHROMIUM, args=args, headless=True,
                                           env={**os.environ, "HOME": str(home)})
    yield chromium
    chromium.close()


@pytest.fixture
def visitors(trusting_browser, deployment):
    """Watched pages of the site through Caddy, one fresh context each (certificate errors are
    not ignored); checked at teardown like tests/e2e/conftest.py's `people`."""
    made = []

    def make(allow=()):
        context = trusting_browser.new_context(viewport={"width": 1280, "height": 800})
        watched = Secure(context, deployment.url)
        made.append((context, watched, allow))
        return watched.page

    yield make
    problems = []
    for context, watched, allow in made:
        problems += [f"left the origin: {url}" for url in watched.outside()]
        problems += [error for error in watched.errors if not any(text in error for text in allow)]
        context.close()
    assert not problems, "\n".join(problems)


SERVICE_WORKER = """() => Promise.race([
  navigator.serviceWorker.ready.then((registration) => registration.active.scriptURL),
  new Promise((resolve) => setTimeout(() => resolve(null), 30000)),
])"""


def test_a_bot_game_over_https(visitors, deployment):
    page = visitors()
    page.goto(deployment.url + "?speed=instant")
    wait_ready(page)
    assert page.evaluate("isSecureContext && location.protocol") == "https:"
    page.get_by_test_id("start-game").click()
    play_until(page, "show")
    # sw.js installed (it precached every file of the build through Caddy) and is active.
    assert page.evaluate(SERVICE_WORKER) == deployment.url + "sw.js"


def upgrades(found: deploy_local.Deployment) -> list[int]:
    """Relay WebSockets each instance has accepted (its log's 101 lines)."""
    return [found.relay_log(index).count(UPGRADED) for index in (0, 1)]


def landed(found: deploy_local.Deployment, before: list[int], timeout: float = 20) -> int:
    """The instance whose count of accepted relay sockets grew since ``before``."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        now = upgrades(found)
        grown = [index for index in (0, 1) if now[index] > before[index]]
        if grown:
            return grown[0]
        time.sleep(0.1)
    raise AssertionError(f"no relay socket arrived at either instance ({before})")


def wait_for_log(found: deploy_local.Deployment, index: int, text: str, count: int = 1, timeout: float = 20):
    deadline = time.monotonic() + timeout
    while found.relay_log(index).count(text) < count:
        assert time.monotonic() < deadline, f"relay-{index + 1} never logged {text!r} {count} times"
        time.sleep(0.1)


async def closed(members) -> None:
    await asyncio.gather(*(member.close() for member in members))


async def relay_down_said(member, way: deploy_load.Way) -> None:
    """While Redis is away: a member through Caddy is told `relay-down` and closed (1013); a
    newcomer gets the relay's 503 through Caddy (the page says the relay cannot be reached)."""
    said = json.loads(await asyncio.wait_for(member.recv(), 10))
    assert said["type"] == "error" and said["code"] == "relay-down", said
    with pytest.raises(ConnectionClosed) as closed:
        await asyncio.wait_for(member.recv(), 10)
    assert closed.value.rcvd.code == 1013
    with pytest.raises(InvalidStatus) as refused:
        await way.member("deploy-watcher-room-0002", "127.0.0.62")
    assert refused.value.response.status_code == 503


def test_friends_across_two_relays_survive_a_killed_relay_and_a_redis_restart(visitors, deployment, background):
    found, way = deployment, deploy_load.through_caddy(deployment)
    host, first, second = visitors(REFUSED), visitors(REFUSED), visitors(REFUSED)
    before = upgrades(found)
    link = host_table(host, found.url, 3)
    home = landed(found, before)                      # the host's relay socket
    before = upgrades(found)
    join(first, link, "Gus")
    other = landed(found, before)
    assert other != home, "Caddy (least_conn) sent the second socket to the instance that has the first"
    # Caddy now holds one socket on each instance, and the next goes to either (least_conn
    # counts the connections open now). A scripted member (another client's address) that
    # lands beside the first guest is kept, one that lands beside the host is closed again,
    # until one is kept: then the second guest's socket goes to the host's instance.
    ballast = []
    for n in range(10):
        counts = upgrades(found)
        member = background.run(way.member(f"deploy-ballast-room-{n:03d}", "127.0.0.60"))[0]
        if landed(found, counts) == other:
            ballast.append(member)
            break
        background.run(closed([member]))
        time.sleep(0.3)          # Caddy's count drops once the proxied socket has closed
    assert ballast, "ten scripted members in a row went to the host's instance"
    before = upgrades(found)
    join(second, link, "Ida")
    assert landed(found, before) == home, "the two guests' sockets are on one instance"
    background.run(closed(ballast))
    host.get_by_test_id("start-table").click()
    for guest in (first, second):
        expect(guest.get_by_test_id("hand")).to_be_visible(timeout=15_000)
    play([host, first, second], moves=4)

    found.kill_relay(home)                            # the host's and the second guest's instance
    play([host, first, second], moves=4)              # the data channels carry the game meanwhile
    before = upgrades(found)
    second.reload()                                   # the next join: through the other instance
    back_at_the_table(host, second, 2)
    assert landed(found, before) == other
    play([host, first, second], moves=4)

    watcher = background.run(way.member("deploy-watcher-room-0001", "127.0.0.61"))[0]
    found.stop_redis()
    wait_for_log(found, other, "unreachable")         # said once in the log, and to the members:
    background.run(relay_down_said(watcher, way))
    play([host, first, second], moves=3)
    found.start_redis()
    wait_for_log(found, other, "connected as instance", count=2)
    before = upgrades(found)
    first.reload()                                    # a join after Redis came back
    back_at_the_table(host, first, 1)
    assert landed(found, before) == other
    play([host, first, second], moves=4)
    check_scores(host, [first, second])
    log = found.relay_log(other)
    assert log.count("unreachable") == 1 and "Traceback" not in log, log[-3000:]
    found.start_relay(home)                           # as it was, for any test after this one
