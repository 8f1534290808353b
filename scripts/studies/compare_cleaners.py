#!/usr/bin/env python
"""Per set, one tool of a ``webprune eval-cleaning --json`` run against the best peer of that run, per page.

    scripts/studies/compare_cleaners.py build/bench/cleaning.json --tool 'webprune/learned+hints+links'

For each set: the peer with the highest macro word F1 (``--peers``), the tool's mean F1 difference to it
(x100; the benchmark's figure) with a 95% percentile bootstrap interval over the set's pages (scipy's
``bootstrap``, paired: the per-page differences are resampled), the median difference, the pages won, lost
and tied, and the Wilcoxon signed-rank p of the per-page differences (scipy; two-sided, so read its
direction off the median and the pages won and lost). ``--tool`` is a tool id, or one without its
``+learned_model(...)``/``+prune(...)`` model path.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np
from scipy.stats import bootstrap, wilcoxon

PEERS = ("trafilatura", "resiliparse", "justext", "boilerpy3", "readability")


def compare(rows: list[dict], tool: str, peers: tuple[str, ...]) -> list[dict]:
    f1: dict[str, dict] = {}
    for r in rows:
        f1.setdefault(r["tool"], {})[(r["set"], r["name"])] = r["f1"]
    # the tool itself, else the one tool it starts with whose rest is a model path (+learned_model(...), +prune(...))
    mine = [tool] if tool in f1 else [t for t in f1 if t.startswith(tool + "+learned_model(")
                                      or t.startswith(tool + "+prune(")]
    if len(mine) != 1:
        raise ValueError(f"--tool {tool!r} matches {len(mine)} tools of the run; its tools: {', '.join(f1)}")
    ours = f1[mine[0]]
    present = [p for p in peers if p in f1]
    if not present:
        raise ValueError(f"none of the peers {', '.join(peers)} is in the run: add them to its --tools")
    out = []
    for s in sorted({k[0] for k in ours}, key=[k[0] for k in ours].index):
        keys = [k for k in ours if k[0] == s]
        best = max(present, key=lambda p: np.mean([f1[p][k] for k in keys]))
        d = np.array([ours[k] - f1[best][k] for k in keys])
        low = high = p = np.nan  # one page: no interval, no test
        if len(d) > 1:
            ci = bootstrap((d,), np.mean, n_resamples=5000, method="percentile", random_state=0).confidence_interval
            low, high = ci.low, ci.high
            p = wilcoxon(d).pvalue if np.any(d != 0) else 1.0
        out.append({"set": s, "pages": len(keys), "peer": best, "diff": 100 * d.mean(), "median": 100 * np.median(d),
                    "low": 100 * low, "high": 100 * high, "won": int((d > 0).sum()), "lost": int((d < 0).sum()),
                    "tied": int((d == 0).sum()), "wilcoxon_p": float(p)})
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("run", type=Path, help="the --json file of a webprune eval-cleaning run")
    ap.add_argument("--tool", required=True, help="the tool id, or the id without its +learned_model(...) or "
                                                   "+prune(...) model path")
    ap.add_argument("--peers", default=",".join(PEERS), help="comma list (default: every peer)")
    args = ap.parse_args(argv)
    try:
        rows = json.loads(args.run.read_text())["pages"]
    except (OSError, ValueError, KeyError) as e:
        ap.error(f"{args.run} is not an eval-cleaning --json file ({e}): write one with webprune eval-cleaning --json")
    try:
        results = compare(rows, args.tool, tuple(p for p in args.peers.split(",") if p))
    except ValueError as e:
        ap.error(str(e))
    print(f"{args.tool} against the best peer per set (word F1 x100, paired over pages)\n")
    print("| set | best peer | mean difference | 95% CI | median difference | pages won / lost / tied "
          "| Wilcoxon p |\n|---|---|---:|---:|---:|---:|---:|")
    for r in results:
        print(f"| {r['set']} | {r['peer']} | {r['diff']:+.2f} | [{r['low']:+.2f}, {r['high']:+.2f}] | "
              f"{r['median']:+.2f} | {r['won']} / {r['lost']} / {r['tied']} | {r['wilcoxon_p']:.3g} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
