"""Headless Chromium driven over the DevTools protocol, with the standard library only.

Debian's `chromium` is started on a profile folder of the test's own with its
DevTools port chosen by the browser (`--remote-debugging-port=0`, read back from
the profile's `DevToolsActivePort`). One page is driven through a small
WebSocket client: commands are sent as JSON text frames and answered by id;
events that arrive in between are kept, so a test can wait for one.
"""

from __future__ import annotations

import base64
import json
import os
import socket
import struct
import subprocess
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = "/usr/bin/chromium"
INSTALL = "apt-get install -y chromium"
# Set to 1 (as .ci/run does where it installed chromium) to fail instead of skipping.
REQUIRED_VAR = "DEBATEBENCH_CHROMIUM"
_START_S = 30.0
# Set on a document about to be left, so a wait can tell the next one from it.
_LEAVING = "__debatebenchLeaving"


def require() -> str:
    """The browser's path; skip (or, under DEBATEBENCH_CHROMIUM=1, fail) without one."""
    if Path(CHROMIUM).is_file() and os.access(CHROMIUM, os.X_OK):
        return CHROMIUM
    why = f"needs Debian's chromium at {CHROMIUM}; run: {INSTALL}"
    if os.environ.get(REQUIRED_VAR) == "1":
        pytest.fail(f"{REQUIRED_VAR}=1 but {why}", pytrace=False)
    pytest.skip(why)


class Socket:
    """A client WebSocket: masked text frames out, whole messages in."""

    def __init__(self, url: str) -> None:
        address, _, path = url.removeprefix("ws://").partition("/")
        host, _, port = address.rpartition(":")
        self.conn = socket.create_connection((host, int(port)), timeout=60)
        self.stream = self.conn.makefile("rb")
        nonce = base64.b64encode(os.urandom(16)).decode()
        request = (f"GET /{path} HTTP/1.1\r\nHost: {address}\r\nUpgrade: websocket\r\n"
                   f"Connection: Upgrade\r\nSec-WebSocket-Key: {nonce}\r\n"
                   "Sec-WebSocket-Version: 13\r\n\r\n")  # fmt: skip
        self.conn.sendall(request.encode())
        status = self.stream.readline()
        while self.stream.readline() not in (b"\r\n", b""):
            pass  # the rest of the handshake's headers
        if b" 101 " not in status:
            raise RuntimeError(f"DevTools refused the WebSocket: {status!r}")

    def send(self, text: str) -> None:
        body, mask = text.encode(), os.urandom(4)
        size = len(body)
        if size < 126:
            head = struct.pack("!BB", 0x81, 0x80 | size)
        elif size < 1 << 16:
            head = struct.pack("!BBH", 0x81, 0x80 | 126, size)
        else:
            head = struct.pack("!BBQ", 0x81, 0x80 | 127, size)
        masked = bytes(byte ^ mask[i & 3] for i, byte in enumerate(body))
        self.conn.sendall(head + mask + masked)

    def receive(self) -> str:
        parts: list[bytes] = []
        while True:
            first, second = self._read(2)
            size = second & 0x7F
            if size == 126:
                (size,) = struct.unpack("!H", self._read(2))
            elif size == 127:
                (size,) = struct.unpack("!Q", self._read(8))
            parts.append(self._read(size))
            if first & 0x80:  # the final frame of the message
                return b"".join(parts).decode()

    def _read(self, n: int) -> bytes:
        data = self.stream.read(n)
        if len(data) != n:
            raise RuntimeError("DevTools closed the connection")
        return data

    def close(self) -> None:
        self.stream.close()
        self.conn.close()


