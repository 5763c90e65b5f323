"""Benchmark: a hand's random stream, Python's MT19937 against rulespec stream 1, in Python and in C.

    python bench/streams.py [--hands 20000]

What a hand of Cirulla draws (a 40-card shuffle, then 36 choices among a few moves), per hand, µs of CPU:

- Python: `random.Random("rulespec-sim:SEED:I")` (the scheme before issue 26: a string hashed into MT19937),
  `random.Random(int)`, and `Stream.for_hand(seed, i)` (rulespec/run/stream.py), each seeding, shuffling and
  drawing the choices (`randrange` for random.Random, as RandomBot did);
- C (built here with cc -O2): seeding MT19937 from a 64-bit integer as CPython does (init_by_array) and its
  first 80 outputs, against stream 1's seeding and 80 draws: what a native hand would pay for each.
The figures move with the machine's load: compare them within one run.
"""
from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from rulespec.run.stream import Stream  # noqa: E402

MOVES = [1, 3, 2, 5, 4, 1, 7, 2, 3, 1, 1, 2, 4, 6, 3, 2, 1, 1, 2, 3, 4, 5, 2, 1, 1, 1, 3, 2, 2, 1, 4, 3, 2, 1, 1, 1]

C_SOURCE = r"""
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#define N 624
#define M 397
static uint32_t BASE[N], mt[N]; static int mti;
static void seed_mt(uint64_t x) {           /* CPython's random_seed of a non-negative int: init_by_array */
    uint32_t key[2] = {(uint32_t)x, (uint32_t)(x >> 32)}; int kl = key[1] ? 2 : 1;
    for (int q = 0; q < N; q++) mt[q] = BASE[q];
    int i = 1, j = 0, k = N > kl ? N : kl;
    for (; k; k--) { mt[i] = (mt[i] ^ ((mt[i-1] ^ (mt[i-1] >> 30)) * 1664525u)) + key[j] + j; i++; j++;
                     if (i >= N) { mt[0] = mt[N-1]; i = 1; } if (j >= kl) j = 0; }
    for (k = N - 1; k; k--) { mt[i] = (mt[i] ^ ((mt[i-1] ^ (mt[i-1] >> 30)) * 1566083941u)) - i; i++;
                              if (i >= N) { mt[0] = mt[N-1]; i = 1; } }
    mt[0] = 0x80000000u; mti = N;
}
static uint32_t gen_mt(void) {
    if (mti >= N) { int kk; uint32_t y;
        for (kk = 0; kk < N - 1; kk++) { y = (mt[kk] & 0x80000000u) | (mt[kk+1] & 0x7fffffffu);
            mt[kk] = mt[(kk + M) % N] ^ (y >> 1) ^ ((y & 1) ? 0x9908b0dfu : 0); }
        y = (mt[N-1] & 0x80000000u) | (mt[0] & 0x7fffffffu); mt[N-1] = mt[M-1] ^ (y >> 1) ^ ((y & 1) ? 0x9908b0dfu : 0);
        mti = 0; }
    uint32_t y = mt[mti++]; y ^= y >> 11; y ^= (y << 7) & 0x9d2c5680u; y ^= (y << 15) & 0xefc60000u; return y ^ (y >> 18);
}
static inline uint64_t mix(uint64_t z) { z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull; return z ^ (z >> 31); }
int main(int argc, char **argv) {
    int n = atoi(argv[1]); uint64_t acc = 0;
    BASE[0] = 19650218u; for (int i = 1; i < N; i++) BASE[i] = 1812433253u * (BASE[i-1] ^ (BASE[i-1] >> 30)) + i;
    clock_t t = clock();
    for (int h = 0; h < n; h++) { seed_mt(mix(h + 0x9E3779B97F4A7C15ull)); for (int d = 0; d < 80; d++) acc += gen_mt(); }
    double mt_us = (double)(clock() - t) / CLOCKS_PER_SEC / n * 1e6;
    t = clock();
    for (int h = 0; h < n; h++) { uint64_t s = mix(7 ^ mix(h + 0x9E3779B97F4A7C15ull));
        for (int d = 0; d < 80; d++) acc += mix(s += 0x9E3779B97F4A7C15ull); }
    double st_us = (double)(clock() - t) / CLOCKS_PER_SEC / n * 1e6;
    printf("%.3f %.3f %llu\n", mt_us, st_us, (unsigned long long)acc);
    return 0;
}
"""


def per_hand(make, hands: int, draw) -> float:
    start = time.process_time()
    for i in range(hands):
        rng = make(i)
        deck = list(range(40))
        rng.shuffle(deck)
        for m in MOVES:
            draw(rng, m)
    return (time.process_time() - start) / hands * 1e6


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--hands", type=int, default=20000)
    hands = ap.parse_args().hands
    print(f"µs per hand (seed, 40-card shuffle, {len(MOVES)} choices), {hands} hands, best of 3")
    rows = [("Python, random.Random('rulespec-sim:0:I')", lambda i: random.Random(f"rulespec-sim:0:{i}"),
             lambda r, m: r.randrange(m)),
            ("Python, random.Random(int)", lambda i: random.Random(i * 0x9E3779B97F4A7C15 & (2**64 - 1)),
             lambda r, m: r.randrange(m)),
            ("Python, Stream.for_hand(0, I)", lambda i: Stream.for_hand(0, i), lambda r, m: r.below(m))]
    for name, make, draw in rows:
        print(f"  {name:45} {min(per_hand(make, hands, draw) for _ in range(3)):8.2f}")
    with tempfile.TemporaryDirectory() as folder:
        src, exe = os.path.join(folder, "s.c"), os.path.join(folder, "s")
        with open(src, "w") as f:
            f.write(C_SOURCE)
        subprocess.run(["cc", "-O2", "-o", exe, src], check=True)
        runs = [subprocess.run([exe, str(hands * 50)], capture_output=True, text=True, check=True).stdout.split()
                for _ in range(3)]
    print(f"  {'C, MT19937 seeded from an int + 80 outputs':45} {min(float(r[0]) for r in runs):8.3f}")
    print(f"  {'C, stream 1 seeded + 80 words':45} {min(float(r[1]) for r in runs):8.3f}")


if __name__ == "__main__":
    main()
