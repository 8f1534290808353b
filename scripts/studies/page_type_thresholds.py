#!/usr/bin/env python
"""Would knowing (or predicting) a wcxb-dev page's type buy anything through a per-type threshold?

    scripts/studies/page_type_thresholds.py --cache build/learned/cache.pkl --models build/learned/t30

Reads the training cache of ``scripts/tools/train_learned.py --cache`` and its host-fold models
(``wcxb-dev-f{k}.json``), so every block probability is held out. Scores the kept blocks' text
with WCXB's bag-of-words F1 (a proxy of ``eval-cleaning``: blocks, not the written document).
Prints, per page type: one threshold for all pages, the best threshold per *true* type (an upper
bound: chosen on the pages it is scored on), and per *predicted* type (a page-type classifier and
its thresholds chosen on the other host folds only, from their own cross-validated predictions).
"""
from __future__ import annotations

import argparse
import json
import pickle
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from eval.cleaning.gold import gold_pages  # noqa: E402
from eval.cleaning.score import bow_prf  # noqa: E402
from preprocess.cleaners.learned.features import N_NUMERIC, TokenVocab, page_features  # noqa: E402
from preprocess.cleaners.learned.model import BlockModel  # noqa: E402
from webprune.benchdata import shared_data  # noqa: E402

GRID = (0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.5)


def held_out_pages(cache: Path, models: Path):
    """(type, host fold, block texts, block probabilities, page features for a type classifier) per page."""
    pages = pickle.loads(cache.read_bytes())["wcxb-dev"]
    if any(len(v) != 5 for p in pages for v in p.views):
        raise ValueError(f"{cache} was written before the heading columns (its pages have no head): make a new "
                         "one with scripts/tools/train_learned.py --cache NEW_PATH")
    loaded, out = {}, []
    n = N_NUMERIC
    for p in pages:
        if p.split not in loaded:
            m = json.loads((models / f"{p.split}.json").read_text())
            loaded[p.split] = (BlockModel(m), TokenVocab(m["vocab"]))
        bm, tv = loaded[p.split]
        blocks, title, _, _, head = p.views[0]
        X = page_features(blocks, title, tv, head)[:, :len(bm.features)]  # a model from before the newest columns
        prob = bm.proba(X)
        num = X[:, :n].astype(np.float64)
        w = np.expm1(num[:, 0])
        w /= max(w.sum(), 1e-9)
        extra = [len(num), (prob >= 0.3).mean(), (w * prob).sum(), *np.percentile(prob, [50, 90])]
        out.append((p.page_type, p.split, p.name, blocks.texts,
                    prob, np.concatenate([(num * w[:, None]).sum(0), num.mean(0), extra])))
    return out


def fit_predict(feats: np.ndarray, types: np.ndarray, train: np.ndarray) -> np.ndarray:
    """The page types of the pages outside ``train``, by a classifier fitted on the pages inside."""
    from sklearn.ensemble import HistGradientBoostingClassifier

    clf = HistGradientBoostingClassifier(max_iter=200, random_state=0)
    return clf.fit(feats[train], types[train]).predict(feats[~train])


def predict_types(feats: np.ndarray, types: np.ndarray, folds: np.ndarray) -> np.ndarray:
    """Each fold's page types by a classifier fitted on the other folds."""
    pred = np.empty(len(types), dtype=object)
    for f in sorted(set(folds)):
        pred[folds == f] = fit_predict(feats, types, folds != f)
    return pred


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cache", type=Path, default=Path("build/learned/cache.pkl"))
    ap.add_argument("--models", type=Path, default=Path("build/learned/t30"))
    ap.add_argument("--threshold", type=float, default=0.3, help="the shipped model's threshold")
    args = ap.parse_args()
    for path in (args.cache, args.models / "wcxb-dev-f0.json"):
        if not path.exists():
            print(f"page_type_thresholds.py: {path} not found: make the cache and the host-fold models with "
                  f"scripts/tools/train_learned.py --loso {args.models} --cache {args.cache}", file=sys.stderr)
            return 2
    gold = {g.name: g.gold_text() for g in gold_pages(shared_data(), ["wcxb-dev"])}
    try:
        rows = held_out_pages(args.cache, args.models)
    except ValueError as e:
        print(f"page_type_thresholds.py: {e}", file=sys.stderr)
        return 2
    types = np.array([r[0] for r in rows], dtype=object)
    folds = np.array([r[1] for r in rows])
    grid = sorted(set(GRID) | {args.threshold})
    f1 = np.array([[bow_prf("\n".join(t for t, q in zip(r[3], r[4]) if q >= th), gold[r[2]])["f1"] for th in grid]
                   for r in rows])
    base = f1[:, grid.index(args.threshold)]
    oracle = np.zeros(len(rows))
    for t in set(types):
        m = types == t
        oracle[m] = f1[m, f1[m].mean(0).argmax()]
    feats = np.array([r[5] for r in rows])
    chosen = np.zeros(len(rows))
    accuracy = []
    for f in sorted(set(folds)):
        train = folds != f
        inner = predict_types(feats[train], types[train], folds[train])  # the training folds' own CV
        outer = fit_predict(feats, types, train)
        best = {t: f1[train][inner == t].mean(0).argmax() for t in set(inner)}
        default = grid.index(args.threshold)
        chosen[~train] = [f1[~train][i, best.get(t, default)] for i, t in enumerate(outer)]
        accuracy.append((outer == types[~train]).mean())
    print(f"type classifier accuracy, host folds: {np.mean(accuracy):.3f}")
    print("| type | pages | one threshold | per true type (bound) | per predicted type |\n|---|---:|---:|---:|---:|")
    for t in ["all", *sorted(set(types))]:
        m = np.ones(len(rows), bool) if t == "all" else types == t
        print(f"| {t} | {m.sum()} | {100 * base[m].mean():.1f} | {100 * oracle[m].mean():.1f} "
              f"| {100 * chosen[m].mean():.1f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
