#!/usr/bin/env python3
"""Run the deployment of docs/deploy/ for real, on this machine's loopback, without containers:
Caddy (Debian's `caddy`) serving a built dist/ over TLS and proxying /relay to two
`serve.py --relay-only --redis` instances, a redis-server and coturn, each started from the
files in docs/deploy/ with only the substitutions that one machine needs (`SUBSTITUTIONS`).

    .venv/bin/python scripts/deploy_local.py [--dist DIR]   # up until Ctrl-C; prints how to browse it
    .venv/bin/python scripts/deploy_load.py                 # the load figures (README, "Several relay instances")

Needs caddy, redis-server, coturn (turnserver) and, to trust Caddy's CA in a browser,
certutil (`scripts/setup --deploy`, as root). Everything listens on 127.0.0.1 on free ports;
Caddy's CA, certificates and every log live in a temporary folder, and every process is
stopped on the way out, on an error too. tests/e2e/test_deploy.py drives browsers and
scripted peers through it.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import secrets
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEPLOY = ROOT / "docs" / "deploy"
SITE_DOMAIN = "cribbage.test"        # a name no DNS answers: the browsers map it to 127.0.0.1
TURN_DOMAIN = "turn.cribbage.test"
LOOPBACK = "127.0.0.1"               # Caddy's address, as the relays see it: their --trusted-proxy
START_TIMEOUT = 20.0                 # seconds any one process gets to start answering
TOOLS = ("caddy", "redis-server", "turnserver")
# What the files in docs/deploy/ say for a real deployment, and what runs here instead.
SUBSTITUTIONS = (
    ("Caddyfile: {$SITE_DOMAIN}, {$TURN_DOMAIN}", f"{SITE_DOMAIN}, {TURN_DOMAIN}"),
    ("Caddyfile: the relays relay-1:8765 relay-2:8765 ({$RELAYS})", "127.0.0.1:PORT1 127.0.0.1:PORT2"),
    ("Caddyfile: the site in /srv ({$SITE_ROOT})", "the dist/ given"),
    ("Caddy's global options (none in the Caddyfile)",
     "ports 443/80 -> free ports, default_bind 127.0.0.1, local_certs (tls internal), "
     "skip_install_trust, admin off, its data in the temporary folder"),
    ("Containerfile: --host 0.0.0.0 --port 8765", "--host 127.0.0.1 --port PORTn"),
    ("compose.yaml: --redis=redis://redis:6379/0", "redis://127.0.0.1:PORT/0"),
    ("compose.yaml: --trusted-proxy=172.30.0.2 (Caddy's address)", f"--trusted-proxy={LOOPBACK}"),
    ("compose.yaml: ${TURN_DOMAIN}, TURN ports 3478 and 5349", f"{TURN_DOMAIN}, free ports"),
    ("compose.yaml: /run/secrets/turn-secret", "a file in the temporary folder"),
    ("compose.yaml: redis-server's command", "+ --port PORT --bind 127.0.0.1 --dir (temporary folder)"),
    ("turnserver.conf: realm, static-auth-secret, ports, cert and pkey",
     f"{TURN_DOMAIN}, the secret, free ports, the certificate Caddy made for {TURN_DOMAIN}; "
     "+ listening-ip and relay-ip 127.0.0.1, and its userdb, pid and log in the temporary folder"),
)


def missing_tools() -> list[str]:
    """The programs this needs that are not installed (`scripts/setup --deploy` installs them)."""
    return [tool for tool in TOOLS if shutil.which(tool) is None]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind((LOOPBACK, 0))
        port: int = probe.getsockname()[1]
        return port


def wait_until(check, what: str, timeout: float = START_TIMEOUT, child: subprocess.Popen | None = None) -> None:
    """Poll ``check()`` until it is true; RuntimeError naming ``what`` after ``timeout`` seconds
    or as soon as ``child`` exits."""
    deadline = time.monotonic() + timeout
    while not check():
        if child is not None and child.poll() is not None:
            raise RuntimeError(f"{what}: the process exited ({child.returncode})")
        if time.monotonic() > deadline:
            raise RuntimeError(f"{what}: not within {timeout:.0f} s")
        time.sleep(0.05)


def listening(port: int) -> bool:
    with contextlib.suppress(OSError), socket.create_connection((LOOPBACK, port), timeout=1):
        return True
    return False


def stop(child: subprocess.Popen, grace: float = 5.0) -> None:
    """End a child this started: SIGTERM, then SIGKILL after ``grace`` seconds."""
    if child.poll() is None:
        child.terminate()
        try:
            child.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            child.kill()
            child.wait(timeout=grace)


def compose_list(key: str, service: str) -> list[str]:
    """A list under ``key:`` in compose.yaml, in the block of ``service`` (its top-level or
    services-level name): either a JSON-style ``[...]`` on one line or ``- item`` lines.

    >>> compose_list("command", "redis")[:3]
    ['redis-server', '--save', '']
    >>> compose_list("command", "x-relay")[0]
    '--redis=redis://redis:6379/0'
    """
    lines = (DEPLOY / "compose.yaml").read_text(encoding="utf-8").splitlines()
    start = next(n for n, line in enumerate(lines) if re.match(rf"\s*{re.escape(service)}:", line))
    indent = len(lines[start]) - len(lines[start].lstrip())
    for n in range(start + 1, len(lines)):
        line = lines[n]
        if line.strip() and not line.lstrip().startswith("#") and len(line) - len(line.lstrip()) <= indent:
            break
        found = re.match(rf"\s*{key}:\s*(.*)$", line)
        if not found:
            continue
        if found.group(1).startswith("["):
            return list(json.loads(found.group(1)))
        items = []
        for item in lines[n + 1:]:
            entry = re.match(r"\s*- (.*)$", item)
            if not entry:
                break
            items.append(entry.group(1).strip())
        return items
    raise ValueError(f"compose.yaml has no {key} under {service}")


def entrypoint() -> list[str]:
    """The Containerfile's ENTRYPOINT: ["python", "serve.py", ...].

    >>> entrypoint()[:3]
    ['python', 'serve.py', '--relay-only']
    """
    text = (DEPLOY / "Containerfile").read_text(encoding="utf-8")
    found = re.search(r"^ENTRYPOINT (\[.*\])$", text, re.MULTILINE)
    if not found:
        raise ValueError("the Containerfile has no ENTRYPOINT [...]")
    return list(json.loads(found.group(1)))


def replace_option(args: list[str], name: str, value: str) -> list[str]:
    """``args`` with the value after ``name`` replaced.

    >>> replace_option(["--host", "0.0.0.0", "--port", "8765"], "--port", "9000")
    ['--host', '0.0.0.0', '--port', '9000']
    """
    at = args.index(name)
    return [*args[:at + 1], value, *args[at + 2:]]


def turn_config(secret: str, port: int, tls_port: int, relay_ports: tuple[int, int], cert: Path, key: Path,
                folder: Path) -> str:
    """docs/deploy/turnserver.conf with this machine's values (`SUBSTITUTIONS`)."""
    values = {"realm": TURN_DOMAIN, "static-auth-secret": secret, "listening-port": str(port),
              "tls-listening-port": str(tls_port), "min-port": str(relay_ports[0]),
              "max-port": str(relay_ports[1]), "cert": str(cert), "pkey": str(key)}
    lines = []
    for line in (DEPLOY / "turnserver.conf").read_text(encoding="utf-8").splitlines():
        name = line.partition("=")[0]
        lines.append(f"{name}={values.pop(name)}" if name in values and not line.startswith("#") else line)
    if values:
        raise ValueError(f"turnserver.conf no longer sets {', '.join(values)}")
    lines += [f"listening-ip={LOOPBACK}", f"relay-ip={LOOPBACK}", f"userdb={folder / 'turndb'}",
              f"pidfile={folder / 'turnserver.pid'}", "log-file=stdout", "simple-log"]
    return "\n".join(lines) + "\n"


