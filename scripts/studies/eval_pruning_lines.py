#!/usr/bin/env python
"""Does perplexity find boilerplate on real pages? Line-level ROC AUC against human gold text.

Pages: ../shared/data/cleaning (CleanEval dev+final, CleanPortalEval, L3S-GN1; --sets to change).
Each page is tag-removed by webprune's own steps; a text line is *content* when its
words (lower-cased ``\\w+``) occur contiguously in the page's gold main text, else
*boilerplate*. Every score below is evaluated as a boilerplate detector (higher =
more likely boilerplate) by ROC AUC, per set and overall, on held-out pages: the
few weights of the combined scores are fitted (logistic regression) on a fixed 30%
of the pages and every AUC is measured on the other 70%.

Steps (each adds one thing to the one before):
  1. bigram, plain tokens (lower-cased ``\\w+|[^\\w\\s]``), line perplexity  -- the issue's baseline
  2. bigram, webprune's normaliser (NFKC, casefold, quotes, digits -> 0)
  3. trigram instead of bigram
  4. sentence level: the line's score is its worst sentence (the pruner drops sentences)
  5. length-aware: log perplexity and log token count
  6. + DOM evidence: the line's link density (share of characters inside <a>)
Then the share of content/boilerplate lines and bytes that plain bigram perplexity pruning
keeps at the paper's thresholds (1K..14K), and the pruner's own sentence-level keep rates.
Usage: .venv/bin/python scripts/studies/eval_pruning_lines.py --bigram M2 --trigram M3
"""
from __future__ import annotations

import argparse
import math
import random
import re
import sys
from collections import defaultdict
from pathlib import Path

import numpy as np

from eval.cleaning.gold import gold_pages
from preprocess.core.document import Document
from preprocess.run.pipeline import run_steps
from preprocess.lm.normalize import normalize
from preprocess.lm.score import Scorer
from preprocess.core.segment import split_line
from preprocess.steps.decode import Decode
from preprocess.steps.parse import Parse
from preprocess.steps.tags import TagRemoval
from webprune.benchdata import shared_data

_W = re.compile(r"\w+")
_PLAIN = re.compile(r"\w+|[^\w\s]")
THRESHOLDS = [1000, 2000, 4000, 6000, 8000, 10000, 12000, 14000]


def words(text: str) -> str:
    return " ".join(_W.findall(text.lower()))


def auc(y: np.ndarray, score: np.ndarray) -> float:
    """ROC AUC by the rank-sum (Mann-Whitney) formula; ties get average ranks."""
    from scipy.stats import rankdata

    pos = y == 1
    n1, n0 = pos.sum(), (~pos).sum()
    if not n1 or not n0:
        return float("nan")
    r = rankdata(score)
    return float((r[pos].sum() - n1 * (n1 + 1) / 2) / (n1 * n0))


def collect(shared: Path, sets: list[str], m2: Scorer, m3: Scorer | None) -> dict[str, np.ndarray]:
    steps = [Decode(), Parse(), TagRemoval(line_features=True)]
    cols = defaultdict(list)
    pages = gold_pages(shared, sets)
    for n, page in enumerate(pages):
        docs = [Document(id=page.name, content_type="text/html", raw=page.input.read_bytes())]
        docs = run_steps(steps, docs)
        if not docs:
            continue
        doc = docs[0]
        gold = " " + words(page.gold_text()) + " "
        for line, link in ((line.text, line.link_density) for line in doc.lines):
            w = words(line)
            if not w:
                continue
            norm = normalize(line)
            sents = [normalize(s) for s in split_line(line)]
            cols["set"].append(page.set)
            cols["page"].append(n)
            cols["boiler"].append(0 if f" {w} " in gold else 1)
            cols["bytes"].append(len(line.encode("utf-8")))
            cols["ppl_plain2"].append(m2.model.perplexity(" ".join(_PLAIN.findall(line.lower()))))
            cols["ppl2"].append(m2.model.perplexity(norm))
            cols["ppl3"].append(m3.model.perplexity(norm) if m3 else math.nan)
            cols["sent_max2"].append(max((m2.model.perplexity(s) for s in sents if _W.search(s)), default=1e6))
            cols["ntok"].append(norm.count(" ") + 1)
            cols["link"].append(link)
        if n % 200 == 0:
            print(f"  {n}/{len(pages)} pages", file=sys.stderr)
    return {k: np.array(v) for k, v in cols.items()}