class Browser:
    """One headless Chromium on its own profile, and its first page."""

    def __init__(self, profile: Path, width: int = 1600, height: int = 1000) -> None:
        profile.mkdir(parents=True, exist_ok=True)
        self.profile = profile
        self.process = subprocess.Popen(
            [require(), "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run",
             "--hide-scrollbars", "--remote-debugging-address=127.0.0.1",
             "--remote-debugging-port=0", f"--user-data-dir={profile}",
             f"--window-size={width},{height}", "about:blank"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        port = self._port()
        targets = json.loads(urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list").read())
        page = next(t for t in targets if t.get("type") == "page")
        self.socket = Socket(page["webSocketDebuggerUrl"])
        self.calls = 0
        self.events: list[dict[str, Any]] = []
        self.size(width, height)

    def _port(self) -> int:
        marker = self.profile / "DevToolsActivePort"
        deadline = time.monotonic() + _START_S
        while time.monotonic() < deadline:
            if marker.is_file() and (lines := marker.read_text().split()):
                return int(lines[0])
            if self.process.poll() is not None:
                raise RuntimeError(f"chromium exited with {self.process.returncode}")
            time.sleep(0.1)
        raise RuntimeError(f"chromium wrote no DevTools port in {_START_S:.0f} s")

    def call(self, method: str, **params: Any) -> dict[str, Any]:
        self.calls += 1
        self.socket.send(json.dumps({"id": self.calls, "method": method, "params": params}))
        while True:
            message = json.loads(self.socket.receive())
            if message.get("id") != self.calls:
                self.events.append(message)
                continue
            if "error" in message:
                raise RuntimeError(f"{method}: {message['error']}")
            result: dict[str, Any] = message.get("result", {})
            return result

    def evaluate(self, expression: str) -> Any:
        """The expression's value in the page (awaited when it is a promise)."""
        found = self.call("Runtime.evaluate", expression=expression, returnByValue=True,
                          awaitPromise=True)  # fmt: skip
        if "exceptionDetails" in found:
            raise RuntimeError(f"{expression}: {found['exceptionDetails']}")
        return found["result"].get("value")

    def wait_for(self, check: Callable[[], Any], what: str, seconds: float = 10.0) -> Any:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if value := check():
                return value
            time.sleep(0.1)
        raise AssertionError(f"waited {seconds:.0f} s for {what}")

    def open(self, url: str) -> None:
        self._navigate("Page.navigate", url=url)

    def reload(self) -> None:
        self._navigate("Page.reload")

    def _navigate(self, method: str, **params: Any) -> None:
        """Navigate and wait for the new document to finish loading. The old one is
        marked first: right after the call it may still answer "complete", and a check
        that reached it (as a fixed sleep on a loaded machine did) read stale state."""
        self.evaluate(f"window.{_LEAVING} = true")
        self.call(method, **params)
        self.wait_for(self._new_document_loaded, "the page")

    def _new_document_loaded(self) -> bool:
        try:
            return bool(self.evaluate(f"!window.{_LEAVING} && document.readyState === 'complete'"))
        except RuntimeError:  # the context was torn down mid-navigation: ask again
            return False

    def press(self, key: str) -> None:
        """A key as a person types it: down (with its text when it has one), then up."""
        named = {"ArrowRight": 39, "ArrowLeft": 37, "Tab": 9, "Enter": 13}
        code = named.get(key, ord(key.upper()) if len(key) == 1 else 0)
        down: dict[str, Any] = {"type": "keyDown", "key": key, "windowsVirtualKeyCode": code}
        if len(key) == 1:
            down["text"] = key
        self.call("Input.dispatchKeyEvent", **down)
        self.call("Input.dispatchKeyEvent", type="keyUp", key=key, windowsVirtualKeyCode=code)

    def type_text(self, text: str) -> None:
        self.call("Input.insertText", text=text)

    def size(self, width: int, height: int, mobile: bool = False) -> None:
        self.call("Emulation.setDeviceMetricsOverride", width=width, height=height,
                  deviceScaleFactor=1, mobile=mobile)  # fmt: skip

    def screenshot(self, path: Path) -> Path:
        data = self.call("Page.captureScreenshot", format="png")["data"]
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(base64.b64decode(data))
        return path

    def allow_downloads(self, folder: Path) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        self.call("Browser.setDownloadBehavior", behavior="allow", downloadPath=str(folder))

    def set_files(self, selector: str, *files: Path) -> None:
        """Choose files in a file input, as the file dialog would."""
        root = self.call("DOM.getDocument")["root"]["nodeId"]
        node = self.call("DOM.querySelector", nodeId=root, selector=selector)["nodeId"]
        self.call("DOM.setFileInputFiles", nodeId=node, files=[str(f) for f in files])

    def close(self) -> None:
        self.socket.close()
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()

    def __enter__(self) -> Browser:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def shots_folder(default: Path) -> Path:
    """Where screenshots go: DEBATEBENCH_SHOTS when set (to look at them), else `default`."""
    return Path(os.environ.get("DEBATEBENCH_SHOTS") or default)