@dataclass
class Deployment:
    """The running deployment: its address, Caddy's CA, and the processes (relays by index)."""

    folder: Path
    https_port: int
    redis_port: int
    relay_ports: list[int]
    turn_port: int
    turns_port: int
    secret: str
    relays: list[subprocess.Popen | None] = field(default_factory=list)
    redis: subprocess.Popen | None = None
    caddy: subprocess.Popen | None = None
    coturn: subprocess.Popen | None = None

    def processes(self) -> list[subprocess.Popen]:
        """Every server process running now."""
        return [child for child in (self.caddy, self.coturn, self.redis, *self.relays)
                if child is not None and child.poll() is None]

    def cpu_seconds(self) -> dict[str, float]:
        """CPU time (user + system) each running server has used so far: caddy, relays, redis."""
        found = {"caddy": 0.0, "relays": 0.0, "redis": 0.0}
        for name, child in [("caddy", self.caddy), ("redis", self.redis)] + [("relays", r) for r in self.relays]:
            if child is not None and child.poll() is None:
                fields = Path(f"/proc/{child.pid}/stat").read_text().rsplit(")", 1)[1].split()
                found[name] += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        return found

    @property
    def url(self) -> str:
        """The site, as a browser that maps SITE_DOMAIN to 127.0.0.1 opens it."""
        return f"https://{SITE_DOMAIN}:{self.https_port}/"

    @property
    def relay_url(self) -> str:
        return f"wss://{SITE_DOMAIN}:{self.https_port}/relay"

    @property
    def redis_url(self) -> str:
        return f"redis://{LOOPBACK}:{self.redis_port}/0"

    @property
    def ca(self) -> Path:
        """Caddy's local CA's root certificate (what a browser must trust)."""
        return self.folder / "data" / "caddy" / "pki" / "authorities" / "local" / "root.crt"

    def certificate(self, domain: str) -> tuple[Path, Path]:
        """The certificate and key Caddy made for ``domain`` (local_certs: the "local" issuer)."""
        base = self.folder / "data" / "caddy" / "certificates" / "local" / domain
        return base / f"{domain}.crt", base / f"{domain}.key"

    def tls(self) -> ssl.SSLContext:
        """A client TLS context that trusts Caddy's CA and nothing else."""
        return ssl.create_default_context(cafile=str(self.ca))

    def log(self, name: str) -> Path:
        return self.folder / f"{name}.log"

    def relay_log(self, index: int) -> str:
        return self.log(f"relay-{index + 1}").read_text(encoding="utf-8", errors="replace")

    def start_relay(self, index: int) -> None:
        """Start relay instance ``index`` (0 or 1) as compose.yaml's x-relay runs it."""
        args = entrypoint()[2:]
        args = replace_option(replace_option(args, "--host", LOOPBACK), "--port", str(self.relay_ports[index]))
        turn = {"${TURN_DOMAIN:?set TURN_DOMAIN}": TURN_DOMAIN, "${TURN_DOMAIN}": TURN_DOMAIN,
                ":3478?": f":{self.turn_port}?", ":5349?": f":{self.turns_port}?",
                "redis://redis:6379/0": self.redis_url, "=172.30.0.2": f"={LOOPBACK}",
                "/run/secrets/turn-secret": str(self.folder / "turn-secret")}
        for option in compose_list("command", "x-relay"):
            for said, here in turn.items():
                option = option.replace(said, here)
            args.append(option)
        stream = self.log(f"relay-{index + 1}").open("a")
        child = subprocess.Popen([sys.executable, str(ROOT / "serve.py"), *args], stdout=subprocess.PIPE,
                                 stderr=stream, text=True, cwd=ROOT)
        stream.close()
        assert child.stdout is not None
        line = child.stdout.readline()
        if not line.startswith("Cribbage is being served at "):
            stop(child)
            raise RuntimeError(f"relay-{index + 1} did not start: {line!r}; see {self.log(f'relay-{index + 1}')}")
        child.stdout.close()
        self.relays[index] = child

    def kill_relay(self, index: int) -> None:
        """Kill an instance without a goodbye (SIGKILL), as a crash or a lost machine would."""
        child = self.relays[index]
        assert child is not None, f"relay-{index + 1} is not running"
        child.kill()
        child.wait(timeout=10)
        self.relays[index] = None

    def start_redis(self) -> None:
        """redis-server as compose.yaml runs it, on this deployment's port."""
        command = compose_list("command", "redis")
        stream = self.log("redis").open("a")
        self.redis = subprocess.Popen(
            [shutil.which(command[0]) or command[0], *command[1:], "--port", str(self.redis_port),
             "--bind", LOOPBACK, "--dir", str(self.folder)], stdout=stream, stderr=subprocess.STDOUT)
        stream.close()
        wait_until(self.redis_answers, "redis-server", child=self.redis)

    def redis_answers(self) -> bool:
        with contextlib.suppress(OSError), socket.create_connection((LOOPBACK, self.redis_port), timeout=1) as sock:
            sock.sendall(b"PING\r\n")
            return sock.recv(16).startswith(b"+PONG")
        return False

    def stop_redis(self) -> None:
        """Stop redis-server (its rooms go with it: nothing is saved)."""
        if self.redis is not None:
            stop(self.redis)
            self.redis = None


