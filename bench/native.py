"""Native back end against ref_cirulla.c: CPU time of whole processes, alternated; then µs per hand per ruleset.

    python bench/native.py [--hands 200000] [--rounds 5] [--per-ruleset 20000] [--python-hands 300]
                           [--instructions 20000] [--base CHECKOUT]

1. Whole processes, CPU time (user + system of the child, from wait4), the
   two alternated `--rounds` times: `rulespec simulate cirulla --hands H
   --engine native` (random bots declaring their best bonuses, statistics
   printed) against `ref_cirulla H SEED`, which this script compiles into a
   temporary directory with `cc -O2 -march=native` from ../shared/bench (it
   is never copied into the project). The native library is built once
   before the rounds (a first run's build, ~0.4 s of cc, is reported apart),
   and that first run may write Python's bytecode caches (it runs without
   PYTHONDONTWRITEBYTECODE), so that the timed runs start as an installed
   rulespec does, from .pyc files. With `--base CHECKOUT` (another version's
   checkout) that version's native engine runs in each round too (its
   rulespec first on PYTHONPATH, its own cache directory), the order of the
   three alternating between rounds.
2. µs per hand (CPU time, `time.process_time`) of the native engine (one
   `rs_simulate` call of `--per-ruleset` hands, best of three, in a child
   process; with `--base`, that checkout's too, the two alternated twice)
   and of the Python engine (`simulate`, one worker, same bots) for cirulla
   (2, 3, 4 players), cicera and cirullone: the issue's closing table.
3. `--instructions N` (valgrind on the machine): instructions per hand under
   callgrind, which do not move with the machine's load, of the generated C
   for cirulla (4 players; built as the native engine builds it, with a small
   `main` instead of ctypes) and of ref_cirulla.c (built -O2 -mpopcnt -mavx2 where
   the processor has them: valgrind does not run every -march=native instruction): each run for N and
   2N hands, the difference divided by N (start-up cancels out).
"""
from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REF_C = HERE.parent.parent / "shared" / "bench" / "ref_cirulla.c"
if not REF_C.exists():
    REF_C = Path("/work/shared/bench/ref_cirulla.c")


def cpu_of(cmd: list[str], env: dict | None = None) -> tuple[float, str]:
    """(user + system CPU seconds of the child process, its stdout)."""
    with tempfile.TemporaryFile() as out:
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.PIPE, env=env)
        _, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)
        err = proc.stderr.read().decode()
        proc.stderr.close()
        if proc.returncode != 0:
            raise SystemExit(f"{' '.join(cmd)} failed ({proc.returncode}):\n{err}")
        out.seek(0)
        return usage.ru_utime + usage.ru_stime, out.read().decode()


def build_ref(folder: Path) -> Path:
    cc = shutil.which("cc") or shutil.which("gcc")
    if cc is None:
        raise SystemExit("no C compiler: ref_cirulla.c cannot be built")
    exe = folder / "ref_cirulla"
    flags = ["-O2", "-march=native"]
    done = subprocess.run([cc, *flags, "-o", str(exe), str(REF_C), "-lm"], capture_output=True, text=True)
    if done.returncode != 0:   # a compiler without -march=native
        subprocess.run([cc, "-O2", "-o", str(exe), str(REF_C), "-lm"], check=True)
    return exe