def fit_score(X: np.ndarray, y: np.ndarray, train: np.ndarray) -> tuple[np.ndarray, list[float]]:
    from sklearn.linear_model import LogisticRegression

    lr = LogisticRegression(max_iter=2000).fit(X[train], y[train])
    return lr.decision_function(X), [round(float(c), 3) for c in lr.coef_[0]]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--shared", type=Path, default=None, help="the shared data folder (default: webprune.benchdata.shared_data())")
    ap.add_argument("--bigram", required=True)
    ap.add_argument("--trigram", default=None)
    ap.add_argument("--sets", nargs="+", default=["cleaneval-dev", "cleaneval-final", "cleanportaleval", "l3s-gn1"])
    a = ap.parse_args()

    d = collect(a.shared or shared_data(), a.sets, Scorer(a.bigram), Scorer(a.trigram) if a.trigram else None)
    y, sets = d["boiler"], d["set"]
    pages = sorted(set(d["page"]))
    rng = random.Random(13)
    fit_pages = set(rng.sample(pages, int(0.3 * len(pages))))
    train = np.array([p in fit_pages for p in d["page"]])
    test = ~train
    lp2, lp3, ls2 = np.log10(d["ppl2"]), np.log10(d["ppl3"]), np.log10(d["sent_max2"])
    lnt = np.log10(d["ntok"] + 1)
    best_lp = lp3 if a.trigram else lp2
    len_score, len_coef = fit_score(np.column_stack([best_lp, lnt]), y, train)
    dom_score, dom_coef = fit_score(np.column_stack([best_lp, lnt, d["link"]]), y, train)
    nolm_score, nolm_coef = fit_score(np.column_stack([lnt, d["link"]]), y, train)
    steps = [
        ("1. bigram, plain tokens, line perplexity", np.log10(d["ppl_plain2"])),
        ("2. bigram, webprune normaliser", lp2),
        ("3. trigram, webprune normaliser", lp3 if a.trigram else None),
        ("4. bigram, worst sentence of the line", ls2),
        (f"5. length-aware: log ppl, log tokens {len_coef}", len_score),
        (f"6. + link density (DOM) {dom_coef}", dom_score),
        (f"   for reference, no LM: log tokens, link density {nolm_coef}", nolm_score),
    ]
    names = sorted(set(sets))
    print(f"\n{len(y)} lines ({int(y.sum())} boilerplate, {int((1 - y).sum())} content) on {len(pages)} pages; "
          f"AUC on the {len(pages) - len(fit_pages)} held-out pages\n")
    print("| score | " + " | ".join(names) + " | all |")
    print("|---|" + "---:|" * (len(names) + 1))
    for label, score in steps:
        if score is None:
            continue
        cells = [f"{auc(y[test & (sets == s)], score[test & (sets == s)]):.3f}" for s in names]
        print(f"| {label} | " + " | ".join(cells) + f" | **{auc(y[test], score[test]):.3f}** |")

    print("\nPlain bigram line perplexity (webprune normaliser) as a pruning threshold, all pages:\n")
    print("| max perplexity | content lines kept | content bytes kept | boilerplate lines kept | boilerplate bytes kept |")
    print("|---:|---:|---:|---:|---:|")
    b = d["bytes"]
    for t in THRESHOLDS:
        keep = d["ppl2"] <= t
        c, bo = y == 0, y == 1
        print(f"| {t:,} | {keep[c].mean():.1%} | {b[keep & c].sum() / b[c].sum():.1%} | "
              f"{keep[bo].mean():.1%} | {b[keep & bo].sum() / b[bo].sum():.1%} |")
    short = d["ntok"] <= 4
    print(f"\nShort lines (<= 4 tokens): {short.mean():.1%} of lines, {(y[short] == 0).mean():.1%} of them content; "
          f"median perplexity content {np.median(d['ppl2'][short & (y == 0)]):.0f}, "
          f"boilerplate {np.median(d['ppl2'][short & (y == 1)]):.0f}")


if __name__ == "__main__":
    main()
