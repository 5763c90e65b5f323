"""Every page rulespec writes, from a ruleset and a transcript whose every free-text field is hostile.

Names, descriptions, sources, option descriptions and values, the transcript's
file name, expected events and expected refusals (which reach the page in the
replay's failures and notes) all hold markup and script. In a real headless
Chromium (tests/browser.py; skipped when none is installed) nothing of it may
run (no dialog, no handler, no console error), no element of it may appear in
the document, and it must read back as the very text written.
"""
import io
import json

import pytest

from rulespec.cli.main import run
from tests.browser import CHROMIUM, SKIP_REASON, Browser

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason=SKIP_REASON)

NAME = '<script>alert(1)</script>"><img src=x onerror=alert(2)></title></style></script>&amp;'
DESCRIPTION = '"><img id="evil" src=x onerror="alert(3)"> & javascript:alert(4) </p><b id="evil">x</b>'
SOURCE = 'javascript:alert(5) <a id="evil" href="javascript:alert(6)">x</a> <svg onload=alert(7)>'
OPTION = "<img src=x onerror=alert(8)></td></tr><script>alert(9)</script>"    # a value: 64 at most
RULESET = f"""\
id: hostile-pages
extends: cirulla
name: {json.dumps(NAME)}
description: {json.dumps(DESCRIPTION)}
source: {json.dumps(SOURCE)}
options:
  evil:
    type: str
    default: {json.dumps(OPTION)}
    description: {json.dumps(OPTION)}
"""
EVENT = "<img src=x onerror=alert(10)>"
REFUSAL = '</script><script>alert(11)</script>"><svg onload=alert(12)>'
TRANSCRIPT = f"""\
ruleset: hostile.yaml
seats: 4
dealer: 0
deal:
  - table: [3D, 6S, JC, KH]
    hands: {{1: [AS, 2C, 5H], 2: [QD, 4C, 7S], 3: [2H, 5D, JS], 0: [KC, 4S, 6H]}}
plays:
  - {{seat: 1, declare: [{{bonus: barsega}}], card: 2C, capture: [3D, KH], events: [{json.dumps(EVENT)}]}}
  - {{seat: 2, card: QD, capture: [], error: {json.dumps(REFUSAL)}}}
expect:
  dealer_events: [{json.dumps(EVENT)}]
"""
# The same hand, its first play as the engine sees it: the hostile refusal is reached (the replay stops at
# the first failure) and becomes the last step's note.
REFUSING = TRANSCRIPT.replace(f"events: [{json.dumps(EVENT)}]", "events: [barsega]")
FILE_NAME = '<img src=x onerror=alert(13)>&amp;.yaml'
# Replaces alert, confirm and prompt before any of the page's own script runs: a call is recorded, not shown.
WATCH = ("window.__calls = [];['alert', 'confirm', 'prompt', 'print'].forEach(function (n) {"
         " window[n] = function (m) { window.__calls.push(n + ':' + m); }; });")


@pytest.fixture(scope="module")
def pages(tmp_path_factory):
    folder = tmp_path_factory.mktemp("hostile")
    (folder / "hostile.yaml").write_text(RULESET, encoding="utf-8")
    (folder / FILE_NAME).write_text(TRANSCRIPT, encoding="utf-8")
    (folder / "refusing.yaml").write_text(REFUSING, encoding="utf-8")
    out = {name: folder / f"{name}.html" for name in ("replay", "refusal", "record", "simulate", "explain")}
    quiet = (io.StringIO(), io.StringIO())
    assert run(["replay", str(folder / FILE_NAME), "--html", str(out["replay"])], *quiet) == 1   # it fails
    assert run(["replay", str(folder / "refusing.yaml"), "--html", str(out["refusal"])], *quiet) == 0
    assert run(["record", str(folder / "hostile.yaml"), "--seed", "5", "-o", str(folder / "r.yaml"),
                "--html", str(out["record"])], *quiet) == 0
    assert run(["simulate", str(folder / "hostile.yaml"), "--hands", "2", "--seed", "1", "--workers", "1",
                "--html", str(out["simulate"])], *quiet) == 0
    text = io.StringIO()
    assert run(["explain", str(folder / "hostile.yaml"), "--format", "html"], text, io.StringIO()) == 0
    out["explain"].write_text(text.getvalue(), encoding="utf-8")
    return out


@pytest.fixture(scope="module")
def browser():
    b = Browser()
    b.call("Page.addScriptToEvaluateOnNewDocument", {"source": WATCH})
    yield b
    b.close()


INJECTED = """(function () {
  return {calls: window.__calls,
          elements: document.querySelectorAll(
            'img, a, iframe, object, embed, #evil, [onerror], [onload], [href]').length,
          scripts: document.querySelectorAll('script').length,
          text: document.body.textContent, title: document.title};
})()"""


@pytest.mark.parametrize("name,scripts", [("replay", 2), ("refusal", 2), ("record", 2), ("simulate", 0),
                                          ("explain", 0)])
def test_nothing_of_the_strangers_text_runs_or_becomes_markup(pages, browser, name, scripts):
    browser.errors.clear()
    browser.open(pages[name])
    for key in ["End"] + ["ArrowLeft"] * 40 + ["Home"]:       # every step of a hand page is drawn once
        browser.key(key)
    seen = browser.js(INJECTED)
    assert seen["calls"] == [] and seen["elements"] == 0 and seen["scripts"] == scripts, seen
    assert browser.errors == []
    assert seen["title"].startswith(NAME)
    assert NAME in seen["text"]
    if name != "simulate":                                    # the stats page shows the name alone
        assert DESCRIPTION in seen["text"]
    if name == "explain":
        assert SOURCE in seen["text"] and OPTION in seen["text"]


def test_the_replays_failures_and_notes_read_as_text(pages, browser):
    browser.open(pages["replay"])
    assert EVENT in browser.js("document.querySelector('.failures').textContent")
    assert FILE_NAME in browser.js("document.querySelector('header').textContent")
    browser.open(pages["refusal"])
    browser.key("End")
    caption = browser.js("document.getElementById('caption').textContent")
    assert "QD must capture" in caption and REFUSAL in caption, caption
    assert browser.js(INJECTED)["elements"] == 0
