"""Benchmark: what `rulespec validate` costs on a 2 MiB ruleset that breaks no documented bound.

    python -m bench.validate_big [--rounds 3]

Each case (tests/big_files.py, whose work tests/test_validate_cost.py counts) is a file just under the
size limit (`yamlsafe.MAX_BYTES`) and the node limit, written to a temporary folder: validate runs on it
in this process, as `rulespec validate FILE` does, and so does the baseline, PyYAML's libyaml loader
(`yaml.load(data, CSafeLoader)`) on the same bytes, rounds alternated. Printed: CPU seconds of each and
the ratio validate / baseline (steadier than seconds on a busy machine). A stranger's file is refused,
located, in a small multiple of the time libyaml takes merely to read it.
"""
from __future__ import annotations

import argparse
import io
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import yaml  # noqa: E402

from rulespec.cli.main import run  # noqa: E402
from tests.big_files import cases  # noqa: E402


def measure(path: Path, rounds: int) -> tuple[float, float]:
    """The least CPU seconds of validate and of the baseline over `rounds` alternated rounds."""
    data = path.read_bytes()
    ours, base = [], []
    for _ in range(rounds):
        t0 = time.process_time()
        run(["validate", str(path)], io.StringIO(), io.StringIO())
        t1 = time.process_time()
        try:
            yaml.load(data, Loader=yaml.CSafeLoader)
        except yaml.YAMLError:
            pass
        t2 = time.process_time()
        ours.append(t1 - t0)
        base.append(t2 - t1)
    return min(ours), min(base)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args(argv)
    print(f"{'case':36} {'bytes':>9} {'validate s':>11} {'libyaml s':>10} {'ratio':>6}")
    with tempfile.TemporaryDirectory() as folder:
        for name, text in cases().items():
            path = Path(folder) / "big.yaml"
            path.write_text(text, encoding="utf-8")
            ours, base = measure(path, args.rounds)
            print(f"{name:36} {path.stat().st_size:9} {ours:11.2f} {base:10.2f} {ours / base:6.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
