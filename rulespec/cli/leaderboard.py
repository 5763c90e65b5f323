"""`rulespec leaderboard RULESET`: bots and trained agents cross-played on duplicate deals, with 95% intervals."""
from __future__ import annotations

from rulespec.cli.options import add_option_argument, add_root_argument
from rulespec.cli.pages import add_html_argument


def register(sub) -> None:
    s = sub.add_parser("leaderboard", help="cross-play bots and trained agents and rank them")
    s.add_argument("ruleset", help="a shipped id (see rulespec list) or a path to a .yaml file")
    s.add_argument("--bots", metavar="BOT[,BOT...]",
                   help="the entrants: random, greedy, ismcts[:BUDGET] (several budgets may enter), policy:FILE "
                        "(a trained agent's .json or .npz file), policy:NAME (a shipped one, named by its file in the package's policies folder); "
                        "default random,greedy,ismcts:20,ismcts:80")
    s.add_argument("--hands", type=int, default=20,
                   help="duplicate deals per pair, each played twice with the seats swapped (default 20)")
    s.add_argument("--seed", type=int, default=0, help="the run's seed: the same seed plays the same deals (default 0)")
    s.add_argument("--seats", type=int, help="the number of players, in two sides (default: the ruleset's)")
    add_option_argument(s)
    add_root_argument(s)
    s.add_argument("--json", action="store_true", help="the board as one JSON document")
    add_html_argument(s, "the board")
    s.set_defaults(func=run)


def run(args, out, err) -> int:
    """Cross-play the entrants; print the table (or JSON); write the page with --html."""
    import json

    from rulespec.bots.leaderboard import cross_play, parse_entrants, render_text
    from rulespec.cli.options import compile_named
    compiled = compile_named(args.ruleset, args.option, args.root)
    entrants = parse_entrants(args.bots)
    board = cross_play(compiled.module, entrants, hands=args.hands, seed=args.seed, seats=args.seats)
    if args.json:
        print(json.dumps(board.to_dict(), indent=2, ensure_ascii=False), file=out)
    else:
        print(render_text(board), file=out)
    if args.html is not None:
        from rulespec.authoring.html_board import render_board
        from rulespec.cli.pages import write_page
        write_page(args.html, render_board(board, compiled.ruleset.name), err if args.json else out)
    return 0
