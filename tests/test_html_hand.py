"""`replay --html` / `record --html`: one self-contained page that steps through a hand.

The trace is checked against the transcripts; the page is checked as text
(self-contained, hostile ruleset text escaped) and in a real headless
Chromium (tests/browser.py; skipped with the reason when none is installed):
it loads without console errors, steps forward and back by keys and buttons
to the states the transcript describes, draws Italian suits as SVG, and fits
a 400 px wide window.
"""
import re
from pathlib import Path

import pytest

from rulespec.authoring.html_hand import render_hand
from rulespec.cli.main import run
from rulespec.transcripts.trace import trace_transcript
from tests.browser import CHROMIUM, KEYS, LONG, SKIP_REASON, Browser, assert_fits, reads_left_to_right

GOLDEN = Path(__file__).parent / "golden"
TWO_PLAYERS = GOLDEN / "cirulla" / "02-complete-2p-deck-six-rounds.yaml"
LATIN = GOLDEN / "cirulla-variants" / "cirulla-latin--complete-latin-deck.yaml"

HOSTILE_NAME = '</script><script>document.title="pwned"</script><b id="evil">x</b>'
HOSTILE = f"""\
id: hostile-html
extends: cirulla
name: '{HOSTILE_NAME}'
description: '<img src=x onerror="document.title=1"> & "quotes" </style>'
"""


def test_trace_follows_the_transcript():
    t = trace_transcript(TWO_PLAYERS)
    assert t.ok and t.seats == 2 and t.dealer == 1
    assert len(t.steps) == 37                     # the deal, then 36 plays
    deal = t.steps[0]
    assert deal.hands == [["6D", "6S", "QS"], ["5H", "4D", "KC"]]
    assert deal.table == ["KH", "4S", "QC", "2D"]
    first = t.steps[1]                             # 6S takes 4S 2D
    assert (first.seat, first.card, sorted(first.capture)) == (0, "6S", ["2D", "4S"])
    assert first.table == ["KH", "QC"] and first.hands[0] == ["6D", "QS"]
    third = t.steps[3]                             # QS takes QC: scopa
    assert [e["name"] for e in third.events] == ["scopa"] and third.table == []
    assert third.points[0] == {"scope": 1}
    assert t.score[0]["total"] == 15 and t.score[1]["total"] == 2
    # The last play leaves 7D 5D QD on the table; they go to side 0, the last to capture.
    assert t.leftovers["side"] == 0 and sorted(t.leftovers["cards"]) == ["5D", "7D", "QD"]


def test_trace_of_an_expected_refusal_notes_it():
    t = trace_transcript(GOLDEN / "cirulla" / "25-forced-capture-refused.yaml")
    assert t.ok
    assert t.steps[-1].note.startswith("refused, as the transcript expects")


def test_page_is_self_contained():
    text = render_hand(trace_transcript(TWO_PLAYERS))
    assert text.startswith("<!DOCTYPE html>")
    assert not re.search(r"<(link|img|iframe|object|embed)\b", text)
    assert not re.search(r"\bsrc=", text)
    # The one address in it is the SVG namespace name, which is never fetched.
    assert set(re.findall(r"https?://[^\s\"']+", text)) == {"http://www.w3.org/2000/svg"}
    assert "default-src 'none'" in text


def test_hostile_ruleset_text_is_escaped(tmp_path):
    (tmp_path / "hostile.yaml").write_text(HOSTILE, encoding="utf-8")
    out = tmp_path / "hand.html"
    assert run(["record", str(tmp_path / "hostile.yaml"), "--seed", "1", "-o", str(tmp_path / "t.yaml"),
                "--html", str(out)]) == 0
    text = out.read_text(encoding="utf-8")
    assert HOSTILE_NAME not in text and '<img src=x' not in text and "</style>'" not in text
    assert "&lt;/script&gt;&lt;script&gt;" in text
    # Exactly the page's own two script elements and one style element.
    assert len(re.findall(r"<script\b", text)) == 2 and len(re.findall(r"</script>", text)) == 2
    assert len(re.findall(r"</style>", text)) == 1


def test_replay_html_needs_one_transcript(tmp_path, capsys):
    code = run(["replay", str(TWO_PLAYERS), str(LATIN), "--html", str(tmp_path / "x.html")])
    assert code == 2
    assert "--html draws one hand: give one transcript file, not 2" in capsys.readouterr().err
    assert not (tmp_path / "x.html").exists()


