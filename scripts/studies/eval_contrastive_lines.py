#!/usr/bin/env python
"""Does a contrastive score learned from the crawl find boilerplate? Line-level ROC AUC against human gold.

Lines: every gold page of the shared cleaning sets, CleanEval's wrapper removed,
tag-removed by webprune (the lines before any DOM cleaner, with their link density).
A line is *content* when its words occur contiguously in the page's gold text, else
*boilerplate* (as ``scripts/studies/eval_pruning_lines.py``). Every score is a boilerplate
detector (higher = boilerplate), side by side in one run:

* plain perplexity: general-English bigram and trigram (``--bigram``, ``--trigram``);
* adjusted: log perplexity (trigram) + log tokens + link density, weights fitted
  (logistic regression) on a fixed 30% of the pages, as ``--prune-score adjusted``;
* length alone and link density alone, for reference;
* contrastive, same crawl: the model ``webprune lm train-crawl`` learned from the
  pages of the line's own set (``scripts/studies/contrastive_sets.py``: pages only, no gold);
* contrastive, other crawl: the mean score of the other sets' models;
* contrastive + log tokens (+ link density), weights fitted on the same 30%.

Every AUC is on the 70% of pages not used for fitting. A second and third table keep
only the lines the best DOM cleanings kept (``tags``/``density`` with hints and
links 0.5): does the score add evidence beyond the cleaner? Last, the X x Y matrix of
models trained on set X scored on set Y.

``--compare NAME=MODEL ...`` instead scores every line with each named model (one model for
all sets, e.g. the crawls of ``scripts/studies/contrastive_duplicates.py``) and prints their AUCs on the
same 70% of pages, per set and overall; nothing else is scored.

Usage: python scripts/studies/eval_contrastive_lines.py [--bigram M2] [--trigram M3] [--models build/contrastive/models]
       python scripts/studies/eval_contrastive_lines.py --compare single=M1 x6=M2 ...
"""
from __future__ import annotations

import argparse
import random
import sys
from collections import defaultdict
from pathlib import Path

import numpy as np

from eval.cleaning.gold import FORMATS, gold_pages
from eval.cleaning.harness import strip_wrapper
from preprocess.core.document import Document
from preprocess.lm.contrastive import open_model
from preprocess.learning.labels import LabelOptions, kept_flags, label_pipeline, lines_before, words
from preprocess.lm.normalize import normalize
from preprocess.core.stats import Stats
from webprune.benchdata import ROOT, shared_data

CLEANINGS = {"tags+hints+links": LabelOptions(cleaner="tags"), "density+hints+links": LabelOptions(cleaner="density")}
SHORT = {"cleaneval-dev": "CE-dev", "cleaneval-final": "CE-final", "cleanportaleval": "CPE", "dragnet": "Dragnet",
         "l3s-gn1": "L3S-GN1"}


def auc(y: np.ndarray, score: np.ndarray) -> float:
    """ROC AUC by the rank-sum (Mann-Whitney) formula; ties get average ranks."""
    from scipy.stats import rankdata

    pos = y == 1
    n1, n0 = pos.sum(), (~pos).sum()
    if not n1 or not n0:
        return float("nan")
    return float((rankdata(score)[pos].sum() - n1 * (n1 + 1) / 2) / (n1 * n0))


def fit_score(X: np.ndarray, y: np.ndarray, train: np.ndarray) -> tuple[np.ndarray, list[float]]:
    from sklearn.linear_model import LogisticRegression

    lr = LogisticRegression(max_iter=2000).fit(X[train], y[train])
    return lr.decision_function(X), [round(float(c), 3) for c in lr.coef_[0]]


