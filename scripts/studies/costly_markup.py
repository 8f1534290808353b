#!/usr/bin/env python
"""The markup lexbor parses in superlinear time (tests/test_hostile_payloads.py's ``COSTLY`` pages): what a whole
parse costs, and what the parse step's cost probe predicts from its prefixes.

    scripts/studies/costly_markup.py [--budgets 5 10] [--repeat 3] [--cap 120] [--busy 0]

For each page: the CPU seconds of ``HTMLTree.parse`` on the whole page, in a child process stopped after
``--cap`` seconds; and ``--repeat`` times for each budget, ``preprocess.steps.parse.predicted_cost``'s verdict
(the predicted seconds, or ``parse`` when it lets the page through) and the probes' CPU seconds. A page the
probe lets through costs its worker the whole parse. Then the same for ordinary pages of 15-16 MiB, just under the
default ``--max-bytes`` (``ORDINARY_NEAR_MAX_BYTES``: the largest probes, where the caches make growth jump), and
the verdicts on the real pages over 128 KiB (``../shared/data/cleaning/*/input`` decoded as UTF-8, of
which the probe meets those whose string is over 128 KiB): every ordinary page should be parsed.
"""
from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.test_hostile_payloads import COSTLY as TESTED, ORDINARY_NEAR_MAX_BYTES  # noqa: E402

COSTLY = dict(TESTED)  # and two smaller ones, near the budgets (12-16 s whole on the EPYC)
COSTLY["unclosed_options_45k"] = lambda: "<html><body><select>" + "<option>x" * 45_000 + "</select>"
COSTLY["distinct_attribute_names_200k"] = lambda: "<html><body>" + "".join(f'<p a{i}="x">t</p>'
                                                                           for i in range(200_000))

CHILD = """
import sys, time
sys.path.insert(0, {here!r})
from resiliparse.parse.html import HTMLTree
from costly_markup import page
html = page({name!r})
t0 = time.thread_time()
HTMLTree.parse(html)
print(time.thread_time() - t0)
"""


def page(name: str) -> str:
    """A costly page with real words after the markup (as the tests build it), or an ordinary one."""
    if name in COSTLY:
        return COSTLY[name]() + "<p>" + "real words " * 200 + "</p></body></html>"
    return ORDINARY_NEAR_MAX_BYTES[name]()


BUSY = ("import os\nx, p = bytearray(48 << 20), os.getppid()\n"
        "while os.getppid() == p:\n    x[::64] = bytes(len(x) // 64)")


def whole_parse(name: str, cap: float) -> str:
    try:
        out = subprocess.run([sys.executable, "-c", CHILD.format(here=str(Path(__file__).parent), name=name)],
                             capture_output=True, text=True, timeout=cap)
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
    ap.add_argument("--busy", type=int, default=0, help="processes writing across memory beside the probes")
    a = ap.parse_args()
    if a.repeat < 1 or a.cap <= 0 or any(b <= 0 for b in a.budgets) or a.busy < 0:
        ap.error("--repeat, --cap and --budgets must be positive, --busy not negative")
    busy = []
    try:
        busy += [subprocess.Popen([sys.executable, "-c", BUSY]) for _ in range(a.busy)]
        return report(a)
    finally:
        for p in busy:
            p.kill()


def report(a) -> int:
    from resiliparse.parse.html import HTMLTree

    from preprocess.steps.parse import PROBE_FROM, predicted_cost
    from webprune.benchdata import cleaning_pages

    print("| page | characters | whole parse, CPU | " + " | ".join(f"probe at {b:g} s: verdict (probe CPU s)"
                                                        for b in a.budgets) + " |")
    print("|---|---:|---:|" + "---|" * len(a.budgets))
    for name in sorted(COSTLY) + sorted(ORDINARY_NEAR_MAX_BYTES):
        html = page(name)
        cells = []
        for budget in a.budgets:
            runs = []
            for _ in range(a.repeat):
                t0 = time.thread_time()
                cost = predicted_cost(HTMLTree.parse, html, budget)
                probe = time.thread_time() - t0
                runs.append(("parse" if cost is None else f"{cost:.1f} s") + f" ({probe:.2f})")
            cells.append(", ".join(runs))
        label = name if name in COSTLY else f"ordinary: {name}"
        print(f"| {label} | {len(html):,} | {whole_parse(name, a.cap)} | " + " | ".join(cells) + " |", flush=True)
    big = [p for p in cleaning_pages() if p.stat().st_size > PROBE_FROM]
    texts = {p: p.read_bytes().decode("utf-8", "replace") for p in big}
    big = [p for p in big if len(texts[p]) > PROBE_FROM]
    for budget in a.budgets:
        refused = [p.name for p in big if predicted_cost(HTMLTree.parse, texts[p], budget) is not None]
        print(f"\nshared cleaning pages over {PROBE_FROM >> 10} KiB (characters) at {budget:g} s: {len(big)}, parsed "
              f"{len(big) - len(refused)}, refused {len(refused)}"
              + (f" ({', '.join(refused[:10])})" if refused else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
