"""The built-in example: 13 hand-written pages (webprune/example/) packed into a WARC, 6 topics, qrels.

``webprune example`` packs the pages into ``build/example/example.warc.gz`` and
replays ``configs/example.toml``: tag removal (the baseline) against the learned cleaner, alone and
with pruning by a contrastive model learned from the example's own crawl, with the report (``report.md``, ``report.html``) in the output folder. Page ``ex-13``'s
sidebar of bicycle-chain links puts it first for "bicycle chain lubrication" under tag removal.
"""
from __future__ import annotations

from pathlib import Path

import dataclasses

from webprune.config import load_config
from webprune.experiment import run_experiment
from webprune.warcpack import pack_pages

ROOT = Path(__file__).resolve().parent.parent
PAGES = Path(__file__).resolve().parent / "example" / "pages"
CONFIG = ROOT / "configs" / "example.toml"
HOST = "http://tinkerer.example/"


def pack_example(warc: Path) -> int:
    pages = sorted(PAGES.glob("*.html"))
    return pack_pages(((p.stem, HOST + p.name, p.read_bytes()) for p in pages), warc)


def run_example(output: str | Path = "runs/example", workers: int | None = None, progress: bool | None = None) -> dict:
    exp = load_config(CONFIG)
    pack_example(exp.path(exp.collection.inputs[0]))
    if workers:
        exp = dataclasses.replace(exp, preprocess=dataclasses.replace(exp.preprocess, workers=workers))
    return run_experiment(exp, output, fresh=True, progress=progress)