def collect(sets: list[str]) -> dict[str, np.ndarray]:
    """One row per tag-removed line with words: set, page, gold label, normalised text, link density, kept flags."""
    pipes = {name: label_pipeline(lab) for name, lab in CLEANINGS.items()}
    cols = defaultdict(list)
    pages = gold_pages(shared_data(), sets)
    for n, page in enumerate(pages):
        raw = strip_wrapper(page.input.read_bytes())
        outs = {}
        for name, pipe in pipes.items():
            d = Document(id=page.name, content_type="text/html", raw=raw)
            kept = pipe.run([d], Stats())
            outs[name] = (d, [ln.text for ln in d.lines] if kept else [])
        first = outs["tags+hints+links"][0]
        before = [ln.text for ln in lines_before(first) or []]
        links = [ln.link_density for ln in lines_before(first) or []]
        flags = {name: kept_flags(before, cleaned) for name, (_, cleaned) in outs.items()}
        gold = " " + words(page.gold_text()) + " "
        for i, line in enumerate(before):
            w = words(line)
            if not w:
                continue
            cols["set"].append(page.set)
            cols["page"].append(n)
            cols["boiler"].append(0 if f" {w} " in gold else 1)
            cols["norm"].append(normalize(line))
            cols["link"].append(links[i] or 0.0)
            for name in CLEANINGS:
                cols[f"kept:{name}"].append(bool(flags[name][i]))
        if n % 500 == 0:
            print(f"  {n}/{len(pages)} pages", file=sys.stderr)
    out = {k: np.array(v, dtype=object if k == "norm" else None) for k, v in cols.items()}
    out["ntok"] = np.array([s.count(" ") + 1 for s in out["norm"]])
    return out


def test_mask(pages: np.ndarray) -> np.ndarray:
    """The lines of the 70% of pages not used for fitting (a fixed seed: the same pages in every run)."""
    ids = sorted(set(pages))
    fit_pages = set(random.Random(13).sample(ids, int(0.3 * len(ids))))
    return np.array([p not in fit_pages for p in pages])