def caddyfile(folder: Path, https_port: int, http_port: int) -> Path:
    """The Caddyfile Caddy runs: global options for one machine, then docs/deploy/Caddyfile as is."""
    path = folder / "Caddyfile"
    path.write_text(
        "# Global options for a run on loopback (scripts/deploy_local.py); the site is docs/deploy/'s.\n"
        "{\n"
        "\tadmin off\n"
        f"\thttp_port {http_port}\n"
        f"\thttps_port {https_port}\n"
        f"\tdefault_bind {LOOPBACK}\n"
        "\tlocal_certs\n"
        "\tskip_install_trust\n"
        "}\n"
        f"import {DEPLOY / 'Caddyfile'}\n", encoding="utf-8")
    return path


@contextlib.contextmanager
def deployed(dist: Path, folder: Path | None = None) -> Iterator[Deployment]:
    """Start Redis, two relays, Caddy and coturn as docs/deploy/ describes; stop them all on the
    way out. ``dist``: the built site (scripts/build_dist.py). ``folder``: where the logs, the
    CA and the secret go (a temporary one, removed afterwards, when None)."""
    if missing := missing_tools():
        raise RuntimeError(f"not installed: {', '.join(missing)} (scripts/setup --deploy, as root)")
    if not (dist / "index.html").is_file() or not (dist / "sw.js").is_file():
        raise RuntimeError(f"{dist} is not a built site (scripts/build_dist.py)")
    with contextlib.ExitStack() as stack:
        if folder is None:
            folder = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="cribbage-deploy-")))
        folder.mkdir(parents=True, exist_ok=True)
        low = 50000 + secrets.randbelow(14000)
        found = Deployment(folder, free_port(), free_port(), [free_port(), free_port()], free_port(), free_port(),
                           secrets.token_hex(32), [None, None])
        (folder / "turn-secret").write_text(found.secret + "\n")   # as `openssl rand -hex 32 >` would
        (folder / "turn-secret").chmod(0o600)

        def stop_all() -> None:
            for child in found.relays:
                if child is not None:
                    stop(child)
            found.stop_redis()

        stack.callback(stop_all)
        found.start_redis()
        for index in range(2):
            found.start_relay(index)
        env = {**os.environ, "SITE_DOMAIN": SITE_DOMAIN, "TURN_DOMAIN": TURN_DOMAIN,
               "RELAYS": " ".join(f"{LOOPBACK}:{port}" for port in found.relay_ports),
               "SITE_ROOT": str(dist.resolve()), "XDG_DATA_HOME": str(folder / "data"),
               "XDG_CONFIG_HOME": str(folder / "config")}
        caddy_log = found.log("caddy").open("a")
        stack.callback(caddy_log.close)
        caddy = subprocess.Popen(["caddy", "run", "--adapter", "caddyfile", "--config",
                                  str(caddyfile(folder, found.https_port, free_port()))],
                                 env=env, stdout=caddy_log, stderr=subprocess.STDOUT, cwd=folder)
        stack.callback(stop, caddy)
        found.caddy = caddy
        cert, key = found.certificate(TURN_DOMAIN)
        wait_until(lambda: listening(found.https_port) and found.ca.is_file() and key.is_file(),
                   f"caddy (see {found.log('caddy')})", child=caddy)
        (folder / "turnserver.conf").write_text(
            turn_config(found.secret, found.turn_port, found.turns_port, (low, low + 100), cert, key, folder))
        turn_log = found.log("turnserver").open("a")
        stack.callback(turn_log.close)
        coturn = subprocess.Popen(["turnserver", "-c", str(folder / "turnserver.conf")],
                                  stdout=turn_log, stderr=subprocess.STDOUT)
        stack.callback(stop, coturn)
        found.coturn = coturn
        wait_until(lambda: listening(found.turn_port) and listening(found.turns_port),
                   f"coturn (see {found.log('turnserver')})", child=coturn)
        yield found


