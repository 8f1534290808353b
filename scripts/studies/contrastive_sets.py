#!/usr/bin/env python
"""Each shared cleaning set as a crawl, and a contrastive model trained on its pages (never its gold).

For every set of the shared cleaning data, its input pages are packed into
``OUT/warc/<set>.warc.gz`` as ``webprune eval-cleaning`` feeds them (CleanEval's
``<text>`` wrapper removed; the URL the page names, ``eval.cleaning.gold.page_url``,
else ``http://<set>.invalid/<name>``, so URL-less pages of a set form one host), and
``webprune lm train-crawl OUT/warc/<set>.warc.gz -o OUT/models/<set> --sample-docs 0``
runs on it through the CLI (under ``nice``). Gold files are never read.

``--copies K`` also packs every set K times into ``OUT/warc/all-copy<k>.warc.gz`` (copy
k on hosts ``ck.<host>``: a copy is a new site) for the training-cost benchmark.
Existing WARCs and models are reused unless ``--force``; extra ``train-crawl``
options go after ``--`` (``--tag NAME`` writes the models to ``OUT/models-NAME/``).

Usage: python scripts/studies/contrastive_sets.py [--sets a,b] [--out build/contrastive] [--force] [-- OPTIONS]
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
import zlib
from pathlib import Path

from eval.cleaning.gold import FORMATS, page_url
from eval.cleaning.harness import strip_wrapper
from webprune.benchdata import ROOT, shared_data
from webprune.warcpack import pack_pages


def fold_of(doc_id: str, folds: int) -> int:
    return zlib.crc32(doc_id.encode()) % folds


def set_records(name: str, copy: int = 0, leave_out: tuple[int, int] | None = None):
    """(id, url, bytes) of a set's pages; ``leave_out=(k, K)`` leaves out the pages of fold k of K."""
    for f in sorted(shared_data("cleaning", name, "input").glob("*.html")):
        if leave_out and fold_of(f"{name}/{f.stem}", leave_out[1]) == leave_out[0]:
            continue
        raw = f.read_bytes()
        url = page_url(raw) or f"http://{name}.invalid/{f.stem}"
        if copy:
            scheme, rest = url.split("://", 1)
            url = f"{scheme}://c{copy}.{rest}"
        yield f"{name}/{f.stem}" + (f"#{copy}" if copy else ""), url, strip_wrapper(raw)


def pack_set(name: str, out: Path, leave_out: tuple[int, int] | None = None) -> Path:
    if not out.exists():
        n = pack_pages(set_records(name, leave_out=leave_out), out)
        print(f"packed {n} pages of {name} -> {out}", file=sys.stderr)
    return out


def train(warcs: list[Path], model: Path, extra: list[str], force: bool = False) -> dict:
    card = model / "contrastive.json"
    if card.exists() and not force:
        return json.loads(card.read_text())
    cmd = ["nice", "-n", "10", sys.executable, "-m", "webprune.cli", "lm", "train-crawl", *map(str, warcs),
           "-o", str(model), "--sample-docs", "0", *extra]
    t0 = time.perf_counter()
    subprocess.run(cmd, check=True)
    print(f"trained {model} in {time.perf_counter() - t0:.1f} s", file=sys.stderr)
    return json.loads(card.read_text())


def main() -> None:
    argv = sys.argv[1:]
    extra = argv[argv.index("--") + 1:] if "--" in argv else []
    argv = argv[: argv.index("--")] if "--" in argv else argv
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sets", default=",".join(FORMATS))
    ap.add_argument("--out", type=Path, default=ROOT / "build" / "contrastive")
    ap.add_argument("--tag", default="", help="models go to OUT/models-TAG/<set>")
    ap.add_argument("--copies", type=int, default=0, help="also pack all sets K times into OUT/warc/all-xK.warc.gz")
    ap.add_argument("--force", action="store_true")
    ap.add_argument("--folds", type=int, default=0,
                    help="also train K models per set, OUT/models-folds/<set>-k on the pages outside fold k (crc32 of "
                         "the page id): scores for pages the model never saw")
    a = ap.parse_args(argv)
    models = a.out / (f"models-{a.tag}" if a.tag else "models")
    print("| set | pages | content lines / tokens | boilerplate lines / tokens | kept but repeated | seconds |")
    print("|---|---:|---:|---:|---:|---:|")
    for name in a.sets.split(","):
        warc = pack_set(name, a.out / "warc" / f"{name}.warc.gz")
        card = train([warc], models / name, extra, a.force)
        print(f"| {name} | {card['sample']['documents']} | {card['content']['lines']:,} / "
              f"{card['content']['tokens']:,} | {card['boilerplate']['lines']:,} / {card['boilerplate']['tokens']:,} "
              f"| {card['label_counts'].get('kept_but_repeated', 0):,} | {card['training']['wall_s']} |", flush=True)
        for k in range(a.folds):
            fwarc = pack_set(name, a.out / "warc" / f"{name}-without-{k}of{a.folds}.warc.gz", (k, a.folds))
            train([fwarc], a.out / "models-folds" / f"{name}-{k}of{a.folds}", extra, a.force)
    if a.copies:  # one file per copy: train-crawl makes one work unit per file
        for k in range(a.copies):
            out = a.out / "warc" / f"all-copy{k}.warc.gz"
            if not out.exists():
                n = pack_pages((r for s in a.sets.split(",") for r in set_records(s, k)), out)
                print(f"packed {n} pages -> {out}", file=sys.stderr)
            print(out)


if __name__ == "__main__":
    main()
