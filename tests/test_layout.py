"""The house: stage folders on floors, no import circles, few loose modules.

The import graph is read from the source (ast), imports inside functions included.
Floors, lowest first: a module never imports one on a higher floor; on the same
floor, folders may import each other only without a circle.
"""
from __future__ import annotations

import ast
import functools
from pathlib import Path

import rulespec

ROOT = Path(rulespec.__file__).parent

# Lowest first. The compiler emits code for run/runtime.py's helpers but imports nothing
# from run/; the engine runs compiled modules without importing the compiler (only run/pickling.py,
# to compile a pickled state's ruleset again). api is the public face of compiler and run;
# interop (the game-AI adapters) sits on api and bots, beside the command line.
FLOORS = [
    {"errors"},
    {"source"},
    {"lang"},
    {"checks"},
    {"compiler"},
    {"run"},
    {"transcripts", "authoring", "bots", "api"},
    {"cli", "interop"},
    {"__main__"},
]
FLOOR = {part: i for i, parts in enumerate(FLOORS) for part in parts}


def modules() -> dict[str, Path]:
    """Every module of the package by dotted name (the compiler/ link followed)."""
    out = {}
    for path in sorted(ROOT.rglob("*.py")):
        rel = path.relative_to(ROOT).with_suffix("")
        parts = ["rulespec", *rel.parts]
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    for path in sorted((ROOT / "compiler").glob("*.py")):  # rglob does not follow the link
        name = "rulespec.compiler" + ("" if path.stem == "__init__" else "." + path.stem)
        out[name] = path
    return out


def imports(name: str, path: Path, known: set[str]) -> set[str]:
    """The package's modules that a module imports, anywhere in its body."""
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[:len(anchor) - (node.level - 1)]
                base = ".".join(anchor + ([base] if base else []))
            # `from pkg import mod` imports the module pkg.mod.
            targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in known else base for a in node.names]
        else:
            continue
        for t in targets:
            while t and t not in known:
                t = t.rpartition(".")[0]
            if t and t != name:
                out.add(t)
    return out


@functools.cache
def graph() -> dict[str, set[str]]:
    mods = modules()
    known = set(mods)
    return {name: imports(name, path, known) for name, path in mods.items()}


def folder(name: str) -> str | None:
    parts = name.split(".")
    return parts[1] if len(parts) > 1 else None


def circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Every strongly connected group of more than one node (Tarjan)."""
    index, low, stack, on, out = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in edges.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                out.append(sorted(group))

    for v in list(edges):
        if v not in index:
            visit(v)
    return out


def test_the_graph_is_read():
    g = graph()
    assert "rulespec.compiler.codegen" in g and "rulespec.checks.stage" in g
    assert "rulespec.checks.check" in g["rulespec.checks.stage"]
    assert "rulespec.compiler.plan" in g["rulespec.compiler.codegen"]      # a relative import


def test_circles_are_found():
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_no_circle_between_modules():
    assert circles(graph()) == []


def test_no_circle_between_folders():
    edges: dict[str, set[str]] = {}
    for name, targets in graph().items():
        for t in targets:
            if folder(name) != folder(t):
                edges.setdefault(folder(name), set()).add(folder(t))
    assert circles(edges) == []


def test_no_floor_imports_a_higher_one():
    wrong = []
    for name, targets in graph().items():
        here = folder(name)
        for t in targets:
            there = folder(t)
            if here in FLOOR and there in FLOOR and FLOOR[there] > FLOOR[here]:
                wrong.append(f"{name} -> {t}")
    assert wrong == []


def test_every_module_is_on_a_floor():
    loose = {folder(n) for n in graph()} - set(FLOOR) - {None}
    assert loose == set()


def test_few_modules_loose_at_the_top():
    top = [p.name for p in ROOT.glob("*.py")]
    assert len(top) <= 6, top


def test_generated_code_imports_only_the_runtime():
    from rulespec.compiler.build import compile_ruleset
    from rulespec.source.rulesets import shipped_ids
    for rid in shipped_ids():
        tree = ast.parse(compile_ruleset(rid).source)
        found = {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
        found |= {f"{n.module}.{a.name}" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) for a in n.names}
        assert found == {"rulespec.run.runtime"}, (rid, found)


def test_the_suite_imports_nothing_from_bench():
    found = []
    for path in sorted(Path(__file__).parent.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [node.module or ""] if isinstance(node, ast.ImportFrom) else []
            found += [f"{path.name}: {n}" for n in names if n == "bench" or n.startswith("bench.")]
    assert found == []