def test_replay_html_writes_the_page_and_still_replays(tmp_path, capsys):
    out = tmp_path / "hand.html"
    assert run(["replay", str(TWO_PLAYERS), "--html", str(out)]) == 0
    printed = capsys.readouterr().out
    assert f"wrote {out}" in printed and "1 passed, 0 failed" in printed
    assert '"ruleset_id":"cirulla"' in out.read_text(encoding="utf-8")


def test_record_html_to_stdout_keeps_stdout_a_transcript(tmp_path, capsys):
    out = tmp_path / "hand.html"
    assert run(["record", "cirulla", "--seed", "4", "--html", str(out)]) == 0
    captured = capsys.readouterr()
    assert captured.out.startswith("# recorded") and "wrote" not in captured.out
    assert f"wrote {out}" in captured.err
    assert out.read_text(encoding="utf-8").count('"number":') == 37   # the deal and 36 plays of 4 seats


# ------------------------------------------------------------------ in a real browser

needs_browser = pytest.mark.skipif(CHROMIUM is None, reason=SKIP_REASON)


@pytest.fixture(scope="module")
def browser():
    if CHROMIUM is None:
        pytest.skip(SKIP_REASON)
    b = Browser()
    yield b
    b.close()


def _state(browser):
    return browser.js("""(function () {
      function names(sel) { return Array.prototype.map.call(document.querySelectorAll(sel + " .card"),
                                                              function (c) { return c.dataset.card; }); }
      var hands = [];
      document.querySelectorAll("#seats .panel").forEach(function (p) { hands.push(names("#" + p.id)); });
      return {step: document.body.dataset.step, table: names("#table"), hands: hands,
              where: document.getElementById("where").textContent};
    })()""")


def _expected(trace, n):
    s = trace.steps[n]
    return {"step": str(n), "table": s.table, "hands": s.hands}


def recorded_page(tmp_path, ruleset_text: str):
    """The hand page `rulespec record --html` writes for a hand of the ruleset written as `ruleset_text`."""
    (tmp_path / "v.yaml").write_text(ruleset_text, encoding="utf-8")
    out = tmp_path / "hand.html"
    assert run(["record", str(tmp_path / "v.yaml"), "--seed", "1", "-o", str(tmp_path / "t.yaml"),
                "--html", str(out)]) == 0
    return out


def open_hand(browser, page, trace, width: int = 1000):
    """The hand page of `trace`, written to `page` and opened `width` pixels wide, console errors cleared."""
    page.write_text(render_hand(trace), encoding="utf-8")
    browser.errors.clear()
    browser.open(page, width=width)
    return page


@needs_browser
def test_page_steps_forward_and_back_as_the_transcript(browser, tmp_path):
    trace = trace_transcript(TWO_PLAYERS)
    open_hand(browser, tmp_path / "hand.html", trace)
    state = _state(browser)
    assert {k: state[k] for k in ("step", "table", "hands")} == _expected(trace, 0)
    assert state["where"] == "deal"
    for _ in range(5):
        browser.key("ArrowRight")
    state = _state(browser)
    assert {k: state[k] for k in ("step", "table", "hands")} == _expected(trace, 5)
    assert state["where"] == "play 5 of 36"
    # The captures so far, in order: plays 1 (6S takes 4S 2D), 2 (5H takes KH) and 3 (QS takes QC).
    captures = browser.js("Array.prototype.map.call(document.querySelectorAll('#captures li'), function (li) {"
                          " return Array.prototype.map.call(li.querySelectorAll('.card'), function (c) {"
                          " return c.dataset.card; }).join(' '); })")
    assert captures == ["6S 2D 4S", "5H KH", "QS QC"]
    browser.click("#prev")
    browser.click("#prev")
    assert {k: v for k, v in _state(browser).items() if k != "where"} == _expected(trace, 3)
    browser.click("#next")
    assert _state(browser)["step"] == "4"
    browser.key("End")
    state = _state(browser)
    assert state["step"] == "36" and state["table"] == [] and state["hands"] == [[], []]
    assert browser.js("document.getElementById('score').textContent").count("total") == 1
    browser.key("Home")
    assert _state(browser)["step"] == "0"
    browser.key("ArrowLeft")                    # before the deal there is nothing: it stays
    assert _state(browser)["step"] == "0"
    assert browser.errors == []
    browser.screenshot(tmp_path / "french.png")
    assert (tmp_path / "french.png").stat().st_size > 1000


