"""A headless Chromium driven over the DevTools protocol on a pipe (no extra package, no network).

`Browser()` starts /usr/bin/chromium (or $RULESPEC_CHROMIUM) headless with its
own profile folder; `open(path, width)` loads a local page at that window
width; `js(expr)` evaluates in the page; `key(name)` and `click(selector)`
act as a user would; `errors` collects console errors and uncaught exceptions;
`screenshot(path)` saves a PNG. `CHROMIUM` is None when no browser is
installed (or RULESPEC_CHROMIUM=none): the tests that need it are skipped with that reason.
"""
from __future__ import annotations

import base64
import json
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

_ASKED = os.environ.get("RULESPEC_CHROMIUM")
# RULESPEC_CHROMIUM=none: behave as on a machine without a browser (to check that the tests skip).
CHROMIUM = None if _ASKED is not None and _ASKED.lower() in ("", "none") else next(
    (p for p in (_ASKED, "/usr/bin/chromium", shutil.which("chromium"), shutil.which("chromium-browser"))
     if p and Path(p).is_file()), None)
SKIP_REASON = ("no Chromium installed (apt-get install chromium, or set RULESPEC_CHROMIUM): "
               "the HTML pages' browser tests need a real browser")
KEYS = {"ArrowRight": 39, "ArrowLeft": 37, "Home": 36, "End": 35}


def _high(fd: int) -> int:
    import fcntl
    high = fcntl.fcntl(fd, fcntl.F_DUPFD, 10)
    os.close(fd)
    return high


class BrowserError(Exception):
    pass


class Browser:
    def __init__(self):
        self.profile = tempfile.mkdtemp(prefix="rulespec-chromium-")
        r_ours, w_theirs = os.pipe()      # chromium writes to fd 4, we read
        r_theirs, w_ours = os.pipe()      # we write, chromium reads fd 3
        cmd = [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
               "--no-first-run", "--no-default-browser-check", "--disable-extensions", "--hide-scrollbars",
               f"--user-data-dir={self.profile}", "--remote-debugging-pipe", "about:blank"]

        # Above 10 first, so that placing them at 3 and 4 in the child cannot overwrite one another.
        r_theirs, w_theirs = [_high(fd) for fd in (r_theirs, w_theirs)]

        def child_fds():
            os.dup2(r_theirs, 3)
            os.dup2(w_theirs, 4)
        self.proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                     stderr=None if os.environ.get("RULESPEC_BROWSER_DEBUG") else subprocess.DEVNULL,
                                     pass_fds=(r_theirs, w_theirs, 3, 4),
                                     preexec_fn=child_fds)
        os.close(r_theirs)
        os.close(w_theirs)
        self.rfile = os.fdopen(r_ours, "rb", buffering=0)
        self.wfile = os.fdopen(w_ours, "wb", buffering=0)
        self.buf = b""
        self.next_id = 0
        self.session = None
        self.errors: list[str] = []
        self.loaded = False
        target = self.call("Target.createTarget", {"url": "about:blank"}, session=False)["targetId"]
        self.session = self.call("Target.attachToTarget", {"targetId": target, "flatten": True},
                                 session=False)["sessionId"]
        for domain in ("Page", "Runtime", "Log"):
            self.call(f"{domain}.enable")

    # -- the protocol --------------------------------------------------------------
    def _read(self) -> dict:
        while b"\0" not in self.buf:
            chunk = self.rfile.read(1 << 16)
            if not chunk:
                raise BrowserError("chromium closed the pipe")
            self.buf += chunk
        msg, self.buf = self.buf.split(b"\0", 1)
        return json.loads(msg)

    def _event(self, msg: dict) -> None:
        method, params = msg.get("method"), msg.get("params", {})
        if method == "Runtime.exceptionThrown":
            d = params["exceptionDetails"]
            self.errors.append("exception: " + d.get("exception", {}).get("description", d.get("text", "")))
        elif method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert"):
            self.errors.append("console: " + " ".join(str(a.get("value", a.get("description")))
                                                      for a in params.get("args", [])))
        elif method == "Log.entryAdded" and params["entry"].get("level") == "error":
            self.errors.append("log: " + params["entry"].get("text", ""))
        elif method == "Page.loadEventFired":
            self.loaded = True

    def call(self, method: str, params: dict | None = None, session: bool = True) -> dict:
        self.next_id += 1
        msg = {"id": self.next_id, "method": method, "params": params or {}}
        if session and self.session:
            msg["sessionId"] = self.session
        self.wfile.write(json.dumps(msg).encode() + b"\0")
        while True:
            reply = self._read()
            if reply.get("id") == self.next_id:
                if "error" in reply:
                    raise BrowserError(f"{method}: {reply['error']}")
                return reply.get("result", {})
            self._event(reply)

    # -- what a test does ------------------------------------------------------------
    def open(self, path: Path, width: int = 1000, height: int = 900) -> None:
        self.call("Emulation.setDeviceMetricsOverride",
                  {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})
        self.loaded = False
        self.call("Page.navigate", {"url": Path(path).resolve().as_uri()})
        while not self.loaded:
            self._event(self._read())

    def js(self, expression: str):
        r = self.call("Runtime.evaluate", {"expression": expression, "returnByValue": True})
        if "exceptionDetails" in r:
            raise BrowserError(f"{expression}: {r['exceptionDetails'].get('text')}")
        return r["result"].get("value")

    def key(self, name: str) -> None:
        code = KEYS[name]
        for kind in ("rawKeyDown", "keyUp"):
            self.call("Input.dispatchKeyEvent", {"type": kind, "key": name, "code": name,
                                                 "windowsVirtualKeyCode": code})

    def click(self, selector: str) -> None:
        box = self.js(f"(function(){{var r=document.querySelector({json.dumps(selector)})"
                      f".getBoundingClientRect();return [r.x+r.width/2,r.y+r.height/2];}})()")
        for kind in ("mousePressed", "mouseReleased"):
            self.call("Input.dispatchMouseEvent", {"type": kind, "x": box[0], "y": box[1], "button": "left",
                                                   "clickCount": 1})

    def screenshot(self, path: Path, full: bool = True) -> None:
        params = {"format": "png"}
        if full:
            params["captureBeyondViewport"] = True
        data = self.call("Page.captureScreenshot", params)["data"]
        Path(path).write_bytes(base64.b64decode(data))

    def __enter__(self) -> "Browser":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        try:
            self.call("Browser.close", session=False)
        except (BrowserError, OSError, ValueError):
            pass
        try:
            self.proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        for f in (self.rfile, self.wfile):
            try:
                f.close()
            except OSError:
                pass
        shutil.rmtree(self.profile, ignore_errors=True)


