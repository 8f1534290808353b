#!/usr/bin/env python
"""Word F1 of contrastive pruning on pages its model never saw (is the default threshold safe there?).

Each gold page of the shared cleaning sets is cleaned with ``--cleaning`` and pruned
with the model of its set trained WITHOUT the page's fold
(``scripts/studies/contrastive_sets.py --folds K``: ``build/contrastive/models-folds/<set>-<k>ofK``),
at each threshold of ``--thresholds``; word F1 (macro mean per set, x100) as
``webprune eval-cleaning`` scores it (title line + text, CleanEval wrapper removed).

Usage: python scripts/studies/eval_contrastive_unseen.py [--cleaning tags+hints+links] [--thresholds 1,3] [--folds 2]
"""
from __future__ import annotations

import argparse
import zlib

from eval.cleaning.gold import FORMATS, gold_pages
from eval.cleaning.harness import strip_wrapper
from eval.cleaning.score import word_prf
from preprocess.core.document import Document
from preprocess.run.pipeline import Pipeline
from preprocess.config.spec import parse_spec
from webprune.benchdata import ROOT, shared_data


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cleaning", default="tags+hints+links")
    ap.add_argument("--thresholds", default="1,3")
    ap.add_argument("--adjusted", default="", help="also these thresholds with --prune-score adjusted (+ length)")
    ap.add_argument("--folds", type=int, default=2)
    ap.add_argument("--models", default=str(ROOT / "build" / "contrastive" / "models-folds"))
    ap.add_argument("--sets", default=",".join(FORMATS))
    a = ap.parse_args()
    sets = a.sets.split(",")
    specs = {"no pruning": lambda s, k: a.cleaning}
    for x in a.thresholds.split(","):
        specs[f"+ contrastive, {x} bits"] = (lambda s, k, x=x: f"{a.cleaning}+prune(contrastive,x={x},"
                                             f"model={a.models}/{s}-{k}of{a.folds})")
    for x in filter(None, a.adjusted.split(",")):
        specs[f"+ contrastive + length (adjusted), {x} bits"] = (
            lambda s, k, x=x: f"{a.cleaning}+prune(adjusted,x={x},model={a.models}/{s}-{k}of{a.folds})")
    pipes: dict = {}
    f1 = {name: {s: [] for s in sets} for name in specs}
    for page in gold_pages(shared_data(), sets):
        k = zlib.crc32(f"{page.set}/{page.name}".encode()) % a.folds
        raw, gold = strip_wrapper(page.input.read_bytes()), page.gold_text()
        for name, spec in specs.items():
            key = spec(page.set, k)
            if key not in pipes:
                pipes[key] = Pipeline(parse_spec(key))
            out, _ = pipes[key].process([Document(id=page.name, content_type="text/html", raw=raw)])
            f1[name][page.set].append(word_prf(out[0]["contents"] if out else "", gold)["f1"])
    print(f"\nWord F1 x100, `{a.cleaning}`, each page pruned by its set's model trained without its fold "
          f"({a.folds}-fold)\n")
    print("| pruning | " + " | ".join(sets) + " |\n|---|" + "---:|" * len(sets))
    for name in specs:
        print(f"| {name} | " + " | ".join(f"{100 * sum(v) / len(v):.1f}" for v in f1[name].values()) + " |")


if __name__ == "__main__":
    main()
