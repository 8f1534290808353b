#!/usr/bin/env python
"""Where the learned cleaner's time goes: CPU ms per page for each stage, on real gold-set pages.

    scripts/bench/profile_learned.py [--sets dragnet,l3s-gn1] [--pages 200] [--model FILE]

Stages: decode + parse (webprune's own steps), ``split_body`` (one serialisation
of ``<body>``, noise out, blocks), ``page_features``, the model, and, for
comparison, the whole ``--cleaner learned`` pipeline and tag removal alone.
``WEBPRUNE_PURE_PYTHON=1`` profiles the Python twins of the compiled parts.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from eval.cleaning.gold import gold_pages
from eval.cleaning.harness import strip_wrapper
from preprocess.cleaners.learned import compiled
from preprocess.cleaners.learned.anchor import HeadReader
from preprocess.cleaners.learned.blocks import split_body
from preprocess.cleaners.learned.features import TokenVocab, page_features
from preprocess.cleaners.learned.model import load_model
from preprocess.core.document import Document
from preprocess.config.options import CleanOptions
from preprocess.run.pipeline import Pipeline, build_steps, run_steps
from webprune.benchdata import shared_data


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--shared", type=Path, default=None, help="the shared data folder (default: webprune's own lookup)")
    ap.add_argument("--sets", default="cleaneval-final,dragnet,l3s-gn1")
    ap.add_argument("--pages", type=int, default=200, help="first N pages of each set")
    ap.add_argument("--model", default=None, help="block model (default: the shipped one)")
    args = ap.parse_args(argv)
    try:
        shared = args.shared or shared_data()
    except FileNotFoundError as e:
        ap.error(str(e))
    pages = [p for s in args.sets.split(",") for p in gold_pages(shared, [s])[: args.pages]]
    raws = [strip_wrapper(p.raw()) for p in pages]  # (raw(): WCXB's pages are gzipped)
    model = load_model(args.model)
    vocab = TokenVocab(model.vocab)
    pre = build_steps(CleanOptions(cleaner="tags"), stop_before="tags")
    cpu = dict.fromkeys(("decode+parse", "split_body", "page_features", "model"), 0.0)
    for raw in raws:
        t = time.process_time()
        docs = run_steps(pre, [Document(id="p", content_type="text/html", raw=raw)])
        cpu["decode+parse"] += time.process_time() - t
        if not docs or docs[0].tree.body is None:
            continue
        tree = docs[0].tree
        head = HeadReader(tree)  # (the cleaner's way: read when the heading columns ask, in page_features)
        t = time.process_time()
        page = split_body(tree, before_pruning=head)
        cpu["split_body"] += time.process_time() - t
        if not page.texts:
            continue
        t = time.process_time()
        X = page_features(page, tree.title or "", vocab, head)
        cpu["page_features"] += time.process_time() - t
        t = time.process_time()
        model.keep(X[:, :len(model.features)])  # (a model from before the heading columns: not its)
        cpu["model"] += time.process_time() - t
    for name, opts in (("pipeline --cleaner learned", CleanOptions(cleaner="learned", learned_model=args.model)),
                       ("pipeline --cleaner tags", CleanOptions(cleaner="tags"))):
        docs = [Document(id=str(i), content_type="text/html", raw=r) for i, r in enumerate(raws)]
        t = time.process_time()
        Pipeline(opts).process(docs)
        cpu[name] = time.process_time() - t
    print(f"{len(raws)} pages of {args.sets}; compiled twins: "
          f"{'on' if compiled.ON else 'OFF (pure Python)'}")
    print("| stage | ms/page | docs/s |\n|---|---:|---:|")
    for name, s in cpu.items():
        ms = 1000 * s / len(raws)
        print(f"| {name} | {ms:.2f} | {1000 / ms if ms else float('inf'):,.0f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
