#!/usr/bin/env python
"""Crawls with duplicate pages, built from the shared cleaning pages, and the models train-crawl learns from them.

Three crawls of the 2,871 pages of the five article sets (``webprune.benchdata``; ids and
URLs as ``pack_cleaning_pages``, so a copy sits on the same host, as a re-crawl would):

* ``single``: every page once;
* ``x6``: every page six times under new ids (``pack_cleaning_pages(copies=6)``): exact duplicates;
* ``mixed``: every page once, and a third of them (``random.Random(24)``) twice more, each extra copy with
  one line added before ``</body>`` ("Crawled on 2024-06-0k ...") so it is a near-duplicate, not a copy.

Each crawl gets ``webprune lm train-crawl --sample-docs 0 --local`` (one model for all five sets, trigram,
default labelling) under ``nice``; ``--dedup off`` models show what duplicates did before. ``--old-checkout
DIR`` also trains the single crawl with the code of DIR (its own .venv): the model files before this change.
Score them all on the same gold lines: ``scripts/studies/eval_contrastive_lines.py --compare NAME=MODEL ...``.

Usage: python scripts/studies/contrastive_duplicates.py [--out build/contrastive/dups] [--runs single,x6,mixed,mixed-nodedup]
"""
from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import time
from pathlib import Path

from webprune.benchdata import ROOT, cleaning_pages, pack_cleaning_pages, page_record
from webprune.warcpack import pack_pages

RUNS = {"single": ("single", []), "x6": ("x6", []), "mixed": ("mixed", []),
        "x6-nodedup": ("x6", ["--dedup", "off"]), "mixed-nodedup": ("mixed", ["--dedup", "off"])}


def mixed_records(share: float = 1 / 3, extra: int = 2, seed: int = 24):
    """Every page once, then ``extra`` near-duplicate copies of a random ``share`` of them."""
    pages = cleaning_pages()
    yield from (page_record(p) for p in pages)
    rng = random.Random(seed)
    for p in [p for p in pages if rng.random() < share]:
        for k in range(1, extra + 1):
            doc_id, url, data = page_record(p, k)
            stamp = f"<p>Crawled on 2024-06-0{k} at 1{k}:00 UTC, copy {k}.</p>".encode()
            at = data.lower().rfind(b"</body>")
            yield doc_id, url, (data[:at] + stamp + data[at:]) if at >= 0 else data + stamp


def crawl(name: str, out: Path) -> Path:
    folder = out / "warc" / name
    if name == "mixed":
        path = folder / "mixed.warc.gz"
        if not path.exists():
            print(f"packed {pack_pages(mixed_records(), path)} pages -> {path}", file=sys.stderr)
        return path
    return pack_cleaning_pages(folder, copies=6 if name == "x6" else 1)[0]


def train(python: str, cwd: Path, warc: Path, model: Path, extra: list[str]) -> dict | None:
    card = model / "contrastive.json"
    if not card.exists():
        cmd = ["nice", "-n", "10", python, "-m", "webprune.cli", "lm", "train-crawl", str(warc), "-o", str(model),
               "--sample-docs", "0", "--local", *extra]
        t0 = time.perf_counter()
        done = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True)
        print(f"{model.name}: {time.perf_counter() - t0:.0f} s, exit {done.returncode}: "
              f"{(done.stdout or done.stderr).strip().splitlines()[-1:]}", file=sys.stderr)
        if done.returncode:
            return None
    return json.loads(card.read_text())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", type=Path, default=ROOT / "build" / "contrastive" / "dups")
    ap.add_argument("--runs", default="single,x6,mixed,mixed-nodedup")
    ap.add_argument("--old-checkout", type=Path, default=None, help="also train `single` with this checkout's code")
    a = ap.parse_args()
    print("| model | pages read | duplicates found (exact / near) | languages | content lines | boilerplate lines "
          "| kept but repeated | seconds |")
    print("|---|---:|---:|---|---:|---:|---:|---:|")
    jobs = [(r, sys.executable, ROOT) for r in a.runs.split(",")]
    if a.old_checkout:
        jobs.append(("single-old", str(a.old_checkout / ".venv" / "bin" / "python"), a.old_checkout))
    for run, python, cwd in jobs:
        name, extra = RUNS[run.removesuffix("-old")]
        card = train(python, cwd, crawl(name, a.out), a.out / "models" / run, extra)
        if card is None:
            print(f"| {run} | | | | no model | | | |")
            continue
        d = card.get("duplicates", {})
        print(f"| {run} | {card['sample']['documents']:,} | {d.get('duplicates', '-')} ({d.get('exact', '-')} / "
              f"{d.get('near', '-')}) | {', '.join(card.get('languages', ['(one pair)']))} | "
              f"{card['content']['lines']:,} | {card['boilerplate']['lines']:,} | "
              f"{card['label_counts'].get('kept_but_repeated', 0):,} | {card['training']['wall_s']} |", flush=True)


if __name__ == "__main__":
    main()
