"""The test's side of a browser in a home: `Remote` starts `driver.py` under
``ip netns exec`` and calls its operations over pipes (one JSON line each way)."""

from __future__ import annotations

import json
import os
import select
import signal
import subprocess
import sys
from pathlib import Path

from .rig import Home

DRIVER = Path(__file__).with_name("driver.py")
ROOT = Path(__file__).resolve().parents[2]


class DriverError(AssertionError):
    """An operation failed in the browser (the driver's traceback is the message)."""


class Remote:
    """A Chromium in ``home``, driven from here: ``remote.host(2)``, ``remote.step()``..."""

    def __init__(self, home: Home, base: str, log: Path, secure: bool = True, name: str = ""):
        self.home, self.name = home, name or home.ns
        config = {"base": base, "secure": secure, "artifacts": str(ROOT / "test-artifacts")}
        self.log = log.open("a")
        self.child = subprocess.Popen(
            ["ip", "netns", "exec", home.ns, sys.executable, str(DRIVER), json.dumps(config)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.log, text=True, bufsize=1,
            start_new_session=True, cwd=ROOT)

    def ready(self) -> Remote:
        """Wait until the driver's Chromium is up (start several, then wait for each)."""
        self._read(90)
        return self

    def _read(self, timeout: float):
        ready, _, _ = select.select([self.child.stdout], [], [], timeout)
        if not ready:
            raise DriverError(f"{self.name}: no answer from the browser in {timeout:.0f} s")
        line = self.child.stdout.readline()
        if not line:
            raise DriverError(f"{self.name}: the browser's driver exited ({self.child.poll()}); see {self.log.name}")
        answer = json.loads(line)
        if "error" in answer:
            raise DriverError(f"{self.name}: {answer['error']}{self._renderer_news()}")
        return answer["ok"]

    def _renderer_news(self) -> str:
        """What the driver's log says about renderers that died (CI shows only the test's output)."""
        self.log.flush()
        lines = [line for line in Path(self.log.name).read_text(errors="replace").splitlines()
                 if "renderer" in line and "pw:browser" not in line]
        return "".join(f"\n  log: {line}" for line in lines[-6:])

    def call(self, op: str, *args, timeout: float = 120):
        self.child.stdin.write(json.dumps({"op": op, "args": list(args)}) + "\n")
        return self._read(timeout)

    def __getattr__(self, op: str):
        if op.startswith("_"):
            raise AttributeError(op)
        return lambda *args, timeout=120: self.call(op, *args, timeout=timeout)

    def close(self) -> None:
        """Close the browser; a driver that does not stop is killed with its process group."""
        try:
            if self.child.poll() is None:
                self.call("close", timeout=15)
                self.child.wait(timeout=10)
        except Exception:
            pass
        finally:
            if self.child.poll() is None:
                try:
                    os.killpg(self.child.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
                self.child.wait(timeout=10)
            for stream in (self.child.stdin, self.child.stdout):
                try:
                    stream.close()
                except OSError:
                    pass
            self.log.close()
