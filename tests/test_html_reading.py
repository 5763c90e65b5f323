"""Reading the pages: the rulebook's words are never cut mid-word, the hand page says what its borders mean.

Both in headless Chromium at 400 and 1000 px wide (tests/browser.py).
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from rulespec.authoring.explain import explain
from rulespec.checks import stage
from rulespec.compiler.build import compile_ruleset
from rulespec.lang import model
from tests.browser import CHROMIUM, LONG, SKIP_REASON, Browser, assert_fits

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason=SKIP_REASON)

# Every word of the page's text (up to 30 letters: a stranger's 2000-letter token must still break) that the
# browser draws on two lines.
_CUT_WORDS = """(function () {
  var cut = [], walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT), node;
  while ((node = walk.nextNode())) {
    var re = /\\S+/g, m;
    while ((m = re.exec(node.data))) {
      if (m[0].length > 30) continue;
      var r = document.createRange(); r.setStart(node, m.index); r.setEnd(node, m.index + m[0].length);
      var tops = {};
      Array.prototype.forEach.call(r.getClientRects(), function (b) { if (b.width > 0) tops[Math.round(b.top)] = 1; });
      if (Object.keys(tops).length > 1) cut.push(m[0]);
    }
  }
  return cut;
})()"""


@pytest.fixture(scope="module")
def browser():
    with Browser() as b:
        yield b


@pytest.mark.parametrize("width", [400, 1000])
@pytest.mark.parametrize("rid", ["cirulla", "cirulla-tournament-cappotto", "scopone-scientifico"])
def test_the_rulebook_never_cuts_a_word(tmp_path, browser, rid, width):
    # overflow-wrap:anywhere let the browser cut any word in a table cell ("cate|gory") at any width.
    page = tmp_path / f"{rid}.html"
    page.write_text(explain(compile_ruleset(rid).ruleset, "html"), encoding="utf-8")
    browser.open(page, width=width)
    assert browser.js(_CUT_WORDS) == []
    assert browser.js("document.documentElement.scrollWidth") <= width


@pytest.mark.parametrize("width", [400, 1000])
def test_a_strangers_unbroken_text_still_fits(tmp_path, browser, width):
    path = tmp_path / "long.yaml"
    path.write_text(LONG, encoding="utf-8")
    page = tmp_path / "long.html"
    page.write_text(explain(stage.check(model.load(path)), "html"), encoding="utf-8")
    assert_fits(browser, page, width)


# ------------------------------------------------------------------ the hand page

def _hand_page(tmp_path, transcript: str) -> Path:
    from rulespec.authoring.html_hand import render_hand
    from rulespec.transcripts.trace import trace_transcript
    page = tmp_path / "hand.html"
    page.write_text(render_hand(trace_transcript(Path(__file__).parent / transcript)), encoding="utf-8")
    return page


_LEGEND = """(function () {
  function look(tag, cls) {
    var e = document.createElement(tag); e.className = cls; document.body.appendChild(e);
    var s = getComputedStyle(e), out = [s.borderTopColor, s.boxShadow, s.outlineStyle, s.outlineColor];
    e.remove(); return out;
  }
  var keys = {};
  document.querySelectorAll("#legend .key").forEach(function (k) {
    var s = getComputedStyle(k), cls = k.className.replace("key ", "");
    keys[cls] = {legend: [s.borderTopColor, s.boxShadow, s.outlineStyle, s.outlineColor], text: k.nextSibling.textContent.trim()};
  });
  return {keys: keys, turn: look("section", "panel turn"), played: look("section", "panel played"),
          shown: look("span", "card shown"), wild: look("span", "card wild")};
})()"""


@pytest.mark.parametrize("width", [400, 1000])
def test_the_hand_page_says_what_its_borders_mean(tmp_path, browser, width):
    page = _hand_page(tmp_path, "golden/cirulla/02-complete-2p-deck-six-rounds.yaml")
    browser.errors.clear()
    browser.open(page, width=width)
    shown = browser.js(_LEGEND)
    assert sorted(shown["keys"]) == ["played", "shown", "turn", "wild"]
    assert shown["keys"]["turn"]["text"] == "the seat to play next"
    for cls in ("turn", "played"):                       # the sample is drawn as the panel it explains
        assert shown["keys"][cls]["legend"][:2] == shown[cls][:2], cls
    for cls in ("shown", "wild"):                        # ... and as the card (an outline's colour if it has one)
        legend, real = shown["keys"][cls]["legend"], shown[cls]
        assert (legend[1], legend[2]) == (real[1], real[2]), cls
        assert real[2] == "none" or legend[3] == real[3], cls
    assert browser.js("document.documentElement.scrollWidth") <= width
    assert browser.errors == []


_PANELS = """(function () {
  return {table: document.getElementById("table").innerText.trim(),
          tableHeight: document.getElementById("table-cards").getBoundingClientRect().height,
          events: document.querySelectorAll("#events li").length,
          eventsNone: getComputedStyle(document.getElementById("events-none")).display !== "none",
          eventsText: document.getElementById("events").parentNode.innerText};
})()"""


@pytest.mark.parametrize("width", [400, 1000])
def test_an_empty_table_and_no_events_are_said_in_words(tmp_path, browser, width):
    # The table showed an empty 62 px box over "(empty)"; the events list "1. none yet".
    page = _hand_page(tmp_path, "golden/cirulla/02-complete-2p-deck-six-rounds.yaml")
    browser.errors.clear()
    browser.open(page, width=width)
    deal = browser.js(_PANELS)
    assert deal["events"] == 0 and deal["eventsNone"] and "1." not in deal["eventsText"]
    assert "none yet" not in deal["eventsText"] and "No events yet." in deal["eventsText"]
    for _ in range(3):                                   # play 3, QS takes QC: a scopa, the table empty
        browser.key("ArrowRight")
    swept = browser.js(_PANELS)
    assert swept["table"] == "No cards on the table." and swept["tableHeight"] < 40
    assert swept["events"] == 1 and not swept["eventsNone"]
    assert browser.errors == []


@pytest.mark.parametrize("width", [400, 1000])
def test_the_hand_page_never_cuts_a_word(tmp_path, browser, width):
    page = _hand_page(tmp_path, "golden/cirulla/32-complete-2p-dealer-15-and-decino-points.yaml")
    browser.open(page, width=width)
    for _ in range(3):
        browser.key("ArrowRight")
    assert browser.js(_CUT_WORDS) == []
    browser.key("End")
    assert browser.js(_CUT_WORDS) == []