@needs_browser
def test_page_opens_at_a_step_named_in_the_address(browser, tmp_path):
    trace = trace_transcript(TWO_PLAYERS)
    page = tmp_path / "hand.html"
    page.write_text(render_hand(trace), encoding="utf-8")
    browser.open(Path(str(page)), width=800)
    browser.js("location.hash = '#step-11'; location.reload(); 0")
    browser.loaded = False
    while not browser.loaded:
        browser._event(browser._read())
    assert {k: v for k, v in _state(browser).items() if k != "where"} == _expected(trace, 11)


@needs_browser
def test_italian_suits_drawn_and_400px_wide_fits(browser, tmp_path):
    trace = trace_transcript(LATIN)
    assert trace.deck["id"] == "latin40"
    open_hand(browser, tmp_path / "latin.html", trace, width=400)
    assert browser.js("document.querySelectorAll('#seats .card svg').length") == 12     # 4 seats x 3 cards
    assert browser.js("document.querySelectorAll('#seats .card .pip').length") == 0
    titles = browser.js("Array.prototype.map.call(document.querySelectorAll('.card'), function (c) {"
                        " return c.title; })")
    assert any(" di coppe" in t for t in titles) or any(" di denari" in t for t in titles)
    for n in (0, 7, len(trace.steps) - 1):
        browser.js(f"document.getElementById('slider').value = '{n}';"
                   "document.getElementById('slider').dispatchEvent(new Event('input')); 0")
        width = browser.js("[document.documentElement.scrollWidth, document.body.scrollWidth, window.innerWidth]")
        assert max(width[:2]) <= width[2] == 400, (n, width)
    assert browser.errors == []
    browser.screenshot(tmp_path / "latin.png")


@needs_browser
def test_hostile_page_runs_none_of_its_text(browser, tmp_path):
    out = recorded_page(tmp_path, HOSTILE)
    browser.errors.clear()
    browser.open(out)
    assert browser.js("document.title") == HOSTILE_NAME + ": a hand"
    assert browser.js("document.getElementById('evil')") is None
    assert browser.js("document.querySelectorAll('script').length") == 2
    assert browser.js("document.querySelector('h1').textContent").startswith(HOSTILE_NAME)
    assert browser.errors == []


REFUSED = GOLDEN / "cirulla" / "25-forced-capture-refused.yaml"


def test_trace_marks_a_refused_play():
    t = trace_transcript(REFUSED)
    assert t.steps[-1].refused and not any(s.refused for s in t.steps[:-1])


@needs_browser
def test_a_refused_play_is_not_shown_as_made(browser, tmp_path):
    # 25: seat 1's 2D could capture, so playing it without a capture is refused: the page must
    # not say it was played and took nothing; the card stays in the hand and off the table.
    trace = trace_transcript(REFUSED)
    open_hand(browser, tmp_path / "refused.html", trace)
    browser.key("End")
    caption = browser.js("document.getElementById('caption').textContent")
    assert "tries to play 2\u2666" in caption and "refused" in caption, caption
    assert "takes nothing" not in caption and " plays " not in caption, caption
    state = _state(browser)
    assert "2D" in state["hands"][1] and "2D" not in state["table"]
    assert browser.errors == []


RLO = "\u202e"      # RIGHT-TO-LEFT OVERRIDE: draws what follows it backwards, until the paragraph ends


@needs_browser
def test_a_right_to_left_override_stays_inside_the_strangers_text(browser, tmp_path):
    # The ruleset's name and the transcript's file name may hold an override; the page's own words
    # after them (the id, the seat count) must still read left to right.
    (tmp_path / "bidi.yaml").write_text(f"id: bidi\nextends: cirulla\nname: 'Cirulla {RLO}abc'\n", encoding="utf-8")
    out = tmp_path / "hand.html"
    assert run(["record", str(tmp_path / "bidi.yaml"), "--seed", "1", "-o", str(tmp_path / f"t{RLO}x.yaml"),
                "--html", str(out)]) == 0
    browser.errors.clear()
    browser.open(out)
    assert reads_left_to_right(browser, "h1", "(bidi)")
    assert reads_left_to_right(browser, "header p.meta:last-child", "4 seats, 2 sides")
    assert RLO + "abc" in browser.js("document.querySelector('h1').textContent")      # the text itself is kept
    assert browser.errors == []


@needs_browser
def test_the_longest_unbroken_name_and_description_wrap_at_400px(browser, tmp_path):
    # The schema allows a 200-character name and a 2000-character description with no space in them.
    assert_fits(browser, recorded_page(tmp_path, LONG))


