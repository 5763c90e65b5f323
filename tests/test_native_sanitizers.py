"""The generated C under AddressSanitizer and UndefinedBehaviorSanitizer (docs/security.md, "The generated C").

Every shipped ruleset, the two that overflowed its arrays (tests/test_native.py) and RANDOM random ones (tests/fuzz.py's generator, a third of them stretched to the
C's bounds: hands of half the deck, up to 64 one-card bonuses sharing their cards, up to 16 capture kinds by
sum) are generated as C, compiled with `-fsanitize=address,undefined` together with a small driver (its
own main(), no ctypes: the sanitizers' runtime needs no preloading) and played, a few hands per seat count,
then the vector environments (compiler/emit_vector.py) stepped with random legal actions and wild ones.
The arrays the driver passes are allocated at the sizes rs_shape gives, so a write past them is a finding
too. Any sanitizer report fails the test, naming the ruleset (a random one by its seed). A run stopped by
one of the C's limits (too many moves, capture sets...) is no finding: it is an error code, located in
Python. Without a C compiler that supports the sanitizers (Debian: gcc with libasan and libubsan) it skips,
saying so.
"""
from __future__ import annotations

import os
import random
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
import yaml

from rulespec.compiler import native
from rulespec.compiler.build import compile_ruleset
from rulespec.errors import RulespecError
from rulespec.source.rulesets import rulesets_dir
from tests.fuzz import random_ruleset

SANITIZE = ("-O0", "-std=gnu99", "-w", "-fsanitize=address,undefined", "-fno-omit-frame-pointer")
# Random rulesets: about a quarter are refused before C (invalid, or past the back end); each of the others
# costs about a second of compiler time, on 2 processes. $RULESPEC_SANITIZE_RANDOM runs more.
RANDOM = int(os.environ.get("RULESPEC_SANITIZE_RANDOM", "150"))
HANDS = 8                 # hands per ruleset and seat count
BATCH = 12                # rulesets compiled into one program
# The functions a generated file exports: renamed per file, so that one program holds a batch.
EXPORTS = ("rs_abi", "rs_ruleset_id", "rs_error_where", "rs_error_index", "rs_shape", "rs_simulate", "rs_play",
           "rs_rollouts", "rs_stream_version", "rs_stream_draws", "rs_count_events", "rs_event_counts_size",
           "rs_pair_rows", "rs_pair_row_size", "rs_vec_shape", "rs_vec_new", "rs_vec_free", "rs_vec_shard",
           "rs_vec_reset", "rs_vec_step", "rs_vec_sample", "rs_vec_deal")
VEC_ENVS, VEC_STEPS = 3, 150      # the vector environments' run: envs, and batch steps (random and wild actions)
ENV = {"ASAN_OPTIONS": "detect_leaks=0:abort_on_error=0:halt_on_error=1",
       "UBSAN_OPTIONS": "print_stacktrace=1:halt_on_error=0"}
FINDINGS = ("runtime error:", "ERROR: AddressSanitizer", "SUMMARY: AddressSanitizer", "SUMMARY: UndefinedBehavior")


def _supported(cc: str | None, folder: Path) -> str | None:
    """Why the sanitizers cannot be used here (None: they can)."""
    if cc is None:
        return "no C compiler on this machine (the native engine needs one)"
    probe = folder / "probe.c"
    probe.write_text("int main(void) { return 0; }\n", encoding="utf-8")
    try:
        done = subprocess.run([cc, *SANITIZE, str(probe), "-o", str(folder / "probe")], capture_output=True,
                              text=True, timeout=120)
    except (OSError, subprocess.SubprocessError) as err:
        return f"the C compiler {cc} does not run: {err}"
    if done.returncode != 0:
        return (f"the C compiler {cc} cannot build with -fsanitize=address,undefined (install libasan and libubsan, "
                f"Debian: gcc's libasan8 libubsan1): {done.stderr.strip().splitlines()[-1:]}")
    return None


