"""`rulespec docs [TOPIC]`: the documentation that ships with the package (docs/, linked as rulespec/docs)."""
from __future__ import annotations

from pathlib import Path

from rulespec.errors import RulespecError, did_you_mean

DOCS = Path(__file__).resolve().parent.parent / "docs"


def topics() -> dict[str, Path]:
    """Topic name -> its Markdown file."""
    if not DOCS.is_dir():
        raise RulespecError("cannot find the documentation folder (a broken installation?)")
    return {p.stem: p for p in sorted(DOCS.glob("*.md"))}


def register(sub) -> None:
    d = sub.add_parser("docs", help="show the documentation: the ruleset language, expressions, the transcript "
                                    "format")
    d.add_argument("topic", nargs="?", help="a topic (without one: the list of topics)")
    d.set_defaults(func=run)


def run(args, out, err) -> int:
    found = topics()
    if args.topic is None:
        print("rulespec docs TOPIC shows one of:", file=out)
        width = max(map(len, found), default=0)      # the titles in one column, past the longest name
        for name, path in found.items():
            title = path.read_text(encoding="utf-8").splitlines()[0].lstrip("# ").strip()
            print(f"  {name:{width}}  {title}", file=out)
        return 0
    wanted = args.topic.removesuffix(".md")
    starting = [name for name in found if name.startswith(wanted)]
    path = found.get(wanted) or (found[starting[0]] if len(starting) == 1 else None)  # a unique prefix will do
    if path is None:
        raise RulespecError(f"no documentation topic '{args.topic}'; topics: {', '.join(found)}"
                            f"{did_you_mean(args.topic, found)}")
    out.write(path.read_text(encoding="utf-8"))
    return 0