@needs_browser
def test_no_empty_score_table_when_no_event_scores(browser, tmp_path):
    # 25 ends at a refused first play: nothing has scored, so the page says so instead of an empty table.
    open_hand(browser, tmp_path / "refused.html", trace_transcript(REFUSED))
    assert "no events score in this hand" in browser.js("document.getElementById('score').textContent")
    assert browser.js("document.querySelectorAll('#score table').length") == 0


@needs_browser
def test_only_the_pages_own_script_may_run(browser, tmp_path):
    # The policy names the page's script by its hash: were an escape ever missed, an injected inline
    # handler would not run, and the page's own script still does.
    page = tmp_path / "hand.html"
    page.write_text(render_hand(trace_transcript(TWO_PLAYERS)), encoding="utf-8")
    assert "'unsafe-inline'" not in re.search(r"script-src [^;\"]*", page.read_text(encoding="utf-8")).group(0)
    browser.open(page)
    assert _state(browser)["step"] == "0"                       # the page's own script ran
    browser.js("document.body.insertAdjacentHTML('beforeend', '<img src=\"x.png\" onerror=\"window.ran = 1\">'); 0")
    browser.call("Runtime.evaluate", {"expression": "new Promise(function (done) { setTimeout(done, 200); })",
                                      "awaitPromise": True})
    assert browser.js("window.ran === undefined")
    browser.errors.clear()


# Complete hands of every shape: 2, 3, 4, 5 and 6 seats, knocks, declarations, a wild card, a refusal.
EVERY_STEP = [GOLDEN / p for p in (
    "recorded/cirulla-3p-seed3.yaml", "recorded/cirulla-a-cinque-seed7.yaml",
    "recorded/cirulla-knock-after-deal-seed7.yaml", "recorded/cicera-seed7.yaml",
    "recorded/cirullone-sequential-seed7.yaml", "escoba/10-complete-6-players.yaml",
    "cirulla/32-complete-2p-dealer-15-and-decino-points.yaml", "cirulla/25-forced-capture-refused.yaml")]
SHOWN = """(function () {
  function names(root) { return Array.prototype.map.call(root.querySelectorAll(".card"),
                                                         function (c) { return c.dataset.card; }); }
  function texts(sel) { return Array.prototype.map.call(document.querySelectorAll(sel),
                                                        function (e) { return e.textContent; }); }
  return {step: document.body.dataset.step, table: names(document.getElementById("table")),
          hands: Array.prototype.map.call(document.querySelectorAll("#seats .panel"), names),
          caption: names(document.getElementById("caption")),
          captures: Array.prototype.map.call(document.querySelectorAll("#captures li"), names),
          events: texts("#events li"), piles: texts("#piles .pile"),
          score: Array.prototype.map.call(document.querySelectorAll("#score tr"), function (tr) {
            return Array.prototype.map.call(tr.children, function (c) { return c.textContent; }); })};
})()"""


def _shown_as(trace, doc, n) -> dict:
    """What the page must show at step n: from the trace (the engine's replay) and the transcript's play."""
    s = trace.steps[n]
    last = n == len(trace.steps) - 1 and trace.score
    cats = trace.categories + ["total"] if last else [
        c for c in trace.categories if any(e["category"] == c for st in trace.steps for e in st.events)]
    rows = [[c] + [str((trace.score[side] if last else s.points[side]).get(c, 0)) for side in range(trace.sides)]
            for c in cats]
    caption = []
    if n:
        play = doc["plays"][n - 1]
        assert (play["seat"], play.get("card")) == (s.seat, s.card)
        if "error" not in play:
            assert sorted(play.get("capture") or []) == sorted(s.capture)
        caption = ([s.card] if s.card else []) + s.capture + \
            (trace.leftovers["cards"] if n == len(trace.steps) - 1 and trace.leftovers else [])
    events = [e for st in trace.steps[:n + 1] for e in st.events]
    return {"step": str(n), "table": s.table, "hands": s.hands, "caption": caption,
            "captures": [[st.card] + st.capture for st in trace.steps[1:n + 1] if st.capture],
            "events": len(events),
            "piles": [f"side {side}: {len(p)} cards captured" for side, p in enumerate(s.piles)],
            "score": [["category"] + [f"side {side}" for side in range(trace.sides)]] + rows if rows else []}


