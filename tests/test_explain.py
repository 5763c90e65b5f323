"""`rulespec explain`: expressions in words, the rulebook's sections, and escaping in both formats."""
from __future__ import annotations

import io
import re
import textwrap
from pathlib import Path

import pytest

from rulespec.compiler.build import compile_ruleset
from rulespec.checks import check, stage
from rulespec.lang import model
from rulespec.cli.main import run
from rulespec.authoring.explain import Block, explain, render_html, render_markdown
from rulespec.lang.expressions import parse
from rulespec.errors import Span
from rulespec.source.rulesets import shipped_ids
from rulespec.lang.words import Words, code, plain, source
from tests.browser import CHROMIUM, LONG, SKIP_REASON, Browser, assert_fits, reads_left_to_right

# (where the expression is written, expression, words)
PHRASES = [
    ("deal", 'count(table, rank == "A") >= 2', "the table holds two or more aces"),
    ("deal", 'count(table, rank == "A") == 0', "the table holds no aces"),
    ("deal", 'not count(table, rank == "A") >= 2', "the table holds fewer than two aces"),
    ("deal", "can_total(table, 15)",
     "the cards on the table together total 15 (the wild card counting as any value from 1 to 10)"),
    ("deal", "not can_total(table, 15)",
     "the cards on the table do not total 15 together (the wild card counting as any value from 1 to 10)"),
    ("deal", "subset_total(table, 15)",
     "some group of one or more cards of the table totals 15 (the wild card counting as any value from 1 to 10)"),
    ("deal", "max_same_rank(table) == 4", "the table holds exactly four cards of one rank"),
    ("deal", 'count(table, rank in ["J", "Q", "K"]) > 1', "the table holds more than one jack, queen or king"),
    # One of a kind is singular, the verb agrees with the whole subject, "different ... from" (an author's day).
    ("deal", 'count(table, rank == "J") == 1', "the table holds exactly one jack"),
    ("deal", 'count(table, suit == "D") == 1', "the table holds exactly one card of diamonds"),
    ("deal", "count(table, numbered) <= 1", "the table holds at most one numbered card"),
    ("event", "count(captured) == 1", "exactly one card is captured"),
    ("event", "count(captured) <= 2", "two or fewer cards are captured"),
    ("event", "holds(captured | played, 7D)",
     "the captured cards together with the played card include the seven of diamonds (7D)"),
    ("deal", 'holds(select(table, rank == "J"), JD)', "the jacks of the table include the jack of diamonds (JD)"),
    ("event", "rank(played) != rank(previous)",
     "the played card has a different rank from the card the previous play left on the table"),
    ("event", "rank(played) == rank(previous)",
     "the played card has the same rank as the card the previous play left on the table"),
    ("bonus", "total(cards) <= 9", "the values of the declared cards total 9 or less"),
    ("bonus", "same_value(cards)", "the declared cards are all of the same value"),
    ("bonus", "value(cards) <= 3", "the declared card has a value of 3 or less"),
    ("bonus", "holds_all(cards, [JD, QD, KD])",
     "the declared cards include the jack, queen and king of diamonds (JD QD KD)"),
    ("event", "not empty(captured) and empty(table) and not last_play",
     "the play captures something and the table is empty and it is not the hand's last play"),
    ("event", "count(captured) >= 3", "three or more cards are captured"),
    ("event", 'rank(played) == "A"', "the played card is an ace"),
    ("event", "empty(captured) or last_play", "the play captures nothing or it is the hand's last play"),
    ("event", "not (empty(captured) or last_play)",
     "neither the play captures nothing nor it is the hand's last play"),
    ("score", "1 if most(count(pile)) else 0", "1 point to the side with the most cards (nobody on a tie)"),
    ("score", '1 if most(count(pile, suit == "D")) else 0',
     "1 point to the side with the most diamonds (nobody on a tie)"),
    ("score", "5 if holds_all(pile, [JD, QD, KD]) else 0",
     "5 points if the side has captured the jack, queen and king of diamonds (JD QD KD), else 0"),
    ("score", 'count(pile, suit == "D") == count(deck, suit == "D")', "the side has captured all the diamonds"),
    ("score", "run(pile, [AD, 2D, 3D]) if holds(pile, AD) else 0",
     "if the side has captured the ace of diamonds (AD): one point per card of the run AD 2D 3D that the side "
     "has captured from its first card without a gap; otherwise 0"),
    # Arithmetic and choices in words, grouped where the words alone would regroup them (issue 14).
    ("deal", "total(table - wild) + (1 if holds(table, wild) else 0) <= 9",
     "the total value of the table except the wild card plus (1 if the table holds the wild card, otherwise 0) "
     "is 9 or less"),
    ("deal", "count(table) - (count(table, rank == \"A\") - 1) * 2 > 0",
     "the number of cards in the table minus (the number of aces in the table minus 1) times 2 is more than 0"),
    # A filter with no noun of its own: its condition, about the card tested.
    ("event", "count(captured, suit != suit(played)) == 0",
     "the captured cards include no cards for which the card's suit is other than the suit of the played card"),
    ("event", "count(captured, card != played and numbered) >= 1",
     "the captured cards include one or more cards for which the card is not the played card and the card has a "
     "capture value"),
]

