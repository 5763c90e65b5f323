"""Benchmark: `rulespec simulate` as a whole process against ref_cirulla.py as a whole process (CPU time).

    python bench/process.py [--hands 4000] [--rounds 5] [--ruleset cirulla] [--workers N]
                            [--base CHECKOUT] [--ref PATH]

Issue 12 asks `rulespec simulate cirulla --hands 4000 --seed N` to take no
more CPU than `python ref_cirulla.py 4000 N`, start-up included. Each round
runs, as child processes, with the round's seed N:

- `ref`: `python ref_cirulla.py HANDS N`;
- `rulespec`: `rulespec simulate RULESET --hands HANDS --seed N` (this
  checkout; `--workers` only if given, else rulespec chooses);
- `base` (with `--base CHECKOUT`, e.g. a `git archive` of main): the same
  command run from that checkout's sources;
- `startup`: `rulespec simulate RULESET --hands 1 --workers 1` (and `base
  startup`), and `python -c pass`: what a process costs before its hands.

CPU time is user + system of the child and of the processes it waited for
(worker processes included), from os.wait4; wall time is printed beside it
(it shows what worker processes buy, but moves with the machine's load). The order of the commands is
reversed every other round (ABBA), and the figures are medians over the
rounds; the ratio is the median of the per-round ratios rulespec / ref.

Every process gets the same environment: a bytecode cache of the run's own
(PYTHONPYCACHEPREFIX in a temporary folder, written by a warm-up run of each
command, as an installed package has its .pyc files; PYTHONDONTWRITEBYTECODE
is dropped) and an empty XDG_CACHE_HOME of its own, so that rulespec's
compile cache (compiler/cache.py) is what a second run on a user's machine
finds. The warm-up (first, cold) run of rulespec is reported apart.
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

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
DEFAULT_REF = next((p / "shared" / "bench" / "ref_cirulla.py" for p in ROOT.parents
                    if (p / "shared" / "bench" / "ref_cirulla.py").exists()),
                   ROOT.parent / "shared" / "bench" / "ref_cirulla.py")


def cpu_seconds(argv: list[str], env: dict) -> tuple[float, float]:
    """User + system CPU time of a child process (and the processes it waited for), and its wall time; it
    must succeed."""
    start = time.perf_counter()
    child = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    _pid, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    err = child.stderr.read().decode(errors="replace")
    child.stderr.close()
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"failed ({os.waitstatus_to_exitcode(status)}): {' '.join(argv)}\n{err}")
    return usage.ru_utime + usage.ru_stime, wall


def rulespec_argv(checkout: Path | None, args: list[str]) -> list[str]:
    """The rulespec command: this checkout's (installed) or another checkout's sources."""
    if checkout is None:
        script = Path(sys.executable).with_name("rulespec")     # the console script, as a user runs it
        return [str(script), *args] if script.exists() else [sys.executable, "-m", "rulespec", *args]
    boot = ("import sys; sys.path.insert(0, sys.argv.pop(1)); sys.argv[0] = 'rulespec'; "
            "from rulespec.cli.main import main; main()")
    return [sys.executable, "-c", boot, str(checkout), *args]


def commands(opts, seed: int) -> dict[str, list[str]]:
    sim = ["simulate", opts.ruleset, "--hands", str(opts.hands), "--seed", str(seed)]
    if opts.workers is not None:
        sim += ["--workers", str(opts.workers)]
    one = ["simulate", opts.ruleset, "--hands", "1", "--workers", "1"]
    out = {"ref": [sys.executable, str(opts.ref), str(opts.hands), str(seed)],
           "rulespec": rulespec_argv(None, sim),
           "startup": rulespec_argv(None, one),
           "python -c pass": [sys.executable, "-c", "pass"]}
    if opts.base is not None:
        out["base"] = rulespec_argv(opts.base, sim)
        out["base startup"] = rulespec_argv(opts.base, one)
    return out


def environment(folder: str) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONDONTWRITEBYTECODE", "RULESPEC_CACHE")}
    env["PYTHONPYCACHEPREFIX"] = os.path.join(folder, "pycache")
    env["XDG_CACHE_HOME"] = os.path.join(folder, "cache")
    return env


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--hands", type=int, default=4000)
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--ruleset", default="cirulla")
    p.add_argument("--workers", type=int)
    p.add_argument("--base", type=Path, help="another checkout to run the same commands from (before/after)")
    p.add_argument("--ref", type=Path, default=DEFAULT_REF)
    opts = p.parse_args(argv)
    if not opts.ref.exists():
        raise SystemExit(f"no {opts.ref}: give --ref PATH to ref_cirulla.py")
    with tempfile.TemporaryDirectory(prefix="rulespec-bench-") as folder:
        env = environment(folder)
        warm = commands(opts, 0)
        first = cpu_seconds(warm["rulespec"], env)[0]   # cold: bytecode and compile cache written
        for argv in warm.values():
            cpu_seconds(argv, env)
        names = list(warm)
        times: dict[str, list[float]] = {name: [] for name in names}
        walls: dict[str, list[float]] = {name: [] for name in names}
        for r in range(opts.rounds):
            cmds = commands(opts, r + 1)
            for name in (names if r % 2 == 0 else names[::-1]):
                cpu, wall = cpu_seconds(cmds[name], env)
                times[name].append(cpu)
                walls[name].append(wall)
    print(f"{opts.hands} hands of {opts.ruleset}, {opts.rounds} rounds, CPU seconds (user + system), "
          f"median [min-max], and wall seconds (median; the machine's load moves it):")
    for name in names:
        v = times[name]
        print(f"  {name:15} {statistics.median(v):7.3f}  [{min(v):.3f}-{max(v):.3f}]   wall {statistics.median(walls[name]):.3f}")
    print(f"  (rulespec's first, cold run: {first:.3f})")
    bare = statistics.median(times["python -c pass"])
    print(f"start-up over python -c pass: rulespec {statistics.median(times['startup']) - bare:.3f}"
          + (f", base {statistics.median(times['base startup']) - bare:.3f}" if opts.base else ""))
    for name in ("rulespec", "base") if opts.base else ("rulespec",):
        ratio = statistics.median(a / b for a, b in zip(times[name], times["ref"]))
        print(f"{name} / ref: {ratio:.2f}")


if __name__ == "__main__":
    main()
