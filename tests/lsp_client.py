"""A minimal Language Server Protocol client over stdio, enough to ask yaml-language-server what an editor shows."""
from __future__ import annotations

import json
import os
import queue
import subprocess
import threading
import time
from pathlib import Path


class LanguageServer:
    """Starts `command --stdio`; open() a document and read its diagnostics, hover() a position."""

    def __init__(self, command: str, root: Path):
        self.proc = subprocess.Popen([command, "--stdio"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL)
        self.messages: queue.Queue = queue.Queue()
        self.next_id = 0
        threading.Thread(target=self._read, daemon=True).start()
        self.request("initialize", {"processId": os.getpid(), "rootUri": root.as_uri(),
                                    "capabilities": {"workspace": {"configuration": True}}})
        self.notify("initialized", {})
        self.notify("workspace/didChangeConfiguration",
                    {"settings": {"yaml": {"validate": True, "hover": True, "schemas": {}}}})

    def close(self) -> None:
        self.proc.kill()
        self.proc.wait()

    def _send(self, message: dict) -> None:
        data = json.dumps({"jsonrpc": "2.0", **message}).encode()
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(data) + data)
        self.proc.stdin.flush()

    def _read(self) -> None:
        stream = self.proc.stdout
        while True:
            headers = {}
            while True:
                line = stream.readline()
                if not line:
                    return
                if not line.strip():
                    break
                key, value = line.decode().split(":", 1)
                headers[key.lower()] = value.strip()
            self.messages.put(json.loads(stream.read(int(headers["content-length"]))))

    def notify(self, method: str, params: dict) -> None:
        self._send({"method": method, "params": params})

    def request(self, method: str, params: dict, timeout: float = 60):
        self.next_id += 1
        wanted = self.next_id
        self._send({"id": wanted, "method": method, "params": params})
        return self._wait(lambda m: m.get("id") == wanted and "method" not in m, timeout).get("result")

    def _wait(self, match, timeout: float) -> dict:
        end = time.monotonic() + timeout
        while True:
            left = end - time.monotonic()
            if left <= 0:
                raise TimeoutError("the language server did not answer")
            try:
                message = self.messages.get(timeout=left)
            except queue.Empty:
                continue
            if "id" in message and "method" in message:   # the server asks: its settings, or anything else
                items = message.get("params", {}).get("items", [])
                result = [{"validate": True, "hover": True, "schemas": {}} for _ in items] \
                    if message["method"] == "workspace/configuration" else None
                self._send({"id": message["id"], "result": result})
                continue
            if match(message):
                return message

    def open(self, path: Path, text: str, timeout: float = 60) -> list[tuple[int, str]]:
        """Open `text` as the document at `path` (not written to disk); its diagnostics as (line, message)."""
        uri = path.as_uri()
        self.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "yaml", "version": 1,
                                                              "text": text}})
        found = self._wait(lambda m: m.get("method") == "textDocument/publishDiagnostics"
                           and m["params"]["uri"] == uri, timeout)
        return [(d["range"]["start"]["line"] + 1, d["message"]) for d in found["params"]["diagnostics"]]

    def hover(self, path: Path, line: int, column: int) -> str:
        """The hover text at a 1-based line and column of an open document."""
        result = self.request("textDocument/hover", {"textDocument": {"uri": path.as_uri()},
                                                     "position": {"line": line - 1, "character": column - 1}})
        contents = (result or {}).get("contents", "")
        return contents.get("value", "") if isinstance(contents, dict) else str(contents)