NAMES = {"deal": check.TABLE_NAMES, "bonus": check.BONUS_NAMES, "event": check.EVENT_NAMES,
         "score": check.SCORE_NAMES}


@pytest.fixture(scope="module")
def cirulla_rs():
    return compile_ruleset("cirulla").ruleset


@pytest.mark.parametrize("place, text, words", PHRASES, ids=[t for _, t, _ in PHRASES])
def test_expression_in_words(cirulla_rs, place, text, words):
    tree = parse(text, Span("w.yaml", 1, 1))
    typ = check.tc.check(tree, check.context(cirulla_rs, NAMES[place], allow_most=place == "score"))
    w = Words(cirulla_rs, "score" if place == "score" else "")
    said = w.points(tree) if place == "score" and str(typ) == "int" else w.condition(tree)
    assert plain(said) == words


@pytest.mark.parametrize("text", ["a if b else c if d else e", "(a if b else c) if d else e", "not (a and b)",
                                  "a - (b - c)", "a - b - c", "-(a + b)", "(a | b) & c", "a | b & c",
                                  'x(a, [AD, 2D], {"7": 21})', "(a == b) == c"])
def test_source_keeps_only_the_parentheses_it_needs(text):
    from rulespec.lang.expressions import to_text
    tree = parse(text, Span("w.yaml", 1, 1))
    again = source(tree)
    assert to_text(parse(again, Span("w.yaml", 1, 1))) == to_text(tree)
    assert again == text or len(again) < len(text)


def test_cirulla_rulebook(cirulla_rs):
    text = explain(cirulla_rs)
    for line in [
        "# Cirulla",
        "## The deal",
        "- Round 1: 3 cards to each player, then 4 face up on the table.",
        "- The deck makes 6 rounds with 2 players, 4 rounds with 3 players and 3 rounds with 4 players.",
        "- **redeal**: if the table holds two or more aces, the same dealer gathers the cards and deals again.",
        "## Hand bonuses",
        "| `carte` | 1 point to the side with the most cards (nobody on a tie) |",
        "- **cappotto**: a side that has captured all the diamonds at the end of a hand wins the game at once.",
    ]:
        assert line in text.splitlines()


@pytest.mark.parametrize("rid", shipped_ids())
def test_every_shipped_ruleset_explains(rid):
    rs = compile_ruleset(rid).ruleset
    md, page = explain(rs), explain(rs, "html")
    assert md.startswith("# ")
    assert page.count("<html") == 1 and page.rstrip().endswith("</html>")
    assert "\x02" not in md + page and "\x03" not in md + page


HOSTILE = """\
    id: hostile
    extends: cirulla
    name: "<script>alert(1)</script> & *bold* [link](x) | `tick`"
    description: "<img src=x onerror=alert(1)> \\x02code\\x03 # not a heading"
    scoring:
      pipes: {points: "count(select(pile, suit == \\"D\\") | select(pile, rank == \\"K\\")) // 2"}
    """