def reads_left_to_right(browser: Browser, selector: str, needle: str) -> bool:
    """Whether `needle`, found in a text node under an element matching `selector`, is drawn left to
    right: its first character left of its last (a stray right-to-left override before it would draw
    it reversed)."""
    return browser.js(f"""(function () {{
      var roots = document.querySelectorAll({json.dumps(selector)}), needle = {json.dumps(needle)};
      function left(node, k) {{ var r = document.createRange(); r.setStart(node, k); r.setEnd(node, k + 1);
                               return r.getBoundingClientRect().left; }}
      for (var n = 0; n < roots.length; n++) {{
        var walk = document.createTreeWalker(roots[n], NodeFilter.SHOW_TEXT), node;
        while ((node = walk.nextNode())) {{
          var i = node.data.indexOf(needle);
          if (i >= 0) return left(node, i) < left(node, i + needle.length - 1);
        }}
      }}
      throw new Error("not found: " + needle);
    }})()""")


# A variant whose every free-text field is as long as the schema allows, with no space to break at.
LONG = f"id: long\nextends: cirulla\nname: '{'W' * 200}'\ndescription: '{'x' * 2000}'\nsource: '{'s' * 200}'\n"
_FITS = """(function () {
  var wide = Array.prototype.filter.call(document.querySelectorAll('h1, p, li, td'), function (e) {
    return e.scrollWidth > e.clientWidth + 1; }).map(function (e) { return e.tagName; });
  return [document.documentElement.scrollWidth, innerWidth, wide];
})()"""


def assert_fits(browser: Browser, page: Path, width: int = 400) -> None:
    """The page, opened `width` pixels wide, is no wider than the window, no heading, paragraph, list item
    or cell overflows its box, and nothing was reported to the console."""
    browser.errors.clear()
    browser.open(page, width=width)
    page_width, window, wide = browser.js(_FITS)
    assert page_width <= window == width and wide == [], (page_width, wide)
    assert browser.errors == []
