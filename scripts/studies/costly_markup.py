#!/usr/bin/env python
"""The markup lexbor parses in superlinear time (tests/test_hostile_payloads.py's ``COSTLY`` pages): what a whole
parse costs, and what the parse step's cost probe predicts from its prefixes.

    scripts/studies/costly_markup.py [--budgets 5 10] [--repeat 3] [--cap 120]

For each page: the CPU seconds of ``HTMLTree.parse`` on the whole page, in a child process stopped after
``--cap`` seconds; and ``--repeat`` times for each budget, ``preprocess.steps.parse.predicted_cost``'s verdict
(the predicted seconds, or ``parse`` when it lets the page through) and the probes' CPU seconds. A page the
probe lets through costs its worker the whole parse. Then the verdicts on the real pages that meet the probe: the
shared cleaning pages over 128 KiB (``../shared/data/cleaning/*/input``), which should all be parsed.
"""
from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

CHILD = """
import sys, time
sys.path.insert(0, {root!r})
from resiliparse.parse.html import HTMLTree
from tests.test_hostile_payloads import COSTLY
html = COSTLY[{name!r}]() + "<p>" + "real words " * 200 + "</p></body></html>"
t0 = time.thread_time()
HTMLTree.parse(html)
print(time.thread_time() - t0)
"""


def whole_parse(name: str, cap: float) -> str:
    try:
        out = subprocess.run([sys.executable, "-c", CHILD.format(root=str(ROOT), name=name)], capture_output=True,
                             text=True, timeout=cap)
    except subprocess.TimeoutExpired:
        return f"> {cap:g} s (stopped)"
    if out.returncode != 0:
        sys.exit(f"{name}: the whole parse failed: {out.stderr[-500:]}")
    return f"{float(out.stdout):.1f} s"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--budgets", type=float, nargs="+", default=[5.0, 10.0], help="--max-parse-seconds values")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--cap", type=float, default=120.0, help="seconds a whole parse may take before it is stopped")
    a = ap.parse_args()
    if a.repeat < 1 or a.cap <= 0 or any(b <= 0 for b in a.budgets):
        ap.error("--repeat, --cap and --budgets must be positive")
    from resiliparse.parse.html import HTMLTree

    from preprocess.steps.parse import PROBE_FROM, predicted_cost
    from tests.test_hostile_payloads import COSTLY
    from webprune.benchdata import cleaning_pages

    print("| page | characters | whole parse, CPU | " + " | ".join(f"probe at {b:g} s: verdict (probe CPU s)"
                                                        for b in a.budgets) + " |")
    print("|---|---:|---:|" + "---|" * len(a.budgets))
    for name in sorted(COSTLY):
        html = COSTLY[name]() + "<p>" + "real words " * 200 + "</p></body></html>"
        cells = []
        for budget in a.budgets:
            runs = []
            for _ in range(a.repeat):
                t0 = time.thread_time()
                cost = predicted_cost(HTMLTree.parse, html, budget)
                probe = time.thread_time() - t0
                runs.append(("parse" if cost is None else f"{cost:.1f} s") + f" ({probe:.2f})")
            cells.append(", ".join(runs))
        print(f"| {name} | {len(html):,} | {whole_parse(name, a.cap)} | " + " | ".join(cells) + " |", flush=True)
    big = [p for p in cleaning_pages() if p.stat().st_size > PROBE_FROM]
    for budget in a.budgets:
        refused = [p.name for p in big
                   if predicted_cost(HTMLTree.parse, p.read_bytes().decode("utf-8", "replace"), budget) is not None]
        print(f"\nshared cleaning pages over {PROBE_FROM >> 10} KiB at {budget:g} s: {len(big)}, parsed "
              f"{len(big) - len(refused)}, refused {len(refused)}" + (f" ({', '.join(refused[:10])})" if refused else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
