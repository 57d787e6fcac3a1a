"""serve.py: the banner, MIME types, caching, precompressed files, a built dist/, and
refusing everything outside the site.

The server runs as a child process on a free port over a small site built in a temporary
directory, next to a secret file it must never hand out.
"""

import gzip
import http.client
import os
import re
import signal
import socket
import subprocess
import sys
from urllib.parse import urlsplit

import pytest

import serve
from relay.addresses import client_address, network

SECRET = b"the host's secret"
BIG_JS = b"export const x = 1;\n" * 200
BIG_CSS = b"body { color: red; }\n" * 100
CHUNK = "web/vendor/pyscript/core-C9KDLldu.js"


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """(host, port) of a server over a temporary site with traps around it."""
    base = tmp_path_factory.mktemp("serve")
    root = base / "site"
    files = {
        "index.html": b"<!doctype html><title>Cribbage</title>",
        "pyscript.toml": b'interpreter = "./web/vendor/pyodide/pyodide.mjs"\n',
        "game/__init__.py": b'"""engine"""\n',
        "game/notes.txt": SECRET,
        "web/main.py": b"print('hi')\n",
        "web/style.css": b"body {}\n",
        "web/app.js": b"export {};\n",
        "web/icon.svg": b"<svg/>",
        "web/icon.png": b"\x89PNG",
        "web/vendor/pyodide/pyodide.mjs": b"export {};\n",
        "web/vendor/pyodide/pyodide.asm.wasm": b"\0asm\1\0\0\0",
        "web/vendor/pyodide/python_stdlib.zip": b"PK\5\6" + bytes(18),
        "web/vendor/pyodide/pyodide-lock.json": b"{}",
        "bench/empty.html": b"<!doctype html>",
        "secret.txt": SECRET,
        ".git/config": SECRET,
        # Precompressed siblings (stand-ins: the server only picks files, it never decodes).
        "web/vendor/pyodide/pyodide.asm.mjs": BIG_JS,
        "web/vendor/pyodide/pyodide.asm.mjs.br": b"brotli bytes",
        "web/vendor/pyodide/pyodide.asm.mjs.gz": gzip.compress(BIG_JS),
        "web/big.css": BIG_CSS,
        "web/big.css.gz": gzip.compress(BIG_CSS),
        "web/stale.js": BIG_JS,
        "web/stale.js.gz": b"an older version",
        "web/vendor/pyscript/core.js": b'import "./core-C9KDLldu.js";\n',
        CHUNK: b"export {};\n",
    }
    (base / "outside.py").write_bytes(SECRET)
    for name, data in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_bytes(data)
    stale = (root / "web" / "stale.js").stat().st_mtime_ns
    os.utime(root / "web" / "stale.js.gz", ns=(stale, stale - 10**9))
    (root / "web" / "linked.js").write_bytes(BIG_JS)
    (root / "web" / "linked.js.gz").symlink_to(base / "outside.py")
    (root / "web" / "escape.py").symlink_to(base / "outside.py")
    (root / "web" / "inside.py").symlink_to(root / "secret.txt")
    (root / "web" / "up").symlink_to(base)
    with serve.spawn(root=root) as url:
        parts = urlsplit(url)
        yield parts.hostname, parts.port


def get(site, target, method="GET", headers=None):
    """Send one request with the target exactly as given; return (status, headers, body)."""
    connection = http.client.HTTPConnection(*site, timeout=10)
    connection.putrequest(method, target, skip_host=False, skip_accept_encoding=True)
    for name, value in (headers or {}).items():
        connection.putheader(name, value)
    connection.endheaders()
    response = connection.getresponse()
    body = response.read()
    connection.close()
    return response.status, {k.lower(): v for k, v in response.getheaders()}, body


def test_spawn_reads_the_banner_with_the_real_port(site):
    host, port = site
    assert host == "127.0.0.1" and port > 0


def test_banner_line(tmp_path):
    with serve.spawn(root=tmp_path) as url:
        assert re.fullmatch(r"http://127\.0\.0\.1:\d+/", url)


