"""The pile and deal constructs neither generated back end plays (capture.table: pile, face-down table cards,
deal.bury, a deal check that deals the table again): listed (what, where) for compiler/support.py and
codegen_c.unsupported; `Hand` plays them."""
from __future__ import annotations

from rulespec.errors import Span
from rulespec.lang.model import Ruleset


def table_redeals(rs: Ruleset) -> list[tuple[str, Span | None]]:
    """Every deal check whose result deals the table again, the hands kept (result: redeal_table)."""
    return [(f"deal check '{c.name}': result redeal_table (the table dealt again, the hands kept)",
             c.when.span) for c in rs.deal_checks if c.result == "redeal_table"]


def pile_constructs(rs: Ruleset) -> list[tuple[str, Span | None]]:
    """Every pile construct of a checked ruleset: (what, where)."""
    doc = rs.doc if isinstance(rs.doc, dict) else {}
    out = []
    if rs.pile:
        capture = doc.get("capture") or {}
        out.append(("capture.table: pile (only the top card matched)",
                    getattr(capture, "value_spans", {}).get("table", rs.span)))
    if any(step.face_down for steps in rs.rounds for step in steps):
        deal = doc.get("deal") or {}
        out.append(("face-down table cards (deal face_down)", getattr(deal, "value_spans", {}).get("rounds", rs.span)))
    if rs.bury is not None and rs.bury.to == "under":
        out.append(("deal.bury to: under (a face-down pile card turned up onto a dealt one)", rs.bury.span))
    elif rs.bury is not None:
        out.append(("deal.bury (dealt table cards sent back into the stock)", rs.bury.span))
    return out