@needs_browser
@pytest.mark.parametrize("path", EVERY_STEP, ids=lambda p: p.stem)
def test_every_step_shows_what_the_replay_and_the_transcript_say(browser, tmp_path, path):
    import yaml
    trace = trace_transcript(path)
    doc = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert trace.ok and len(trace.steps) == len(doc["plays"]) + 1
    open_hand(browser, tmp_path / "hand.html", trace)
    for n in range(len(trace.steps)):
        if n:
            browser.key("ArrowRight")
        shown = browser.js(SHOWN)
        shown["events"] = len(shown["events"])
        assert shown == _shown_as(trace, doc, n), (path.name, n)
    browser.key("ArrowRight")                                   # past the end: it stays
    assert browser.js("document.body.dataset.step") == str(len(trace.steps) - 1)
    assert browser.errors == []


def test_a_refusal_note_gives_the_engines_reason(tmp_path):
    # A transcript's `error:` is not compared with the engine's words (any refusal passes): the note
    # must say why the engine refused, not only what the transcript wrote.
    text = REFUSED.read_text(encoding="utf-8").replace('error: "2D can capture, so it must"', 'error: "no, no"')
    assert 'error: "no, no"' in text
    (tmp_path / "t.yaml").write_text(text, encoding="utf-8")
    reason = "refused, as the transcript expects: 2D must capture: it can take KD 3C or JH 5S"
    assert trace_transcript(tmp_path / "t.yaml").steps[-1].note == reason + " (the transcript says: no, no)"
    assert trace_transcript(REFUSED).steps[-1].note == reason + " (the transcript says: 2D can capture, so it must)"


@needs_browser
def test_keys_with_a_modifier_are_left_to_the_browser(browser, tmp_path):
    # Alt+← is the browser's Back, Ctrl+End and the like are the browser's too: the page steps on plain keys only.
    open_hand(browser, tmp_path / "hand.html", trace_transcript(TWO_PLAYERS))
    browser.key("ArrowRight")
    browser.key("ArrowRight")
    for name, modifiers in (("ArrowLeft", 1), ("ArrowRight", 2), ("Home", 4), ("End", 2)):   # Alt, Ctrl, Meta
        for kind in ("rawKeyDown", "keyUp"):
            browser.call("Input.dispatchKeyEvent", {"type": kind, "key": name, "code": name, "modifiers": modifiers,
                                                    "windowsVirtualKeyCode": KEYS[name]})
        assert browser.js("document.body.dataset.step") == "2", name


JOKERS = Path(__file__).parent / "gaps" / "jokers-short-deal.transcript.yaml"     # 15X 20X 25X, as Zwicker's


def test_the_trace_names_the_decks_extra_cards():
    assert trace_transcript(JOKERS).deck["extra"] == {"15X": "small joker", "20X": "middle joker",
                                                      "25X": "large joker"}


@needs_browser
def test_a_joker_is_drawn_as_a_joker_not_an_unknown_suit(browser, tmp_path):
    trace = trace_transcript(JOKERS)
    open_hand(browser, tmp_path / "jokers.html", trace)
    drawn = browser.js("""Array.prototype.map.call(document.querySelectorAll('.card'), function (c) {
      return [c.dataset.card, c.querySelector('.pip') ? c.querySelector('.pip').textContent : '', c.title,
              c.classList.contains('extra')]; })""")
    jokers = {name: (pip, title, extra) for name, pip, title, extra in drawn if name.endswith("X")}
    assert set(jokers) == {"15X", "20X", "25X"}        # the deal: 20X on the table, 15X and 25X in hands
    assert jokers["15X"] == ("\u2605", "15X: small joker", True)
    assert jokers["25X"] == ("\u2605", "25X: large joker", True)
    assert all(pip != "?" for _, pip, _, _ in drawn)
    assert not any(extra for name, _, _, extra in drawn if not name.endswith("X"))
    assert browser.errors == []


@needs_browser
def test_a_build_of_two_owners_names_both(browser, tmp_path):
    # capture.builds.owners: per_side (seep): the trace gives a build's owners as a list; the page says each
    trace = trace_transcript(GOLDEN / "seep" / "08-a-second-set-joins-the-house.yaml")
    assert trace.steps[-1].builds[0]["owner"] == [1, 2] and trace.steps[-2].builds[0]["owner"] == 1
    open_hand(browser, tmp_path / "hand.html", trace)
    browser.key("End")
    said = browser.js("Array.prototype.map.call(document.querySelectorAll('p.build'),"
                      " function (p) { return p.firstChild.textContent; })")
    assert said == ["Build of 10 (seat 1's and seat 2's, fixed): "]
    browser.key("ArrowLeft")
    said = browser.js("Array.prototype.map.call(document.querySelectorAll('p.build'),"
                      " function (p) { return p.firstChild.textContent; })")
    assert said == ["Build of 10 (seat 1's): "]
    assert browser.errors == []