def test_html_escapes_everything(tmp_path):
    path = tmp_path / "h.yaml"
    path.write_text(textwrap.dedent(HOSTILE), encoding="utf-8")
    page = explain(stage.check(model.load(path)), "html")
    assert "<script>" not in page and "<img" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt; &amp; *bold*" in page
    assert page.count("<code>") == page.count("</code>")
    # An expression with no phrase is code (none of the language's constructs is, since issue 14, so the
    # renderer is given one directly): escaped inside <code>.
    raw = render_html([Block("p", "x " + code('count(select(pile, suit == "D") | pile) < 2'))])
    assert "<code>count(select(pile, suit == &quot;D&quot;) | pile) &lt; 2</code>" in raw


def test_markdown_escapes_everything(tmp_path):
    path = tmp_path / "h.yaml"
    path.write_text(textwrap.dedent(HOSTILE), encoding="utf-8")
    md = explain(stage.check(model.load(path)))
    assert md.splitlines()[0] == r"# \<script\>alert(1)\</script\> \& \*bold\* \[link\](x) \| \`tick\`"
    assert "\\<img src=x onerror=alert(1)\\> code \\# not a heading" in md
    row = next(line for line in md.splitlines() if line.startswith("| `pipes`"))
    assert row.count(" | ") == 1
    # Inside a table cell, a | in code is escaped too, so the row keeps its two cells.
    table = render_markdown([Block("table", [["a", "b"], [code("pipes"), code("x | y")]])])
    row = table.splitlines()[-1]
    assert "\\|" in row and row.count(" | ") == 1


def test_explain_command(capsys):
    out, err = io.StringIO(), io.StringIO()
    assert run(["explain", "cirullone", "--format", "html"], out, err) == 0
    assert out.getvalue().startswith("<!DOCTYPE html>") and err.getvalue() == ""
    out = io.StringIO()
    assert run(["explain", "cirulla-short"], out, err) == 0
    assert "if a side has 26 or more points in all" in out.getvalue()


def test_a_winning_deal_is_explained_as_an_outcome():
    text = explain(compile_ruleset("cirulla-luzzati").ruleset, "markdown")
    assert "the dealer's side wins the game at once (outcome `capotun`)." in text
    assert "(event `capotun`)" not in text


def test_italian_suits_read_as_english_plurals():
    # "the most spade" / "the two of spade" read as broken English: the phrases name the suit in English
    # (the rules say "most swords"), the deck line gives both names.
    out, err = io.StringIO(), io.StringIO()
    assert run(["explain", "cicera"], out, err) == 0
    text = out.getvalue()
    assert "the side with the most swords (nobody on a tie)" in text
    assert "the two of swords (2S)" in text and "the ace, two and three of swords (AS 2S 3S)" in text
    assert "spade (swords, S)" in text and "coppe (cups, C)" in text
    assert "most spade " not in text and "of spade " not in text
    out = io.StringIO()
    assert run(["explain", "cirulla"], out, err) == 0
    assert "suits hearts (H), diamonds (D), clubs (C), spades (S)" in out.getvalue()


def test_a_right_to_left_override_is_kept_inside_the_strangers_text(tmp_path):
    # An override in the source (or the name) would draw the rulebook's own words after it backwards,
    # in the browser and in a Markdown viewer alike: each stranger's text is isolated (FSI ... PDI).
    path = tmp_path / "b.yaml"
    path.write_text("id: b\nextends: cirulla\nname: 'Cirulla \u202eabc'\nsource: 'x\u202ey \u2069z'\n",
                    encoding="utf-8")
    rs = stage.check(model.load(path))
    md = explain(rs)
    assert "source: \u2068x\u202ey z\u2069. Generated" in md        # its own isolate marks dropped
    assert md.splitlines()[0] == "# \u2068Cirulla \u202eabc\u2069"
    plain_md = explain(stage.check(model.load(Path(__file__).parent.parent / "rulesets" / "cirulla.yaml")))
    assert "\u2068" not in plain_md                                           # text with no override: unchanged