def test_ctrl_c_exits_cleanly(tmp_path):
    child = subprocess.Popen(
        [sys.executable, serve.__file__, "--port", "0", "--root", str(tmp_path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert child.stdout.readline().startswith(serve.BANNER)
    child.send_signal(signal.SIGINT)
    out, err = child.communicate(timeout=10)
    assert (child.returncode, out, err) == (0, "", "")


def test_index_is_served_at_root(site):
    status, headers, body = get(site, "/")
    assert status == 200
    assert headers["content-type"] == "text/html; charset=utf-8"
    assert b"<title>Cribbage</title>" in body


@pytest.mark.parametrize(
    ("target", "content_type"),
    [
        ("/index.html", "text/html; charset=utf-8"),
        ("/web/vendor/pyodide/pyodide.asm.wasm", "application/wasm"),
        ("/web/vendor/pyodide/pyodide.mjs", "text/javascript; charset=utf-8"),
        ("/web/app.js", "text/javascript; charset=utf-8"),
        ("/web/vendor/pyodide/python_stdlib.zip", "application/zip"),
        ("/web/vendor/pyodide/pyodide-lock.json", "application/json"),
        ("/game/__init__.py", "text/x-python; charset=utf-8"),
        ("/web/main.py", "text/x-python; charset=utf-8"),
        ("/pyscript.toml", "application/toml; charset=utf-8"),
        ("/web/style.css", "text/css; charset=utf-8"),
        ("/web/icon.svg", "image/svg+xml"),
        ("/web/icon.png", "image/png"),
        ("/bench/empty.html", "text/html; charset=utf-8"),
    ],
)
def test_mime_types_and_no_cache(site, target, content_type):
    status, headers, _ = get(site, target)
    assert status == 200
    assert headers["content-type"] == content_type
    assert headers["cache-control"] == "no-cache"
    assert headers["x-content-type-options"] == "nosniff"


@pytest.mark.parametrize(
    "target",
    [
        "/../secret.txt",
        "/web/../secret.txt",
        "/web/%2e%2e/secret.txt",
        "/web/%2E%2E/secret.txt",
        "/web/..%2fsecret.txt",
        "/web/..%2Fsecret.txt",
        "/web/..%5csecret.txt",
        "/web/..\\secret.txt",
        "/web/%252e%252e/secret.txt",
        "/%2e%2e/%2e%2e/etc/passwd",
        "/web/%2e%2e/%2e%2e/%2e%2e/etc/passwd",
        "//etc/passwd",
        "/web//etc/passwd",
        "/%2fetc/passwd",
        "/web/./main.py",
        "/web/%00main.py",
        "/web/%ff.py",
        "http://127.0.0.1/secret.txt",
        "/secret.txt",
        "/.git/config",
        "/game/notes.txt",
        "/web/escape.py",
        "/web/inside.py",
        "/web/up/outside.py",
        "/web/up/site/secret.txt",
    ],
)
def test_outside_the_site_is_refused(site, target):
    status, _, body = get(site, target)
    assert status in (403, 404)
    assert SECRET not in body


@pytest.mark.parametrize("target", ["/nope", "/web/missing.js", "/game/missing.py", "/web/vendor", "/web/"])
def test_unknown_paths_are_404(site, target):
    assert get(site, target)[0] == 404


def test_query_string_is_ignored(site):
    assert get(site, "/web/main.py?v=2")[0] == 200


def test_head_sends_headers_only(site):
    status, headers, body = get(site, "/web/main.py", method="HEAD")
    assert (status, body) == (200, b"")
    assert headers["content-length"] == str(len(b"print('hi')\n"))


def test_etag_revalidates(site):
    _, headers, _ = get(site, "/web/main.py")
    status, again, body = get(site, "/web/main.py", headers={"If-None-Match": headers["etag"]})
    assert (status, body) == (304, b"")
    assert again["etag"] == headers["etag"]


def test_other_methods_are_refused(site):
    status, headers, _ = get(site, "/index.html", method="POST")
    assert status == 405
    assert headers["allow"] == "GET, HEAD"


def test_malformed_request_is_400(site):
    with socket.create_connection(site, timeout=10) as sock:
        sock.sendall(b"NONSENSE\r\n\r\n")
        assert sock.recv(64).startswith(b"HTTP/1.1 400 ")


# ---- precompressed copies ------------------------------------------------------------------

BROWSER = "gzip, deflate, br, zstd"


def test_brotli_is_preferred_with_the_original_type(site):
    status, headers, body = get(site, "/web/vendor/pyodide/pyodide.asm.mjs", headers={"Accept-Encoding": BROWSER})
    assert (status, body) == (200, b"brotli bytes")
    assert headers["content-encoding"] == "br"
    assert headers["content-type"] == "text/javascript; charset=utf-8"
    assert headers["vary"] == "Accept-Encoding"
    assert headers["content-length"] == str(len(body))
    assert headers["cache-control"] == "no-cache"


def test_gzip_when_brotli_is_not_accepted(site):
    for accept in ("gzip", "gzip, br;q=0", "deflate, gzip;q=0.5"):
        status, headers, body = get(site, "/web/vendor/pyodide/pyodide.asm.mjs", headers={"Accept-Encoding": accept})
        assert status == 200 and headers["content-encoding"] == "gzip", accept
        assert gzip.decompress(body) == BIG_JS


def test_gzip_when_only_gzip_exists(site):
    status, headers, body = get(site, "/web/big.css", headers={"Accept-Encoding": BROWSER})
    assert (status, headers["content-encoding"], headers["vary"]) == (200, "gzip", "Accept-Encoding")
    assert headers["content-type"] == "text/css; charset=utf-8"
    assert gzip.decompress(body) == BIG_CSS


@pytest.mark.parametrize("accept", [None, "identity", "gzip;q=0, br;q=0", "zstd"])
def test_plain_file_without_an_accepted_encoding(site, accept):
    status, headers, body = get(site, "/web/vendor/pyodide/pyodide.asm.mjs",
                                headers={"Accept-Encoding": accept} if accept else {})
    assert (status, body) == (200, BIG_JS)
    assert "content-encoding" not in headers
    assert headers["vary"] == "Accept-Encoding"   # the reply still depends on the header


def test_files_without_copies_do_not_vary(site):
    _, headers, _ = get(site, "/web/main.py", headers={"Accept-Encoding": BROWSER})
    assert "content-encoding" not in headers and "vary" not in headers


@pytest.mark.parametrize("target", ["/web/stale.js", "/web/linked.js"])
def test_stale_or_symlinked_copies_are_never_sent(site, target):
    status, headers, body = get(site, target, headers={"Accept-Encoding": BROWSER})
    assert (status, body) == (200, BIG_JS)
    assert "content-encoding" not in headers


def test_head_of_an_encoded_file(site):
    _, full, body = get(site, "/web/vendor/pyodide/pyodide.asm.mjs", headers={"Accept-Encoding": "gzip"})
    status, headers, empty = get(site, "/web/vendor/pyodide/pyodide.asm.mjs", method="HEAD",
                                 headers={"Accept-Encoding": "gzip"})
    assert (status, empty) == (200, b"")
    assert headers["content-length"] == str(len(body)) == full["content-length"]
    assert (headers["content-encoding"], headers["etag"]) == ("gzip", full["etag"])


def test_each_encoding_has_its_own_etag_and_revalidates(site):
    target = "/web/vendor/pyodide/pyodide.asm.mjs"
    tags = {}
    for accept in ("br", "gzip", None):
        sent = {"Accept-Encoding": accept} if accept else {}
        _, headers, _ = get(site, target, headers=sent)
        tags[accept] = headers["etag"]
        status, again, body = get(site, target, headers={**sent, "If-None-Match": headers["etag"]})
        assert (status, body) == (304, b""), accept
        assert again["etag"] == headers["etag"]
        assert again["vary"] == "Accept-Encoding"
    assert len(set(tags.values())) == 3
    # A tag of another encoding is not a match: the body comes again, in the encoding asked for.
    status, headers, body = get(site, target, headers={"Accept-Encoding": "gzip", "If-None-Match": tags["br"]})
    assert (status, headers["content-encoding"]) == (200, "gzip")


def test_etag_lists_and_weak_tags_revalidate(site):
    _, headers, _ = get(site, "/web/main.py")
    for header in (f'"x", {headers["etag"]}', "W/" + headers["etag"], "*"):
        assert get(site, "/web/main.py", headers={"If-None-Match": header})[0] == 304, header


def test_hashed_pyscript_chunks_are_immutable(site):
    _, headers, _ = get(site, "/" + CHUNK)
    assert headers["cache-control"] == "public, max-age=31536000, immutable"
    for target in ("/web/vendor/pyscript/core.js", "/web/vendor/pyodide/pyodide.mjs"):
        assert get(site, target)[1]["cache-control"] == "no-cache", target


# ---- a site built by scripts/build_dist.py -------------------------------------------------


@pytest.fixture(scope="module")
def dist(tmp_path_factory):
    """(host, port) of a server with --root over a small dist/ tree."""
    root = tmp_path_factory.mktemp("dist")
    files = {
        "index.html": b"<!doctype html><title>Cribbage</title>" + b" " * 2000,
        "sw.js": b"self.addEventListener('fetch', () => {});\n",
        "manifest.webmanifest": b'{"name": "Cribbage"}',
        "pyscript.toml": b"",
        "game/cards.py": b"",
        "web/vendor/pyodide/pyodide.asm.wasm": b"\0asm\1\0\0\0",
        "web/vendor/pyodide/pyodide.asm.wasm.br": b"br",
        "web/icons/icon-192.png": b"\x89PNG",
    }
    for name, data in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_bytes(data)
    (root / "index.html.gz").write_bytes(gzip.compress(files["index.html"]))
    with serve.spawn(root=root) as url:
        parts = urlsplit(url)
        yield parts.hostname, parts.port


def test_dist_service_worker(dist):
    status, headers, body = get(dist, "/sw.js")
    assert status == 200 and body.startswith(b"self.addEventListener")
    assert headers["content-type"] == "text/javascript; charset=utf-8"
    assert headers["cache-control"] == "no-cache"
    assert headers["service-worker-allowed"] == "/"


def test_dist_manifest(dist):
    status, headers, body = get(dist, "/manifest.webmanifest")
    assert (status, body) == (200, b'{"name": "Cribbage"}')
    assert headers["content-type"] == "application/manifest+json"


def test_dist_page_runtime_and_icons(dist):
    status, headers, body = get(dist, "/", headers={"Accept-Encoding": BROWSER})
    assert (status, headers["content-encoding"], headers["content-type"]) == (200, "gzip", "text/html; charset=utf-8")
    assert b"<title>Cribbage</title>" in gzip.decompress(body)
    status, headers, body = get(dist, "/web/vendor/pyodide/pyodide.asm.wasm", headers={"Accept-Encoding": BROWSER})
    assert (status, headers["content-encoding"], headers["content-type"], body) == (200, "br", "application/wasm", b"br")
    assert get(dist, "/web/icons/icon-192.png")[0] == 200



PROXIES = (network("10.0.0.0/8"), network("2001:db8:feed::/48"), network("192.0.2.7"))


@pytest.mark.parametrize("peer, forwarded, client", [
    ("10.1.2.3", "203.0.113.9", "203.0.113.9"),                          # one proxy
    ("10.1.2.3", "203.0.113.9, 192.0.2.7", "203.0.113.9"),               # two trusted proxies in a row
    ("10.1.2.3", "6.6.6.6, 203.0.113.9", "203.0.113.9"),                 # the client's claim, left of it
    ("10.1.2.3", "203.0.113.9,6.6.6.6", "6.6.6.6"),                      # the right-most untrusted entry
    ("10.1.2.3", "10.9.9.9", "10.9.9.9"),                                # only proxies: the farthest
    ("10.1.2.3", None, "10.1.2.3"),                                      # no header: the proxy itself
    ("10.1.2.3", "", "10.1.2.3"),
    ("10.1.2.3", "unknown", "10.1.2.3"),                                 # malformed: the last hop vouched for
    ("10.1.2.3", "203.0.113.9, 10.0.0.4, junk", "10.1.2.3"),
    ("10.1.2.3", "junk, 203.0.113.9", "203.0.113.9"),
    ("10.1.2.3", "203.0.113.9:51234", "203.0.113.9"),                    # with a port
    ("10.1.2.3", "[2001:db8:1::5]:443", "2001:db8:1::5"),
    ("2001:db8:feed::2", "2001:db8:1::5", "2001:db8:1::5"),              # an IPv6 proxy
    ("::ffff:10.1.2.3", "203.0.113.9", "203.0.113.9"),                   # an IPv4 proxy on a dual-stack socket
    ("203.0.113.50", "6.6.6.6", "203.0.113.50"),                         # not a proxy: the header is ignored
    ("192.0.2.8", "6.6.6.6", "192.0.2.8"),
    ("-", "6.6.6.6", "-"),                                               # no peer address (a Unix socket)
])
def test_the_client_behind_trusted_proxies(peer, forwarded, client):
    assert client_address(peer, forwarded, PROXIES) == client
    assert client_address(peer, forwarded, ()) == peer
