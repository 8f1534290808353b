#!/usr/bin/env python
"""Contrastive pruning and retrieval on CACM inside real web boilerplate (``webprune.cacm_web``).

1. The CACM-web WARC is built (``build/cacm-web/cacm-web.warc.gz``, as the
   ``cacm-web-*`` configs build it) and ``webprune lm train-crawl`` learns a
   contrastive model from it (all 3,204 pages, default options; no qrels).
2. Variants are cleaned, indexed and searched with QL-Dirichlet (mu=1000) and
   evaluated against ``tags`` (Wilcoxon, as ``webprune eval``):
   tags; the best DOM cleanings with and without contrastive pruning at its
   default threshold; and a **WET-only** variant: the ``tags`` output written as
   WET ``conversion`` records (text only, no HTML left) and pruned without a DOM.
Reported: P@5, P@10, AP, nDCG@10 and the index size of each variant.

Usage: python scripts/studies/eval_contrastive_cacm.py [--out build/contrastive/cacm] [--workers 2]
"""
from __future__ import annotations

import argparse
import gzip
import json
from io import BytesIO
from pathlib import Path

from webprune.benchdata import ROOT, shared_data


def write_wet(collection: Path, out: Path) -> Path:
    """The JsonCollection shards of a run as a WET file: one conversion record per document."""
    from warcio.warcwriter import WARCWriter

    tmp = out.with_name(out.name + ".tmp")
    with open(tmp, "wb") as fh:
        writer = WARCWriter(fh, gzip=True)
        for shard in sorted(collection.glob("*.jsonl*")):
            opener = gzip.open if shard.suffix == ".gz" else open
            with opener(shard, "rt", encoding="utf-8") as f:
                for line in f:
                    d = json.loads(line)
                    rec = writer.create_warc_record(d["url"] or f"urn:{d['id']}", "conversion",
                                                    payload=BytesIO(d["contents"].encode("utf-8")),
                                                    warc_headers_dict={"WARC-TREC-ID": d["id"],
                                                                       "Content-Type": "text/plain"})
                    writer.write_record(rec)
    tmp.replace(out)
    return out


def main() -> None:
    from eval.evaluate import evaluate
    from eval.report.tables import markdown_table
    from index.build import build_index
    from preprocess.driver.train_crawl import train_crawl
    from preprocess.train_crawl.options import CrawlOptions
    from preprocess.config.options import CleanOptions, RunOptions
    from preprocess.driver.preprocess import run_preprocess
    from search.qld import run_search
    from search.topics import read_topics
    from webprune.cacm_web import build

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", type=Path, default=ROOT / "build" / "contrastive" / "cacm")
    ap.add_argument("--workers", type=int, default=2)
    a = ap.parse_args()
    warc = build(ROOT / "build" / "cacm-web" / "cacm-web.warc.gz")
    model = a.out / "model"
    card = train_crawl([str(warc)], str(model), CrawlOptions(sample_docs=0), workers=a.workers)
    print(f"model: {card['sample']['documents']} pages, {card['label_counts']}, {card['training']['wall_s']} s")
    run = RunOptions(workers=a.workers)
    hl = dict(drop_hinted=True, max_link_density=0.5)
    variants = {"tags": ([warc], CleanOptions(cleaner="tags")),
                "tags+hints+links": ([warc], CleanOptions(cleaner="tags", **hl)),
                "tags+hints+links+contrastive": ([warc], CleanOptions(cleaner="tags", prune_model=str(model), **hl)),
                "density+hints+links": ([warc], CleanOptions(cleaner="density", **hl)),
                "density+hints+links+contrastive": ([warc], CleanOptions(cleaner="density", prune_model=str(model),
                                                                         **hl))}
    topics = read_topics(str(shared_data("retrieval", "cacm", "topics.cacm.txt")), "query", None)
    runs, sizes = {}, {}

    def one(name: str, inputs: list, opts: CleanOptions) -> None:
        out = a.out / name
        run_preprocess([str(i) for i in inputs], str(out / "pre"), opts, run, progress=False, overwrite=True)
        s = build_index(str(out / "pre"), str(out / "index"), threads=2)
        sizes[name] = s["index_bytes"]
        run_search(str(out / "index"), topics, str(out / "run.txt"), mu=1000, k=1000, threads=2, tag=name)
        runs[name] = str(out / "run.txt")

    for name, (inputs, opts) in variants.items():
        one(name, inputs, opts)
    wet = write_wet(a.out / "tags" / "pre" / "collection", a.out / "cacm-web-tags.wet.gz")
    one("WET of tags (no DOM)", [wet], CleanOptions(cleaner="tags"))
    one("WET of tags + contrastive (no DOM)", [wet], CleanOptions(prune_model=str(model)))
    result = evaluate(str(shared_data("retrieval", "cacm", "qrels.cacm.txt")), runs, baseline="tags",
                      metrics=["P@5", "P@10", "AP", "nDCG@10"], alpha=0.05)
    print(markdown_table(result))
    print("\n| run | index |\n|---|---:|")
    for name, size in sizes.items():
        print(f"| {name} | {size / 1e6:.1f} MB |")


if __name__ == "__main__":
    main()