def _stretched(text: str, rng: random.Random) -> str:
    """A random ruleset pushed towards the C's bounds (hands, declarations, capture lists), as YAML."""
    doc = yaml.safe_load(text)
    deck = doc["deck"]
    size = 40 if isinstance(deck, str) else len(deck["ranks"]) * len(deck["suits"])
    if rng.random() < 0.6:                      # two players holding half the deck each
        table = 4 if size % 2 == 0 else 3
        doc["players"] = {"counts": [2], "default": 2, "sides": {2: 2}}
        doc["deal"] = {"packet": 1, "rounds": [[{"each": (size - table) // 2}, {"table": table}]],
                       "repeat_last": False}
    if rng.random() < 0.5:                      # many one-card bonuses, each sharing cards with all the others
        names = [f"b{i}" for i in range(rng.randint(8, 64))]
        doc["hand_bonuses"] = {n: {"size": 1, "when": "count(cards) == 1", "points": rng.randint(0, 2),
                                   "category": "scope", "shares_cards_with": [o for o in names if o != n]}
                               for n in names}
        doc.setdefault("declarations", {"timing": rng.choice(["first_turn", "own_turn"]), "per_turn": "all"})
    if rng.random() < 0.4:                      # the same sums offered by many kinds
        kinds = doc["capture"]["kinds"]
        kinds += [{"kind": "sum"}] * rng.randint(1, 16 - len(kinds))
        if not any(k["kind"] == "sweep" for k in kinds):
            kinds.append({"kind": "sweep"})
    return yaml.safe_dump(doc, sort_keys=False)


def _rulesets(folder: Path):
    """(name, path) of every shipped ruleset, of the rulesets that overflowed the C's arrays, then of the
    random ones."""
    from tests.test_native import MANY_MOVES, SHARED_BONUSES
    for path in sorted(rulesets_dir().glob("*.yaml")):
        yield path.stem, path
    for name, text in (("shared-bonuses", SHARED_BONUSES), ("many-moves", MANY_MOVES)):
        path = folder / f"{name}.yaml"
        path.write_text(text, encoding="utf-8")
        yield f"{name} (tests/test_native.py)", path
    for i in range(RANDOM):
        rng = random.Random(f"sanitize:{i}")
        text = random_ruleset(rng)
        if i % 3 == 0:
            text = _stretched(text, rng)
        path = folder / f"random{i}.yaml"
        path.write_text(text, encoding="utf-8")
        yield f"random ruleset {i} (tests/test_native_sanitizers.py, seed 'sanitize:{i}')", path


def _source(path: Path) -> str | None:
    """The C of a ruleset; None where it is refused (invalid, or past what the native back end does)."""
    try:
        return native.source_of(compile_ruleset(path))
    except RulespecError:
        return None


def _driver(count: int) -> str:
    exports = "".join(f"int rs_shape_{i}(int, int32_t *);\n"
                      f"int rs_play_{i}(uint64_t, int64_t, int64_t, int, const int32_t *, int, int64_t *, int64_t *, "
                      f"int32_t *, int64_t, int64_t *, int64_t *, int64_t, int64_t *);\n"
                      f"int rs_vec_shape_{i}(int, int32_t *);\n"
                      f"void *rs_vec_new_{i}(int64_t);\n"
                      f"void rs_vec_free_{i}(void *);\n"
                      f"int rs_vec_reset_{i}(void *, int64_t, int, int, uint64_t, float *, int8_t *, int32_t *, "
                      f"int64_t, int64_t);\n"
                      f"int rs_vec_step_{i}(void *, int64_t, int, int, double, double, const int64_t *, float *, "
                      f"int8_t *, float *, int8_t *, int8_t *, int32_t *, int64_t, int64_t);\n"
                      f"int rs_vec_sample_{i}(void *, int64_t, int64_t *);\n"
                      f"int rs_vec_deal_{i}(void *, int64_t, int64_t *, uint8_t *);\n"
                      f"void rs_count_events_{i}(int64_t *);\nint64_t rs_event_counts_size_{i}(int);\n"
                      for i in range(count))
    vec = {name: ", ".join(f"rs_vec_{name}_{i}" for i in range(count))
           for name in ("shape", "new", "free", "reset", "step", "sample", "deal")}
    return r"""#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
""" + exports + f"""
typedef int (*Shape)(int, int32_t *);
typedef int (*Play)(uint64_t, int64_t, int64_t, int, const int32_t *, int, int64_t *, int64_t *, int32_t *, int64_t,
                    int64_t *, int64_t *, int64_t, int64_t *);
static const Shape SHAPES[] = {{{", ".join(f"rs_shape_{i}" for i in range(count))}}};
static const Play PLAYS[] = {{{", ".join(f"rs_play_{i}" for i in range(count))}}};
typedef void *(*VecNew)(int64_t);
typedef void (*VecFree)(void *);
typedef int (*VecReset)(void *, int64_t, int, int, uint64_t, float *, int8_t *, int32_t *, int64_t, int64_t);
typedef int (*VecStep)(void *, int64_t, int, int, double, double, const int64_t *, float *, int8_t *, float *, int8_t *,
                       int8_t *, int32_t *, int64_t, int64_t);
static const Shape VEC_SHAPES[] = {{{vec["shape"]}}};
static const VecNew VEC_NEWS[] = {{{vec["new"]}}};
static const VecFree VEC_FREES[] = {{{vec["free"]}}};
static const VecReset VEC_RESETS[] = {{{vec["reset"]}}};
static const VecStep VEC_STEPS[] = {{{vec["step"]}}};
typedef int (*VecSample)(void *, int64_t, int64_t *);
typedef int (*VecDeal)(void *, int64_t, int64_t *, uint8_t *);
static const VecSample VEC_SAMPLES[] = {{{vec["sample"]}}};
static const VecDeal VEC_DEALS[] = {{{vec["deal"]}}};
#define VEC_ENVS {VEC_ENVS}
#define VEC_STEPS_RUN {VEC_STEPS}
typedef void (*CountEvents)(int64_t *);
typedef int64_t (*CountsSize)(int);
static const CountEvents COUNT_EVENTS[] = {{{", ".join(f"rs_count_events_{i}" for i in range(count))}}};
static const CountsSize COUNTS_SIZE[] = {{{", ".join(f"rs_event_counts_size_{i}" for i in range(count))}}};
""" + r"""
/* the vector environments: VEC_ENVS envs, every seat an agent's (-1) then each seat the agent in turn, VEC_STEPS_RUN
 * batch steps of random legal
 * actions and, one in eight, any number (illegal ones, out of range); the observations and masks allocated at
 * exactly the sizes rs_vec_shape gives (the action count: the least, N_CARDS + 1, without declaration slots) */
static int vec_run(int r, int seats) {
    int32_t shape[32];
    if (VEC_SHAPES[r](seats, shape) != 0) return 0;
    int64_t size = shape[0], cards = shape[4] - shape[3], actions = cards + 1;   /* the hand block: N cards */
    uint64_t lcg = UINT64_C(88172645463325252) + (uint64_t)r;
    for (int agent = -1; agent < seats; agent++) {
        void *p = VEC_NEWS[r](VEC_ENVS);
        size_t rewards = (size_t)VEC_ENVS * (agent < 0 ? (size_t)seats : 1);      /* a reward per seat with -1 */
        float *obs = malloc(sizeof(float) * (size_t)(size * VEC_ENVS)), *reward = malloc(sizeof(float) * rewards);
        int32_t *seat = malloc(sizeof(int32_t) * VEC_ENVS);
        int8_t *mask = malloc((size_t)(actions * VEC_ENVS)), *term = malloc(VEC_ENVS), *illegal = malloc(VEC_ENVS);
        int64_t act[VEC_ENVS], index[VEC_ENVS];
        uint8_t *order = malloc((size_t)(cards * VEC_ENVS));
        int code = VEC_RESETS[r](p, VEC_ENVS, seats, agent, UINT64_C(777) + (uint64_t)r, obs, mask, seat, size,
                               actions);
        for (int t = 0; t < VEC_STEPS_RUN && code == 0; t++) {
            code = VEC_SAMPLES[r](p, VEC_ENVS, act);               /* a legal action each */
            for (int i = 0; i < VEC_ENVS; i++) {
                lcg = lcg * UINT64_C(6364136223846793005) + UINT64_C(1442695040888963407);
                if ((lcg >> 33) % 8 == 0) act[i] = (int64_t)(lcg >> 40) % (actions + 4) - 2;    /* or any number */
            }
            if (code == 0)
                code = VEC_STEPS[r](p, VEC_ENVS, seats, agent, 51.0, -51.0, act, obs, mask, reward, term, illegal,
                                    seat, size, actions);
        }
        if (code == 0) code = VEC_DEALS[r](p, VEC_ENVS, index, order);
        printf("vec %d %d %d\n", r, seats, code);
        VEC_FREES[r](p);
        free(obs); free(reward); free(mask); free(term); free(illegal); free(order); free(seat);
    }
    return 0;
}
""" + r"""
/* plays `hands` hands of every seat count of every ruleset (random and greedy bots in turn), then two games,
 * the arrays at exactly the sizes rs_shape and rs_event_counts_size give */
int main(int argc, char **argv) {
    int64_t hands = argc > 1 ? atoll(argv[1]) : 8;
    for (int r = 0; r < (int)(sizeof SHAPES / sizeof *SHAPES); r++) {
        for (int seats = 1; seats <= 8; seats++) {
            int32_t shape[4], bots[8];
            if (SHAPES[r](seats, shape) != 0) continue;
            for (int s = 0; s < seats; s++) bots[s] = s % 2;
            int k = shape[0], nc = shape[1], ne = shape[2], no = shape[3];
            size_t n_agg = (size_t)(4 + k + no + 2 * k * (nc + 2) + ne);
            size_t stride = (size_t)(2 + k * (nc + 1) + ne);
            int64_t cap = hands * 100, len = 0, rows_len = 0;
            int64_t *agg = calloc(n_agg, sizeof *agg), *trace = calloc((size_t)(6 * cap), sizeof *trace);
            int64_t *gagg = calloc((size_t)(2 + k), sizeof *gagg);
            int32_t *rows = calloc(stride * (size_t)hands, sizeof *rows);
            /* simulate's per-event figures too, in a buffer of exactly the size the library gives */
            int64_t *events = calloc((size_t)COUNTS_SIZE[r](seats), sizeof *events);
            COUNT_EVENTS[r](events);
            fprintf(stderr, "== ruleset %d seats %d\n", r, seats);
            int code = PLAYS[r](UINT64_C(12345) + (uint64_t)r, 0, hands, seats, bots, 0, agg, gagg, rows, hands,
                                &rows_len, trace, cap, &len);
            printf("%d %d %d %lld\n", r, seats, code, (long long)agg[0]);
            COUNT_EVENTS[r](0);
            if (code == 0) {
                int games = PLAYS[r](UINT64_C(777) + (uint64_t)r, 0, 2, seats, bots, 1, agg, gagg, rows, hands,
                                     &rows_len, trace, cap, &len);
                fprintf(stderr, "games: %d\n", games);
            }
            free(agg); free(gagg); free(trace); free(rows); free(events);
            fprintf(stderr, "== ruleset %d seats %d (vector environments)\n", r, seats);
            vec_run(r, seats);
        }
    }
    return 0;
}
"""


def _play(cc: str, folder: Path, number: int,
          batch: list[tuple[str, str]]) -> tuple[list[str], list[tuple], list[tuple]]:
    """Compile and run one batch: (findings, each with its ruleset's name; (ruleset, seats, code, hands) per run;
    (ruleset, seats, code) per run of the vector environments)."""
    files = []
    for i, (_, source) in enumerate(batch):
        path = folder / f"batch{number}_{i}.c"
        path.write_text("".join(f"#define {name} {name}_{i}\n" for name in EXPORTS) + source, encoding="utf-8")
        files.append(str(path))
    driver = folder / f"batch{number}_main.c"
    driver.write_text(_driver(len(batch)), encoding="utf-8")
    program = folder / f"batch{number}"
    built = subprocess.run([cc, *SANITIZE, *files, str(driver), "-o", str(program)], capture_output=True, text=True,
                           timeout=900)
    assert built.returncode == 0, built.stderr[-2000:]
    done = subprocess.run([str(program), str(HANDS)], capture_output=True, text=True, timeout=900,
                          env={**os.environ, **ENV})
    findings, current = [], "?"
    for line in done.stderr.splitlines():
        if line.startswith("== ruleset "):
            r, seats = line.split()[2], line.split()[4]
            current = f"{batch[int(r)][0]}, {seats} seats" + (" (vector environments)" if "vector" in line else "")
        elif any(mark in line for mark in FINDINGS):
            findings.append(f"{current}: {line.strip()}")
    if done.returncode != 0 and not findings:
        findings.append(f"{current}: the program stopped with code {done.returncode}: {done.stderr[-500:]}")
    runs = [tuple(int(x) for x in line.split()) for line in done.stdout.splitlines() if not line.startswith("vec ")]
    vector_runs = [tuple(int(x) for x in line.split()[1:]) for line in done.stdout.splitlines()
                   if line.startswith("vec ")]
    return findings, runs, vector_runs


def test_the_generated_c_of_shipped_and_random_rulesets_runs_clean_under_the_sanitizers(tmp_path, capsys):
    cc = native.find_compiler()
    why = _supported(cc, tmp_path)
    if why is not None:
        pytest.skip(why)
    built, refused, batch, jobs = 0, 0, [], []
    with ThreadPoolExecutor(max_workers=max(1, min(2, os.cpu_count() or 1))) as pool:
        for name, path in _rulesets(tmp_path):         # a batch is compiled while the next is generated
            source = _source(path)
            if source is None:
                refused += 1
                continue
            batch.append((name, source))
            built += 1
            if len(batch) == BATCH:
                jobs.append(pool.submit(_play, cc, tmp_path, len(jobs), batch))
                batch = []
        if batch:
            jobs.append(pool.submit(_play, cc, tmp_path, len(jobs), batch))
        results = [job.result() for job in jobs]
    findings = [f for found, _, _ in results for f in found]
    runs = [run for _, played, _ in results for run in played]
    vector_runs = [run for _, _, stepped in results for run in stepped]
    assert not findings, "\n".join(findings[:20])
    shipped = len(list(rulesets_dir().glob("*.yaml"))) + 2
    stopped = sum(1 for run in runs if run[2] != 0)
    with capsys.disabled():
        print(f"\nsanitizers: {built} rulesets ({shipped} shipped or written, {built - shipped} random; {refused} "
              f"random ones refused before C), {len(runs)} runs, {sum(run[3] for run in runs)} hands, "
              f"{stopped} runs stopped by a limit of the C, 0 findings", file=sys.stderr)
    assert built >= shipped + RANDOM // 2 and sum(run[3] for run in runs) > 0
    assert sum(1 for run in vector_runs if run[2] == 0) >= shipped      # the vector environments were stepped