@pytest.mark.skipif(CHROMIUM is None, reason=SKIP_REASON)
def test_a_right_to_left_override_stays_inside_it_in_a_browser(tmp_path):
    path = tmp_path / "b.yaml"
    path.write_text("id: b\nextends: cirulla\nname: 'Cirulla \u202eabc'\nsource: 'x\u202ey'\n", encoding="utf-8")
    page = tmp_path / "b.html"
    page.write_text(explain(stage.check(model.load(path)), "html"), encoding="utf-8")
    b = Browser()
    try:
        b.open(page)
        assert reads_left_to_right(b, "p", "Generated from the ruleset")
        assert b.errors == []
    finally:
        b.close()


@pytest.mark.skipif(CHROMIUM is None, reason=SKIP_REASON)
def test_the_longest_unbroken_name_and_description_wrap_at_400px(tmp_path):
    path = tmp_path / "long.yaml"
    path.write_text(LONG, encoding="utf-8")
    page = tmp_path / "long.html"
    page.write_text(explain(stage.check(model.load(path)), "html"), encoding="utf-8")
    with Browser() as b:
        assert_fits(b, page)


@pytest.mark.skipif(CHROMIUM is None, reason=SKIP_REASON)
def test_the_rulebook_page_forbids_script_and_fetching(tmp_path):
    # Defence in depth, as on the other pages: were an escape ever missed, an injected handler would not run.
    page = tmp_path / "c.html"
    page.write_text(explain(stage.check(model.load(Path(__file__).parent.parent / "rulesets" / "cirulla.yaml")),
                            "html"), encoding="utf-8")
    assert "default-src 'none'" in page.read_text(encoding="utf-8")
    b = Browser()
    try:
        b.open(page)
        b.js("document.body.insertAdjacentHTML('beforeend', '<img src=\"x.png\" onerror=\"window.ran = 1\">'); 0")
        b.call("Runtime.evaluate", {"expression": "new Promise(function (done) { setTimeout(done, 200); })",
                                    "awaitPromise": True})
        assert b.js("window.ran === undefined")
        assert b.js("document.querySelector('meta[name=viewport]') !== null")
    finally:
        b.close()


def _markdown_outline(md: str) -> dict:
    """Headings (unescaped, code marks dropped), list items, tables and table rows of a Markdown rulebook."""
    def text(line):
        return re.sub(r"\\(.)", r"\1", line.lstrip("#").strip()).replace("`", "")
    lines = md.splitlines()
    return {"headings": [text(x) for x in lines if x.startswith("#")],
            "items": sum(1 for x in lines if x.startswith("- ")),
            "tables": sum(1 for x in lines if x.startswith("|---")),
            "rows": sum(1 for x in lines if x.startswith("| "))}


@pytest.mark.skipif(CHROMIUM is None, reason=SKIP_REASON)
def test_the_html_rulebook_has_every_section_of_the_markdown(tmp_path):
    b = Browser()
    try:
        for rid in shipped_ids():
            rs = compile_ruleset(rid).ruleset
            page = tmp_path / f"{rid}.html"
            page.write_text(explain(rs, "html"), encoding="utf-8")
            b.open(page)
            shown = b.js("""(function () {
              function n(sel) { return document.querySelectorAll(sel).length; }
              return {headings: Array.prototype.map.call(document.querySelectorAll('h1, h2, h3'),
                                                         function (h) { return h.textContent; }),
                      items: n('li'), tables: n('table'), rows: n('tr')};
            })()""")
            assert shown == _markdown_outline(explain(rs)), rid
        assert b.errors == []
    finally:
        b.close()


def test_an_event_with_no_points_of_its_own_is_said_counted_and_where_it_scores():
    # kasino's mokki scores 0 itself; the category mokit counts it (made("mokki")): explain said "0 points in
    # `mokki`", a category that does not exist.
    text = explain(compile_ruleset("kasino").ruleset)
    line = next(line for line in text.splitlines() if line.startswith("- **mokki**"))
    assert line.endswith(": counted, with no points of its own (it scores through `mokit`).")
    assert "0 points" not in line
