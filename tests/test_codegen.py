"""The compiler's plan (what it decided) and the line map from generated lines to YAML spans."""
from rulespec.compiler.build import compile_ruleset
from rulespec.compiler.plan import build_plan
from rulespec.source.rulesets import shipped_ids


def test_plan_merges_a_plain_match_and_sum():
    plan = build_plan(compile_ruleset("cirulla").ruleset).captures
    assert plan.merged and plan.needs_sums and plan.all_numbered
    # The sweep is exclusive and 15 is odd: no two kinds offer the same set.
    assert not plan.needs_matches and not plan.overlap
    assert "# match and sum: every set" in compile_ruleset("cirulla").source


def test_plan_of_a_deck_with_unnumbered_cards():
    plan = build_plan(compile_ruleset("cicera").ruleset).captures
    assert plan.merged and not plan.all_numbered
    assert "numbered = _NUMBERED[p]" in compile_ruleset("cicera").source


def test_plan_limit_covers_the_fifteen():
    cp = build_plan(compile_ruleset("cirulla").ruleset).captures
    fifteen = [k.total for k in cp.kinds if k.kind == "fifteen"]
    assert fifteen and cp.limit == max(fifteen)


def test_every_condition_line_maps_to_its_yaml_span():
    for rid in shipped_ids():
        c = compile_ruleset(rid)
        lines = c.source.splitlines()
        assert len(c.line_map) == len(lines)
        for i, line in enumerate(lines):
            # Each `# file:line: text` comment precedes the code of that expression.
            if line.strip().startswith("# ") and ".yaml:" in line and not line.strip().startswith("# capture"):
                where = line.split("# ", 1)[1].split(":")
                span = c.span_at(i + 2)
                assert span is not None, (rid, i + 2, lines[i + 1])
                assert span.file.endswith(where[0]) and span.line == int(where[1]), (rid, line, span)


def test_scaffolding_lines_map_to_nothing():
    c = compile_ruleset("cirulla")
    head = c.source.splitlines().index("def card_names(mask):") + 1
    assert c.span_at(head) is None
    assert c.span_at(0) is None and c.span_at(len(c.line_map) + 1) is None


def test_every_module_offers_what_the_engine_reads():
    from rulespec.run.protocol import CompiledRules
    declared = [n for n in CompiledRules.__annotations__] + [
        n for n, v in vars(CompiledRules).items() if callable(v) and not n.startswith("_")]
    for rid in shipped_ids():
        module = compile_ruleset(rid).module
        assert isinstance(module, CompiledRules), rid
        missing = [n for n in declared if not hasattr(module, n)]
        assert missing == [], (rid, missing)
