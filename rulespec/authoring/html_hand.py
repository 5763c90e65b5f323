"""A hand as one self-contained HTML page that steps through it (`replay --html`, `record --html`).

The page holds the hand's trace (rulespec/transcripts/trace.py) as JSON and a
small script that draws one state at a time: each seat's cards, the table,
the play with its capture and events, the piles and the running score.
Cards are drawn as a player knows them: French suits as ♥ ♦ ♣ ♠, Italian
suits (coppe, denari, bastoni, spade) as inline SVG cups, coins, batons and
swords; a deck's extra card (a joker: `15X`, of no suit of the deck) as its
rank and a star, named as the ruleset names it. Buttons and the keyboard (← → Home End) step through the hand; the
address may name a step (`page.html#step-5`).
"""
from __future__ import annotations

from rulespec.authoring.html_page import esc, isolate, page
from rulespec.transcripts.trace import HandTrace

FRENCH_NAMES = ("hearts", "diamonds", "clubs", "spades")
ITALIAN_NAMES = ("coppe", "denari", "bastoni", "spade")


def suit_style(deck: dict) -> str:
    """How the suits are drawn: `french`, `italian`, or `plain` (a custom deck: its suit letters)."""
    names = tuple(deck.get("suit_names") or ())
    if names == FRENCH_NAMES:
        return "french"
    if names == ITALIAN_NAMES:
        return "italian"
    return "plain"


CSS = """
*{box-sizing:border-box}
body{margin:0;padding:8px;font:15px/1.35 system-ui,sans-serif;background:#f4f1ea;color:#222;overflow-x:hidden;
  overflow-wrap:break-word}
h1{font-size:1.3em;margin:.2em 0}
p.desc{margin:.2em 0 .6em;color:#555}
.meta{color:#555;font-size:.9em}
.controls{display:flex;flex-wrap:wrap;gap:6px;align-items:center;margin:8px 0;position:sticky;top:0;
  background:#f4f1ea;padding:4px 0;z-index:2}
.controls button{font-size:1em;padding:4px 10px;min-width:40px}
#where{font-weight:600}
input[type=range]{flex:1 1 120px;min-width:100px;max-width:100%}
#caption{background:#fff;border:1px solid #ccc;border-radius:6px;padding:6px 8px;min-height:3em}
#caption .cards{display:inline-flex;vertical-align:middle}
.note{color:#a40000;font-weight:600}
.grid{display:flex;flex-wrap:wrap;gap:8px;margin-top:8px}
.panel{background:#fff;border:1px solid #ccc;border-radius:6px;padding:6px;flex:1 1 220px;min-width:0;max-width:100%}
.panel h2{font-size:1em;margin:0 0 4px}
.panel.turn{border-color:#1f6f3f;box-shadow:0 0 0 2px #1f6f3f55}
.panel.played{border-color:#b07000;box-shadow:0 0 0 2px #b0700055}
.felt{background:#2f6f4a;color:#fff}
.felt h2{color:#fff}
.badge{font-size:.75em;background:#eee;color:#333;border-radius:8px;padding:0 6px;margin-left:4px}
.cards{display:flex;flex-wrap:wrap;gap:4px;min-height:62px}
.cards.none{min-height:0}
.legend span.key{display:inline-block;width:1.4em;height:1em;vertical-align:middle;margin:0 3px 0 8px;
  background:#fff;border:1px solid #ccc;border-radius:3px}
.legend .key.turn{border-color:#1f6f3f;box-shadow:0 0 0 2px #1f6f3f55}
.legend .key.played{border-color:#b07000;box-shadow:0 0 0 2px #b0700055}
.legend .key.shown{outline:2px dashed #b07000;border-color:#888}
.legend .key.wild{box-shadow:inset 0 0 0 2px #d4a017;border-color:#888}
.card{position:relative;width:42px;height:60px;border-radius:5px;background:#fffdf8;border:1px solid #888;
  display:inline-flex;align-items:center;justify-content:center;color:#111;flex:0 0 auto;overflow-wrap:normal}
.card .rank{position:absolute;top:1px;left:3px;font-weight:700;font-size:13px;line-height:1}
.card .rank2{position:absolute;bottom:1px;right:3px;font-weight:700;font-size:13px;line-height:1;
  transform:rotate(180deg)}
.card .pip{font-size:24px;line-height:1}
.card svg{width:30px;height:30px}
.card.red{color:#c0102a}
.card.extra{color:#6a1b9a;background:#f6f0fb}
.card.shown{outline:2px dashed #b07000}
.card.wild{box-shadow:inset 0 0 0 2px #d4a017}
.card.taken{outline:3px solid #b07000}
.card.mini{width:28px;height:40px;border-radius:3px}
.card.mini .rank{font-size:10px}
.card.mini .rank2{display:none}
.card.mini .pip{font-size:15px}
.card.mini svg{width:18px;height:18px}
ol#captures{margin:0;padding-left:1.4em;max-height:18em;overflow:auto}
ol#captures li{margin:2px 0}
ol#captures .cards{min-height:0;vertical-align:middle;display:inline-flex}
.card.back{background:repeating-linear-gradient(45deg,#7a2230 0 4px,#923042 4px 8px)}
.pile{font-size:.9em}
table.score{border-collapse:collapse;width:100%}
table.score td,table.score th{border-bottom:1px solid #ddd;padding:2px 4px;text-align:right}
table.score td:first-child,table.score th:first-child{text-align:left}
ol#events{margin:0;padding-left:1.4em;max-height:14em;overflow:auto}
.failures{background:#fde8e8;border:1px solid #d99;border-radius:6px;padding:6px;margin:6px 0}
kbd{border:1px solid #aaa;border-radius:3px;padding:0 3px;background:#fff}
"""