def whole_processes(hands: int, rounds: int, base: Path | None = None) -> None:
    """ref_cirulla.c against this checkout's native engine (and `base`'s, another checkout), alternated."""
    rulespec = shutil.which("rulespec") or str(Path(sys.executable).parent / "rulespec")
    native_cmd = [rulespec, "simulate", "cirulla", "--hands", str(hands), "--engine", "native"]
    with tempfile.TemporaryDirectory() as tmp:
        ref = build_ref(Path(tmp))
        writes_pyc = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        # The other checkout: its rulespec first on sys.path, its own cache (the manifests would clash).
        base_env = None if base is None else {**os.environ, "PYTHONPATH": str(base.resolve()),
                                             "XDG_CACHE_HOME": str(Path(tmp) / "base-cache")}
        first, _ = cpu_of([rulespec, "simulate", "cirulla", "--hands", "10", "--engine", "native"], env=writes_pyc)
        print(f"first native run (the library built or found in the cache; 10 hands): {first:.2f} s CPU")
        startup, _ = cpu_of([rulespec, "simulate", "cirulla", "--hands", "1", "--engine", "native"])
        print(f"native start-up (1 hand, cache warm): {startup:.2f} s CPU")
        if base_env is not None:
            cpu_of(native_cmd[:4] + ["10", "--engine", "native"],
                   env={k: v for k, v in base_env.items() if k != "PYTHONDONTWRITEBYTECODE"})
            startup, _ = cpu_of([rulespec, "simulate", "cirulla", "--hands", "1", "--engine", "native"], env=base_env)
            print(f"base ({base}) start-up (1 hand, cache warm): {startup:.2f} s CPU")
        ratios, base_ratios = [], []
        print(f"\n{'round':>5} {'native s':>9} {'ref.c s':>8} {'ratio':>6}"
              + ("" if base is None else f" {'base s':>7} {'ratio':>6}"))
        for r in range(rounds):
            order = ["native", "ref", "base"] if r % 2 == 0 else ["base", "ref", "native"]
            took = {}
            for which in order:
                if which == "native":
                    took[which], _ = cpu_of(native_cmd)
                elif which == "ref":
                    took[which], _ = cpu_of([str(ref), str(hands), str(r + 1)])
                elif base_env is not None:
                    took[which], _ = cpu_of(native_cmd, env=base_env)
            ratios.append(took["native"] / took["ref"])
            line = f"{r + 1:>5} {took['native']:>9.2f} {took['ref']:>8.2f} {ratios[-1]:>6.2f}"
            if base_env is not None:
                base_ratios.append(took["base"] / took["ref"])
                line += f" {took['base']:>7.2f} {base_ratios[-1]:>6.2f}"
            print(line)
        print(f"median ratio native / ref_cirulla.c, {hands} hands, whole processes: "
              f"{statistics.median(ratios):.2f}x (min {min(ratios):.2f}, max {max(ratios):.2f})")
        if base_ratios:
            print(f"median ratio base / ref_cirulla.c: {statistics.median(base_ratios):.2f}x "
                  f"(min {min(base_ratios):.2f}, max {max(base_ratios):.2f})")


ROWS = [("cirulla", 2), ("cirulla", 3), ("cirulla", 4), ("cicera", 4), ("cirullone", 4)]

# µs per hand of the native engine, best of three rs_simulate calls, for each row: run in a child process
# so that another checkout (PYTHONPATH) can be measured the same way.
_NATIVE_US = """
import json, sys, time
from rulespec.compiler import native
from rulespec.compiler.build import compile_ruleset
hands, out = int(sys.argv[1]), []
for rid, seats in json.loads(sys.argv[2]):
    nat = native.load(compile_ruleset(rid))
    nat.run(1, 0, 100, seats)
    best = None
    for _ in range(3):
        t = time.process_time()
        nat.run(7, 0, hands, seats)
        us = (time.process_time() - t) / hands * 1e6
        best = us if best is None else min(best, us)
    out.append(best)
print(json.dumps(out))
"""


def native_us(hands: int, env: dict | None = None) -> list[float]:
    import json
    # cwd: not a checkout's folder, which `python -c` would put before PYTHONPATH on sys.path
    done = subprocess.run([sys.executable, "-c", _NATIVE_US, str(hands), json.dumps(ROWS)], env=env,
                          capture_output=True, text=True, check=True, cwd=tempfile.gettempdir())
    return json.loads(done.stdout)


def per_ruleset(native_hands: int, python_hands: int, base: Path | None = None) -> None:
    """µs per hand, native (this checkout, and `base`'s, alternated twice) and Python engine, per row."""
    from rulespec.bots.simulate import simulate
    base_env = None if base is None else {**os.environ, "PYTHONPATH": str(base.resolve()),
                                         "XDG_CACHE_HOME": str(Path(tempfile.gettempdir()) / "rulespec-base-cache")}
    ours, theirs = [], []
    for _ in range(2):
        ours.append(native_us(native_hands))
        if base_env is not None:
            theirs.append(native_us(native_hands, base_env))
    nat = [min(x) for x in zip(*ours)]
    old = [min(x) for x in zip(*theirs)] if theirs else None
    python = []
    for rid, seats in ROWS:
        simulate(rid, hands=5, seed=1, seats=seats, workers=1)       # compiled and warmed up, untimed
        t = time.process_time()
        simulate(rid, hands=python_hands, seed=7, seats=seats, workers=1)
        python.append((time.process_time() - t) / python_hands * 1e6)
    ref = nat[ROWS.index(("cirulla", 4))]
    print(f"\n{'ruleset':<10} {'players':>7} {'python µs/hand':>15} {'native µs/hand':>15} {'python/native':>14}"
          f" {'vs cirulla 4':>13}" + ("" if old is None else f" {'base µs/hand':>13} {'base/native':>12}"))
    for i, (rid, seats) in enumerate(ROWS):
        line = (f"{rid:<10} {seats:>7} {python[i]:>15.1f} {nat[i]:>15.2f} {python[i] / nat[i]:>13.0f}x"
                f" {nat[i] / ref:>12.2f}x")
        if old is not None:
            line += f" {old[i]:>13.2f} {old[i] / nat[i]:>11.2f}x"
        print(line)