def trusting_home(ca: Path, home: Path) -> Path:
    """A HOME whose NSS database (~/.pki/nssdb, where Chromium on Linux keeps the certificates a
    user trusts) trusts ``ca`` to identify web sites; returns ``home``."""
    if shutil.which("certutil") is None:
        raise RuntimeError("certutil is not installed (Debian: libnss3-tools; scripts/setup --deploy)")
    nssdb = home / ".pki" / "nssdb"
    nssdb.mkdir(parents=True, exist_ok=True)
    subprocess.run(["certutil", "-N", "-d", f"sql:{nssdb}", "--empty-password"], check=True, capture_output=True)
    subprocess.run(["certutil", "-A", "-d", f"sql:{nssdb}", "-n", "Caddy Local Authority (test)", "-t", "C,,",
                    "-i", str(ca)], check=True, capture_output=True)
    return home


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dist", type=Path, default=ROOT / "dist", help="the built site (default dist/)")
    args = parser.parse_args()
    with deployed(args.dist) as found:
        print(f"The deployment of docs/deploy/ is up: {found.url}\n"
              f"  Caddy's CA (trust it, e.g. certutil -A -d sql:$HOME/.pki/nssdb -t C,, -n caddy -i ...): {found.ca}\n"
              f"  browse with: chromium --host-resolver-rules='MAP {SITE_DOMAIN} 127.0.0.1' {found.url}\n"
              f"  relays on ports {found.relay_ports}, Redis {found.redis_url}, coturn :{found.turn_port} "
              f"(turns :{found.turns_port}); logs in {found.folder}\nCtrl-C stops everything.", flush=True)
        with contextlib.suppress(KeyboardInterrupt):
            signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
            while True:
                time.sleep(3600)


if __name__ == "__main__":
    main()