# The Italian suit signs as SVG path data (24x24): cup, coin, baton, sword.
JS = r"""
(function () {
"use strict";
var D = JSON.parse(document.getElementById("data").textContent);
var SVGNS = "http://www.w3.org/2000/svg";
var ITALIAN = [
  {fill: "#c0392b", shapes: [["path", {d: "M4 3h16c0 6-3 9.5-6.5 10.5V18H17v3H7v-3h3.5v-4.5C7 12.5 4 9 4 3z"}]]},
  {fill: "#d4a017", shapes: [["circle", {cx: 12, cy: 12, r: 9.5}], ["circle", {cx: 12, cy: 12, r: 5.5,
    fill: "none", stroke: "#7a5a00", "stroke-width": 1.5}], ["circle", {cx: 12, cy: 12, r: 1.8, fill: "#7a5a00"}]]},
  {fill: "#2e7d32", shapes: [["path", {d: "M5.5 20.5l11-17 2.5 1.6-11 17z"}], ["circle", {cx: 9, cy: 15, r: 1.6}],
    ["circle", {cx: 13, cy: 9, r: 1.6}], ["circle", {cx: 17.8, cy: 4.2, r: 2.4}]]},
  {fill: "#1f4e9c", shapes: [["path", {d: "M12 1l3 14h-6z"}], ["path", {d: "M5 14.5h14v2.5H5z"}],
    ["path", {d: "M10.7 17h2.6v4.5h-2.6z"}], ["circle", {cx: 12, cy: 22, r: 1.8}]]}
];
var FRENCH = ["\u2665", "\u2666", "\u2663", "\u2660"];
var RANK_WORDS = {
  french: {A: "ace", J: "jack", Q: "queen", K: "king"},
  italian: {A: "asso", F: "fante", C: "cavallo", R: "re"}
};
var steps = D.trace.steps;
var at = 0;

function el(tag, cls, text) {
  var e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}
function clear(e) { while (e.firstChild) e.removeChild(e.firstChild); return e; }

function suitIcon(si) {
  if (D.style === "french") return el("span", "pip", FRENCH[si]);
  if (D.style === "italian") {
    var s = ITALIAN[si], svg = document.createElementNS(SVGNS, "svg");
    svg.setAttribute("viewBox", "0 0 24 24");
    svg.setAttribute("aria-hidden", "true");
    s.shapes.forEach(function (sh) {
      var node = document.createElementNS(SVGNS, sh[0]);
      node.setAttribute("fill", s.fill);
      Object.keys(sh[1]).forEach(function (k) { node.setAttribute(k, sh[1][k]); });
      svg.appendChild(node);
    });
    return svg;
  }
  return el("span", "pip", D.trace.deck.suits[si] || "?");
}

function card(name, extra) {
  var suit = name.slice(-1), rank = name.slice(0, -1);
  var si = D.trace.deck.suits.indexOf(suit);
  var c = el("span", "card" + (extra ? " " + extra : ""));
  c.dataset.card = name;
  if (D.style === "french" && (si === 0 || si === 1)) c.classList.add("red");
  if (name === D.trace.wild) c.classList.add("wild");
  c.appendChild(el("span", "rank", rank));
  if (si < 0) {
    // An extra card (a joker): of no suit of the deck. A star, and the name the ruleset gives it.
    var extras = D.trace.deck.extra || {};
    c.classList.add("extra");
    c.appendChild(el("span", "pip", "\u2605"));
    c.appendChild(el("span", "rank2", rank));
    c.title = name + ": " + (Object.prototype.hasOwnProperty.call(extras, name) && extras[name]
      ? extras[name] : "extra card");
    c.setAttribute("role", "img");
    c.setAttribute("aria-label", c.title);
    return c;
  }
  c.appendChild(suitIcon(si));
  c.appendChild(el("span", "rank2", rank));
  var words = (RANK_WORDS[D.style] || {})[rank] || rank;
  var suitName = (D.trace.deck.suit_names || [])[si] || suit;
  c.title = name + ": " + words + (D.style === "italian" ? " di " : " of ") + suitName
    + (name === D.trace.wild ? " (wild card)" : "");
  c.setAttribute("role", "img");
  c.setAttribute("aria-label", c.title);
  return c;
}

function cards(names, mark) {
  var box = el("span", "cards");
  names.forEach(function (n) { box.appendChild(card(n, mark && mark(n))); });
  return box;
}

function seatLabel(s) { return "seat " + s + " (side " + (s % D.trace.sides) + ")"; }

function eventText(e) {
  var who = e.seat === null || e.seat === undefined ? "" : " \u2014 " + seatLabel(e.seat);
  return e.name + (e.points ? " +" + e.points + (e.category ? " " + e.category : "") : "") + who;
}

function caption(step) {
  var box = clear(document.getElementById("caption"));
  if (step.number === 0) {
    box.appendChild(el("strong", "", "The deal"));
    box.appendChild(document.createTextNode(" \u2014 dealer: seat " + D.trace.dealer + ". "));
    if (D.trace.dealer_events.length)
      box.appendChild(document.createTextNode("At the deal: " + D.trace.dealer_events.join(", ") + ". "));
  } else {
    box.appendChild(el("strong", "", "Play " + step.number + ": "));
    box.appendChild(document.createTextNode(seatLabel(step.seat) + " "));
    step.declared.forEach(function (d) { box.appendChild(document.createTextNode("declares " + d + "; ")); });
    if (step.refused) {
      // The engine refused the play: nothing moved, so say what was tried, not what happened.
      box.appendChild(document.createTextNode(step.bid_made !== null ? "tries to bid " + step.bid_made + ". " :
                                              step.card === null ? "tries to knock. " : "tries to play "));
      if (step.card !== null) {
        box.appendChild(cards([step.card]));
        box.appendChild(document.createTextNode(". "));
      }
    } else if (step.bid_made !== null) {
      // A bid (bid: in the rules): a value named before any card is played
      box.appendChild(document.createTextNode("bids " + step.bid_made + ". "));
    } else if (step.card === null) {
      box.appendChild(document.createTextNode("knocks. "));
    } else {
      box.appendChild(document.createTextNode("plays "));
      box.appendChild(cards([step.card]));
      if (step.built) {
        // A build (capture.builds): the played card joined to these table cards, at a value
        box.appendChild(document.createTextNode(" builds " + step.built.value + " with "));
        box.appendChild(cards(step.built.cards));
        box.appendChild(document.createTextNode(". "));
      } else if (step.capture.length) {
        box.appendChild(document.createTextNode(" takes "));
        box.appendChild(cards(step.capture));
      } else {
        box.appendChild(document.createTextNode(" and takes nothing. "));
      }
    }
    if (step.events.length)
      box.appendChild(el("div", "", "Events: " + step.events.map(eventText).join("; ")));
  }
  if (step.bid)
    box.appendChild(el("div", "bid", step.bid.value === null ? "Seat " + step.bid.seat + " bids before any play." :
                                     "Seat " + step.bid.seat + " bid " + step.bid.value + "."));
  if (step.wild_as)
    box.appendChild(el("div", "", "The wild card " + D.trace.wild + " stands as " + step.wild_as + "."));
  if (step.note) box.appendChild(el("div", "note", step.note));
  if (at === steps.length - 1 && D.trace.leftovers) {
    var left = el("div", "", "End of the hand: left on the table, to side " + D.trace.leftovers.side + ": ");
    left.appendChild(cards(D.trace.leftovers.cards));
    box.appendChild(left);
  }
  if (at === steps.length - 1 && D.trace.outcome)
    box.appendChild(el("div", "note", "Outcome: " + D.trace.outcome.name + " \u2014 won by side "
      + D.trace.outcome.winners.join(", ")));
}

function seats(step, next) {
  var box = clear(document.getElementById("seats"));
  for (var s = 0; s < D.trace.seats; s++) {
    var p = el("section", "panel");
    p.id = "seat-" + s;
    if (step.seat === s) p.classList.add("played");
    if (next && next.seat === s) p.classList.add("turn");
    var h = el("h2", "", "Seat " + s);
    h.appendChild(el("span", "badge", "side " + (s % D.trace.sides)));
    if (s === D.trace.dealer) h.appendChild(el("span", "badge", "dealer"));
    if (next && next.seat === s) h.appendChild(el("span", "badge", "to play"));
    p.appendChild(h);
    var shown = step.shown[s];
    var hand = cards(step.hands[s], function (n) { return shown.indexOf(n) >= 0 ? "shown" : ""; });
    hand.classList.add("hand");
    p.appendChild(hand);
    box.appendChild(p);
  }
}

function table(step) {
  var box = clear(document.getElementById("table"));
  var t = cards(step.table);
  t.id = "table-cards";
  if (!step.table.length) {
    // Said in words, in the cards' place: not an empty box over "(empty)".
    t.classList.add("none");
    t.appendChild(el("span", "", "No cards on the table."));
  }
  box.appendChild(t);
  (step.builds || []).forEach(function (b) {
    // Each build in words: its value, its cards, the seat that owns it (or the seats, a list, when it has
    // several: capture.builds.owners), and whether it is fixed (multiple)
    var owners = [].concat(b.owner).map(function (s) { return "seat " + s + "'s"; }).join(" and ");
    var p = el("p", "build", "Build of " + b.value + " (" + owners + (b.fixed ? ", fixed" : "") + "): ");
    p.appendChild(cards(b.cards, function () { return "mini"; }));
    box.appendChild(p);
  });
  if (step.face_down) {
    // Face-down cards are shown as a number only: which cards they are, no seat knows until they are taken.
    box.appendChild(el("p", "", step.face_down + " card" + (step.face_down === 1 ? "" : "s") + " face down under them."));
  }
}

function piles(step) {
  var box = clear(document.getElementById("piles"));
  step.piles.forEach(function (pile, side) {
    var d = el("div", "pile", "side " + side + ": " + pile.length + " cards captured");
    d.id = "pile-" + side;
    box.appendChild(d);
  });
  var list = el("ol");
  list.id = "captures";
  for (var i = 1; i <= at; i++) {
    var st = steps[i];
    if (!st.capture.length) continue;
    var li = el("li", "", "play " + st.number + ", side " + (st.seat % D.trace.sides) + ": ");
    li.appendChild(cards([st.card], function () { return "mini"; }));
    li.appendChild(document.createTextNode(" takes "));
    li.appendChild(cards(st.capture, function () { return "mini"; }));
    list.appendChild(li);
  }
  box.appendChild(list);
}

function events(upto) {
  var box = clear(document.getElementById("events"));
  for (var i = 0; i <= upto; i++) {
    steps[i].events.forEach(function (e) {
      box.appendChild(el("li", "", (steps[i].number ? "play " + steps[i].number : "deal") + ": " + eventText(e)));
    });
  }
  // No numbered "1. none yet": the list stays empty and a line says so.
  document.getElementById("events-none").hidden = box.firstChild !== null;
}

function score(step) {
  var box = clear(document.getElementById("score"));
  var last = at === steps.length - 1 && D.trace.score;
  box.appendChild(el("h2", "", last ? "Score of the hand" : "Points so far (events)"));
  var tb = el("table", "score"), head = el("tr");
  head.appendChild(el("th", "", "category"));
  for (var s = 0; s < D.trace.sides; s++) head.appendChild(el("th", "", "side " + s));
  tb.appendChild(head);
  // While the hand is played only events score: their categories; the pile categories come at the end.
  var cats = last ? D.trace.categories.concat(["total"]) : D.trace.categories.filter(function (c) {
    return steps.some(function (st) { return st.events.some(function (e) { return e.category === c; }); });
  });
  if (!cats.length) { box.appendChild(el("div", "", "no events score in this hand")); return; }
  cats.forEach(function (cat) {
    var row = el("tr");
    row.appendChild(el("td", "", cat));
    for (var s = 0; s < D.trace.sides; s++) {
      var v = last ? D.trace.score[s][cat] : step.points[s][cat];
      row.appendChild(el("td", "", String(v === undefined ? 0 : v)));
    }
    tb.appendChild(row);
  });
  box.appendChild(tb);
}

function show(i) {
  at = Math.max(0, Math.min(steps.length - 1, i));
  var step = steps[at], next = steps[at + 1];
  document.body.dataset.step = String(at);
  document.getElementById("where").textContent = at === 0 ? "deal" : "play " + step.number + " of "
    + steps[steps.length - 1].number;
  document.getElementById("slider").value = String(at);
  document.getElementById("prev").disabled = at === 0;
  document.getElementById("first").disabled = at === 0;
  document.getElementById("next").disabled = at === steps.length - 1;
  document.getElementById("last").disabled = at === steps.length - 1;
  caption(step); seats(step, next); table(step); piles(step); events(at); score(step);
  if (history.replaceState) history.replaceState(null, "", "#step-" + at);
}

document.getElementById("first").addEventListener("click", function () { show(0); });
document.getElementById("prev").addEventListener("click", function () { show(at - 1); });
document.getElementById("next").addEventListener("click", function () { show(at + 1); });
document.getElementById("last").addEventListener("click", function () { show(steps.length - 1); });
var slider = document.getElementById("slider");
slider.max = String(steps.length - 1);
slider.addEventListener("input", function () { show(parseInt(slider.value, 10)); });
document.addEventListener("keydown", function (ev) {
  if (ev.target && ev.target.tagName === "INPUT") return;
  if (ev.altKey || ev.ctrlKey || ev.metaKey) return;        // Alt+Left is Back, and so on: the browser's
  if (ev.key === "ArrowRight" || ev.key === "PageDown") { show(at + 1); ev.preventDefault(); }
  else if (ev.key === "ArrowLeft" || ev.key === "PageUp") { show(at - 1); ev.preventDefault(); }
  else if (ev.key === "Home") { show(0); ev.preventDefault(); }
  else if (ev.key === "End") { show(steps.length - 1); ev.preventDefault(); }
});
var m = /^#step-(\d+)$/.exec(location.hash);
show(m ? parseInt(m[1], 10) : 0);
}());
"""


