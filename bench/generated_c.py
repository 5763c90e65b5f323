"""The generated C of cirulla alone (4 players, random bots), between checkouts and against ref_cirulla.c.

    python bench/generated_c.py [--rounds 9] [--hands 1000000] [--callgrind] CHECKOUT [CHECKOUT ...]

(e.g. `git worktree add /tmp/base main`, then `python bench/generated_c.py /tmp/base .`)

Per checkout: its generated C (rulespec.compiler.native.source_of) is built with that checkout's own flags
(native._flags(), minus -shared -fPIC) plus a tiny main calling rs_simulate (seed 7; the per-event counts on,
as simulate takes them). Prints user CPU seconds (min / median over the rounds, all
binaries alternated) and, with --callgrind, instructions per hand (20k vs 40k hands difference; deterministic).
Also checks that every checkout's binary prints the same aggregate checksum (lockstep sanity).
"""
import argparse
import os
import re
import resource
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
REF_C = HERE.parent.parent / "shared" / "bench" / "ref_cirulla.c"
if not REF_C.exists():
    REF_C = Path("/work/shared/bench/ref_cirulla.c")

DRIVER = r"""
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
int rs_simulate(uint64_t seed, int64_t first, int64_t count, int seats, int64_t *agg, int32_t *per_hand,
                int64_t *trace, int64_t trace_cap, int64_t *trace_len);
void rs_count_events(int64_t *buf);
int main(int argc, char **argv) {
    static int64_t agg[1 << 16], ev[1 << 16];
    rs_count_events(ev);
    int rc = rs_simulate(7, 0, atol(argv[1]), atoi(argv[2]), agg, 0, 0, 0, 0);
    uint64_t h = 1469598103934665603ULL;
    for (int i = 0; i < (1 << 16); i++) { h ^= (uint64_t)agg[i]; h *= 1099511628211ULL; h ^= (uint64_t)ev[i]; h *= 1099511628211ULL; }
    printf("%d %llx\n", rc, (unsigned long long)h);
    return rc;
}
"""

def build(checkout: Path, out: Path) -> Path:
    """The checkout's generated C for cirulla with the driver, built with that checkout's flags (its rulespec
    alone on the path: a folder without one is refused, never measured as another version)."""
    if not (checkout / "rulespec" / "__init__.py").is_file():
        raise SystemExit(f"{checkout}: not a rulespec checkout (no rulespec/__init__.py)")
    code = (f"import sys; sys.path.insert(0, {str(checkout)!r})\n"
            "from rulespec.compiler import native\nfrom rulespec.compiler.build import compile_ruleset\n"
            "print(' '.join(f for f in native._flags() if f not in ('-shared', '-fPIC')))\n"
            f"open({str(out / 'g.c')!r}, 'w').write(native.source_of(compile_ruleset('cirulla')))\n")
    env = dict(os.environ, XDG_CACHE_HOME=str(out / "cache"), PYTHONPATH=str(checkout))
    flags = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True, env=env).stdout.split()
    (out / "d.c").write_text(DRIVER)
    exe = out / "nat"
    subprocess.run(["cc", *flags, "-o", str(exe), str(out / "g.c"), str(out / "d.c")], check=True)
    return exe

def cpu(cmd):
    """User CPU seconds of a child process, and its output."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    return resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime - before, out

def callgrind(cmd):
    """Instructions the command executes (valgrind's callgrind)."""
    done = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *cmd], capture_output=True, text=True)
    return int(re.search(r"refs:\s+([\d,]+)", done.stderr).group(1).replace(",", ""))

def main():
    """Build, check the checksums, time alternately, count instructions."""
    ap = argparse.ArgumentParser()
    ap.add_argument("checkouts", nargs="+", type=Path)
    ap.add_argument("--rounds", type=int, default=9)
    ap.add_argument("--hands", type=int, default=1_000_000)
    ap.add_argument("--callgrind", action="store_true")
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        exes = {}
        for i, c in enumerate(a.checkouts):
            d = tmp / f"c{i}"; d.mkdir()
            exes[str(c)] = build(c.resolve(), d)
        ref = tmp / "ref"
        subprocess.run(["cc", "-O2", "-march=native", "-o", str(ref), str(REF_C), "-lm"], check=True)
        sums = {k: subprocess.run([str(e), "20000", "4"], capture_output=True, text=True).stdout.strip() for k, e in exes.items()}
        for k, s in sums.items():
            print(f"checksum {s}  {k}")
        if len(set(sums.values())) > 1:
            print("WARNING: checksums differ (figures changed?)")
        times = {k: [] for k in [*exes, "ref.c -O2 -march=native"]}
        for r in range(a.rounds):
            order = list(exes.items()) + [("ref.c -O2 -march=native", ref)]
            if r % 2: order.reverse()
            for k, e in order:
                t, _ = cpu([str(e), str(a.hands), "1" if e == ref else "4"])
                times[k].append(t)
        rmed = statistics.median(times["ref.c -O2 -march=native"]); rmin = min(times["ref.c -O2 -march=native"])
        for k, ts in times.items():
            print(f"{k:50s} min {min(ts):.3f} med {statistics.median(ts):.3f}   /ref: min {min(ts)/rmin:.3f} med {statistics.median(ts)/rmed:.3f}")
        if a.callgrind:
            for k, e in exes.items():
                n = (callgrind([str(e), "40000", "4"]) - callgrind([str(e), "20000", "4"])) / 20000
                print(f"instructions/hand {n:,.0f}  {k}")


if __name__ == "__main__":
    main()