def compare(specs: list[str], d: dict, sets: list[str]) -> None:
    """AUC of each NAME=MODEL on every line of the test pages, per set and overall (a MODEL path holding
    ``{set}``: one model per set, each set's lines scored by its own)."""
    y, lsets, norm, test = d["boiler"], d["set"], d["norm"], test_mask(d["page"])
    norm = np.array([normalize(t) for t in norm], dtype=object)  # the cache may predate a normaliser change
    print(f"\n{int(test.sum()):,} lines of the test pages, scored by each model\n")
    print("| model | " + " | ".join(SHORT.get(s, s) for s in sets) + " | all |")
    print("|---|" + "---:|" * (len(sets) + 1))
    yt, st, nt = y[test], lsets[test], norm[test]
    for spec in specs:
        name, path = spec.split("=", 1)
        sc = np.zeros(len(nt))
        for s in sets if "{set}" in path else [None]:  # {set}: each set's lines scored by that set's model
            m = st == s if s else np.ones(len(nt), dtype=bool)
            score = open_model(path.format(set=s)).score_norm
            sc[m] = [score(t) for t in nt[m]]
        print(f"| {name} | " + " | ".join(f"{auc(yt[st == s], sc[st == s]):.4f}" for s in sets)
              + f" | {auc(yt, sc):.4f} |", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bigram", default=str(ROOT / "build" / "models" / "general-2gram.bin"))
    ap.add_argument("--trigram", default=str(ROOT / "build" / "models" / "general-3gram.bin"))
    ap.add_argument("--models", type=Path, default=ROOT / "build" / "contrastive" / "models",
                    help="one contrastive model per set: MODELS/<set> (scripts/studies/contrastive_sets.py)")
    ap.add_argument("--sets", default=",".join(FORMATS))
    ap.add_argument("--crossfit", type=int, default=0,
                    help="K: also score each page with its set's model trained without the page's fold "
                         "(scripts/studies/contrastive_sets.py --folds K)")
    ap.add_argument("--fresh", action="store_true", help="collect the lines again (else build/contrastive/lines-*.npz)")
    ap.add_argument("--compare", nargs="+", default=None, metavar="NAME=MODEL",
                    help="only these models, each scoring every line (AUC per set and overall)")
    a = ap.parse_args()
    sets = a.sets.split(",")

    cache = ROOT / "build" / "contrastive" / f"lines-{'-'.join(sets)}.npz"
    if cache.exists() and not a.fresh:  # the lines and labels depend on the pages and the cleaners only
        d = dict(np.load(cache, allow_pickle=True))
    else:
        d = collect(sets)
        cache.parent.mkdir(parents=True, exist_ok=True)
        np.savez(cache, **d)
    y, lsets, norm = d["boiler"], d["set"], d["norm"]
    if a.compare:
        compare(a.compare, d, sets)
        return
    print(f"scoring {len(y)} lines", file=sys.stderr)
    m2, m3 = open_model(a.bigram), open_model(a.trigram)
    lp2 = np.log10([m2.score_norm(s) for s in norm])
    lp3 = np.log10([m3.score_norm(s) for s in norm])
    by = {}
    for x in sets:  # the model of set x on every line
        score = open_model(a.models / x).score_norm
        by[x] = np.array([score(s) for s in norm])
    same = np.select([lsets == s for s in sets], [by[s] for s in sets])
    unseen = None
    if a.crossfit:  # each page scored by the model of its set trained without the page's fold
        import zlib

        gp = gold_pages(shared_data(), sets)  # d["page"] indexes this list
        folds = np.array([zlib.crc32(f"{gp[p].set}/{gp[p].name}".encode()) % a.crossfit for p in d["page"]])
        unseen = np.zeros(len(y))
        for s in sets:
            for k in range(a.crossfit):
                m = (lsets == s) & (folds == k)
                score = open_model(a.models.parent / "models-folds" / f"{s}-{k}of{a.crossfit}").score_norm
                unseen[m] = [score(t) for t in norm[m]]
    others = [np.mean([by[x] for x in sets if x != s], axis=0) if len(sets) > 1 else by[s] for s in sets]
    other = np.select([lsets == s for s in sets], others)

    pages = sorted(set(d["page"]))
    test = test_mask(d["page"])
    train = ~test
    fit_pages = set(d["page"][train])
    lnt = np.log10(d["ntok"] + 1)
    adjusted, adj_coef = fit_score(np.column_stack([lp3, lnt, d["link"]]), y, train)
    clen, clen_coef = fit_score(np.column_stack([same, lnt]), y, train)
    clink, clink_coef = fit_score(np.column_stack([same, lnt, d["link"]]), y, train)
    rows = [("plain perplexity, general bigram", lp2), ("plain perplexity, general trigram", lp3),
            (f"adjusted: log ppl3, log tokens, link density {adj_coef}", adjusted),
            ("line length alone (fewer tokens = boilerplate)", -lnt), ("link density alone", d["link"]),
            ("**contrastive, same crawl** (H_c - H_b)", same),
            ("contrastive, other crawl (mean of the other sets' models)", other),
            *([(f"contrastive, same crawl, pages the model never saw ({a.crossfit}-fold)", unseen)]
              if a.crossfit else []),
            (f"contrastive + log tokens {clen_coef}", clen),
            (f"contrastive + log tokens + link density {clink_coef}", clink)]

    def table(title: str, mask: np.ndarray) -> None:
        print(f"\n{title}\n")
        print("| score | " + " | ".join(SHORT.get(s, s) for s in sets) + " | all |")
        print("|---|" + "---:|" * (len(sets) + 1))
        for label, score in rows:
            cells = [f"{auc(y[test & mask & (lsets == s)], score[test & mask & (lsets == s)]):.3f}" for s in sets]
            print(f"| {label} | " + " | ".join(cells) + f" | {auc(y[test & mask], score[test & mask]):.3f} |")
        m = test & mask
        print("| lines (boilerplate share) | " + " | ".join(
            f"{(m & (lsets == s)).sum():,} ({y[m & (lsets == s)].mean():.0%})" for s in sets)
            + f" | {m.sum():,} ({y[m].mean():.0%}) |")

    print(f"\n{len(y):,} lines ({int(y.sum()):,} boilerplate) on {len(pages):,} pages; AUC on the "
          f"{len(pages) - len(fit_pages):,} pages not used for fitting")
    table("### All tag-removed lines", np.ones_like(y, dtype=bool))
    for name in CLEANINGS:
        table(f"### Only the lines `{name}` kept", d[f"kept:{name}"])

    print("\n### Contrastive, trained on set X's pages (rows), scored on set Y's lines (columns), all lines\n")
    print("| trained on \\ scored on | " + " | ".join(SHORT.get(s, s) for s in sets) + " |")
    print("|---|" + "---:|" * len(sets))
    for x in sets:
        cells = [auc(y[test & (lsets == s)], by[x][test & (lsets == s)]) for s in sets]
        print(f"| {SHORT.get(x, x)} | " + " | ".join(f"{c:.3f}" for c in cells) + " |")


if __name__ == "__main__":
    main()
