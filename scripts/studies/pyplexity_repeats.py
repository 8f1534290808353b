#!/usr/bin/env python
"""Does pyplexity's tag remover cost the same a page over the pages once as over them x6 (as bench_preprocess.py
measured it before it measured the pages once around each row)?

    scripts/studies/pyplexity_repeats.py [--rounds 2]

The 2,871 real pages of ../shared/data/cleaning/*/input, in pyplexity's own venv (scripts/setup_pyplexity.sh),
``--repeat 1`` and ``--repeat 6`` alternated; prints each run's CPU and wall ms a page.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT), str(ROOT / "scripts")]

from peers.pyplexity_runs import pyplexity  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=2)
    a = ap.parse_args()
    for r in range(a.rounds):
        for copies in (1, 6):
            res = pyplexity(copies)
            if res is None:
                sys.exit(2)
            print(f"round {r + 1}, pages x{copies}: {1000 * res['cpu_seconds'] / res['docs']:.3f} ms a page CPU, "
                  f"{1000 * res['seconds'] / res['docs']:.3f} wall", flush=True)


if __name__ == "__main__":
    main()
