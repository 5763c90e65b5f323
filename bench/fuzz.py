"""The fuzzer's command line (the fuzzer is tests/fuzz.py; the suite runs it briefly in tests/test_fuzz.py).

    python bench/fuzz.py --seconds 600 [--seed 1] [--target all|rulesets|expressions|transcripts|injection] [--out DIR]
"""
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tests.fuzz import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
