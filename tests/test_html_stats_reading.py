"""Reading the simulate and compare pages: no word or number of their tables is cut mid-word.

In headless Chromium at 400 and 1000 px wide (tests/browser.py); a table wider than the page scrolls
inside its own box instead.
"""
from __future__ import annotations

import io

import pytest

from rulespec.cli.main import run
from tests.browser import CHROMIUM, SKIP_REASON, Browser, assert_fits
from tests.test_html_reading import _CUT_WORDS

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason=SKIP_REASON)

# A variant with a new hand bonus, event and category: the event table's widest rows.
VARIANT = """\
id: house
extends: cirulla
hand_bonuses:
  corte:
    size: 3
    when: count(cards, rank in ["J", "Q", "K"]) == 3 and not same_rank(cards)
    points: 2
    category: scope
events:
  ultima: {when: last_play and not empty(captured), points: 1, category: scope}
scoring:
  re: {points: '1 if most(count(pile, rank == "K")) else 0'}
"""


@pytest.fixture(scope="module")
def pages(tmp_path_factory):
    folder = tmp_path_factory.mktemp("pages")
    variant = folder / "house.yaml"
    variant.write_text(VARIANT, encoding="utf-8")
    out = {"simulate": folder / "sim.html", "compare": folder / "cmp.html"}
    common = ["--hands", "12", "--seed", "1", "--workers", "1", "--html"]
    assert run(["simulate", str(variant), *common, str(out["simulate"])], io.StringIO(), io.StringIO()) == 0
    assert run(["simulate", str(variant), "--compare", "cirulla", *common, str(out["compare"])],
               io.StringIO(), io.StringIO()) == 0
    return out


@pytest.fixture(scope="module")
def browser():
    with Browser() as b:
        yield b


@pytest.mark.parametrize("width", [400, 1000])
@pytest.mark.parametrize("which", ["simulate", "compare"])
def test_the_statistics_pages_never_cut_a_word(pages, browser, which, width):
    # overflow-wrap:anywhere on the body let a narrow page cut "kin|d", "poin|ts", "0.47|3" in the tables.
    browser.open(pages[which], width=width)
    assert browser.js(_CUT_WORDS) == []
    assert_fits(browser, pages[which], width)


# Every text of the page's SVG plots drawn past its plot's box (the browser clips it).
_CLIPPED = """(function () {
  var out = [];
  document.querySelectorAll("svg").forEach(function (svg) {
    var box = svg.getBoundingClientRect();
    svg.querySelectorAll("text").forEach(function (t) {
      var b = t.getBoundingClientRect();            // drawn, so a rotated label's box is its drawn one
      if (b.left < box.left - 0.5 || b.right > box.right + 0.5) out.push(svg.id + ": " + t.textContent);
    });
  });
  return out;
})()"""


@pytest.mark.parametrize("which", ["simulate", "compare"])
def test_no_label_of_the_plots_is_clipped(pages, browser, which):
    # The compare plots' right-hand tick ("+1.06") was centred on the plot's last 12 px and cut to "+1.0".
    browser.open(pages[which], width=1000)
    assert browser.js(_CLIPPED) == []