def render_hand(trace: HandTrace) -> str:
    """The page: a heading from the ruleset (escaped), the controls, empty panels the script fills."""
    t = trace
    failures = ""
    if not t.ok:
        items = "".join(f"<li>{esc(f)}</li>" for f in t.failures)
        failures = f'<div class="failures"><strong>The replay found differences:</strong><ul>{items}</ul></div>'
    body = f"""
<header>
<h1>{esc(isolate(t.ruleset_name))} <span class="meta">({esc(t.ruleset_id)})</span></h1>
<p class="desc">{esc(t.description)}</p>
<p class="meta">{esc(isolate(t.source))} &middot; {t.seats} seats, {t.sides} sides &middot; dealer seat {t.dealer}
&middot; deck {esc(t.deck["id"])}{' &middot; wild card ' + esc(t.wild) if t.wild else ''}</p>
</header>
{failures}
<nav class="controls" aria-label="step through the hand">
<button id="first" title="the deal (Home)">&laquo;</button>
<button id="prev" title="previous play (&larr;)">&#x25C0;</button>
<button id="next" title="next play (&rarr;)">&#x25B6;</button>
<button id="last" title="the end (End)">&raquo;</button>
<span id="where"></span>
<input id="slider" type="range" min="0" max="0" value="0" aria-label="step">
</nav>
<div id="caption" aria-live="polite"></div>
<div class="grid">
<section class="panel felt"><h2>Table</h2><div id="table"></div></section>
</div>
<div class="grid" id="seats"></div>
<div class="grid">
<section class="panel"><h2>Captured</h2><div id="piles"></div></section>
<section class="panel"><h2>Events</h2><ol id="events"></ol><p id="events-none" class="meta">No events yet.</p></section>
<section class="panel" id="score"></section>
</div>
<p class="meta legend" id="legend">Borders:<span class="key turn"></span>the seat to play next
<span class="key played"></span>the seat that just played
<span class="key shown"></span>a card declared (shown to all) <span class="key wild"></span>the wild card</p>
<p class="meta">Keys: <kbd>&larr;</kbd> <kbd>&rarr;</kbd> step, <kbd>Home</kbd> the deal, <kbd>End</kbd> the end.</p>
"""
    data = {"style": suit_style(t.deck), "trace": t.to_dict()}
    return page(f"{isolate(t.ruleset_name)}: a hand", body, css=CSS, script=JS, data=data)
