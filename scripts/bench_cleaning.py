#!/usr/bin/env python3
"""CleanEval-style quality benchmark, side by side with the peers: ``webprune eval-cleaning`` (eval/cleaning_bench.py)."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from eval.cleaning.cli import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