_DRIVER = r"""
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
int rs_simulate(uint64_t seed, int64_t first, int64_t count, int seats, int64_t *agg, int32_t *per_hand,
                int64_t *trace, int64_t trace_cap, int64_t *trace_len);
int main(int argc, char **argv) {
    static int64_t agg[4096];
    int rc = rs_simulate(7, 0, atol(argv[1]), atoi(argv[2]), agg, 0, 0, 0, 0);
    printf("%d %lld\n", rc, (long long)agg[0]);
    return rc;
}
"""


def callgrind(cmd: list[str]) -> int:
    """Instructions executed by one run of a command (valgrind --tool=callgrind)."""
    import re
    with tempfile.TemporaryDirectory() as tmp:
        done = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={tmp}/cg.out", *cmd],
                              capture_output=True, text=True)
        if done.returncode != 0:
            raise SystemExit(f"valgrind {' '.join(cmd)} failed:\n{done.stderr[-2000:]}")
        return int(re.search(r"refs:\s+([\d,]+)", done.stderr).group(1).replace(",", ""))


def instructions(hands: int) -> None:
    """Instructions per hand (callgrind): the generated C for cirulla against ref_cirulla.c."""
    from rulespec.compiler import native
    from rulespec.compiler.build import compile_ruleset
    if shutil.which("valgrind") is None:
        print("\n(no valgrind: instructions per hand not counted)")
        return
    cc = native.find_compiler()
    source = native.source_of(compile_ruleset("cirulla"))
    opt = [f for f in native._flags() if f not in ("-shared", "-fPIC")]
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        (folder / "cirulla.c").write_text(source)
        (folder / "driver.c").write_text(_DRIVER)
        subprocess.run([cc, *opt, "-o", str(folder / "nat"), str(folder / "cirulla.c"), str(folder / "driver.c")],
                       check=True)
        ref_flags = ["-O2", *native._cpu_flags()]
        with open("/proc/cpuinfo") if os.path.exists("/proc/cpuinfo") else open(os.devnull) as f:
            if " avx2" in f.read():
                ref_flags.append("-mavx2")   # its vector rows; valgrind runs AVX2, not every -march=native one
        subprocess.run([cc, *ref_flags, "-o", str(folder / "ref"), str(REF_C), "-lm"], check=True)
        nat = (callgrind([str(folder / "nat"), str(2 * hands), "4"])
               - callgrind([str(folder / "nat"), str(hands), "4"])) / hands
        ref = (callgrind([str(folder / "ref"), str(2 * hands), "1"])
               - callgrind([str(folder / "ref"), str(hands), "1"])) / hands
    print(f"\ninstructions per hand (callgrind, {hands} hands): native cirulla {nat:,.0f} "
          f"({' '.join(opt)}), ref_cirulla.c {ref:,.0f} ({' '.join(ref_flags)}): {nat / ref:.2f}x")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=200_000)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--per-ruleset", type=int, default=20_000, help="native hands per ruleset row")
    ap.add_argument("--python-hands", type=int, default=300, help="Python engine hands per ruleset row")
    ap.add_argument("--instructions", type=int, default=0, help="hands per callgrind run (0: not counted)")
    ap.add_argument("--base", type=Path, help="another checkout (e.g. git worktree add /tmp/base main) whose "
                                              "native engine runs alternately too")
    args = ap.parse_args()
    whole_processes(args.hands, args.rounds, args.base)
    per_ruleset(args.per_ruleset, args.python_hands, args.base)
    if args.instructions:
        instructions(args.instructions)


if __name__ == "__main__":
    main()
