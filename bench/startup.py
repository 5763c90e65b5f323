"""Benchmark: every command's start-up, as a whole process (CPU and wall seconds).

    python bench/startup.py [--rounds 5]

For each command, two child processes, each the median of ROUNDS runs after a
warm-up run (which writes the bytecode and rulespec's compile cache, as a
second run on a user's machine finds them):

- `--help`: `rulespec COMMAND --help`, the interpreter, rulespec's entry
  point and the command's own parser: what every run of it pays;
- `smallest`: the command on the smallest job it takes (one shipped ruleset,
  one transcript, one hand): start-up and a little real work. For `list`
  this is the command itself (issue "An author's day": under 0.3 s).

Beside them `python -c pass`, what any Python process costs. CPU time is user
+ system of the child (os.wait4); wall time moves with the machine's load.
Each process gets its own bytecode cache and compile cache (temporary
folders), as bench/process.py does.
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "tests" / "golden" / "scopa" / "01-complete-2-players.yaml"

# command -> its smallest job (arguments after the command; {tmp} is a fresh folder per run)
SMALLEST = {
    "list": [],
    "validate": [str(ROOT / "rulesets" / "scopa.yaml")],
    "compile": ["scopa"],
    "replay": [str(GOLDEN)],
    "record": ["scopa", "-o", "{tmp}/r.yaml"],
    "simulate": ["scopa", "--hands", "1", "--workers", "1"],
    "show": ["scopa"],
    "play": ["scopa", "--hands", "1", "--seed", "1"],
    "explain": ["scopa"],
    "diff": ["scopa", "scopone"],
    "test": [str(GOLDEN)],
    "new": ["v", "--extends", "scopa", "-o", "{tmp}/v.yaml"],
    "schema": [],
    "docs": [],
}


def run_once(argv: list[str], env: dict, stdin: bytes = b"") -> tuple[float, float]:
    """CPU (user + system) and wall seconds of one child process; its exit status is not judged (diff exits
    1 when the rulesets differ), but a traceback is."""
    start = time.perf_counter()
    child = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                             env=env)
    child.stdin.write(stdin)
    child.stdin.close()
    _pid, _status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    err = child.stderr.read().decode(errors="replace")
    child.stderr.close()
    if "Traceback" in err:
        raise SystemExit(f"{' '.join(argv)}:\n{err}")
    return usage.ru_utime + usage.ru_stime, wall


def measure(argv: list[str], env: dict, rounds: int, stdin: bytes = b"") -> tuple[float, float]:
    """Medians over `rounds` runs after one warm-up; `{tmp}` in argv is a new folder each run."""
    def once():
        with tempfile.TemporaryDirectory() as tmp:
            return run_once([a.replace("{tmp}", tmp) for a in argv], env, stdin)
    once()
    runs = [once() for _ in range(rounds)]
    return statistics.median(c for c, _ in runs), statistics.median(w for _, w in runs)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=5, help="runs per figure, after a warm-up (default 5)")
    ap.add_argument("commands", nargs="*", help="the commands to measure (default: every one)")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as pyc, tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "PYTHONPYCACHEPREFIX": pyc, "XDG_CACHE_HOME": cache, "PYTHONPATH": str(ROOT),
               "COLUMNS": "80"}
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env.pop("RULESPEC_CACHE", None)
        python = [sys.executable]
        cpu, wall = measure(python + ["-c", "pass"], env, args.rounds)
        print(f"{'python -c pass':24} {'':>17}   cpu {cpu:.3f} s  wall {wall:.3f} s")
        print(f"{'command':10} {'--help cpu':>12} {'wall':>8}   {'smallest cpu':>12} {'wall':>8}")
        for name in args.commands or SMALLEST:
            help_cpu, help_wall = measure(python + ["-m", "rulespec", name, "--help"], env, args.rounds)
            stdin = b"1\n" * 400 if name == "play" else b""
            cpu, wall = measure(python + ["-m", "rulespec", name, *SMALLEST[name]], env, args.rounds, stdin)
            print(f"{name:10} {help_cpu:10.3f} s {help_wall:6.3f} s   {cpu:10.3f} s {wall:6.3f} s")


if __name__ == "__main__":
    main()
