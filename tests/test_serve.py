"""serve.py: the banner, MIME types, caching, and refusing everything outside the site.

The server runs as a child process on a free port over a small site built in a temporary
directory, next to a secret file it must never hand out.
"""

import http.client
import re
import signal
import socket
import subprocess
import sys
from urllib.parse import urlsplit

import pytest

import serve

SECRET = b"the host's secret"


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
    }
    for name, data in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_bytes(data)
    (base / "outside.py").write_bytes(SECRET)
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
