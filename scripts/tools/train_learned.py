#!/usr/bin/env python
"""Train the block model of ``--cleaner learned`` on the shared gold standards.

    scripts/tools/train_learned.py --loso build/learned/loso      # held-out models: {set}.json, wcxb-dev-f{k}.json
    scripts/tools/train_learned.py --all preprocess/cleaners/learned/model.json   # the shipped model: every set

Pages: ``../shared/data/cleaning/<set>`` with gold text (the five article sets and
WCXB's development split, ``wcxb-dev``); CleanEval's ``<text>`` wrapper removed as
``webprune eval-cleaning`` does. **Held out:** each of the five article sets is scored
by a model trained on every other set (wcxb-dev included); wcxb-dev, by site-grouped
cross-validation: five folds of its hosts (``eval.cleaning.gold.host_fold``, no host in
two folds), each scored by a model trained on the other four folds and the five sets. Each page is decoded and
parsed by webprune's own steps and split into blocks exactly as the cleaner
splits it (``blocks.py``), twice: as is, and after the class/id hint rule
(``--drop-hinted`` applies it before the model sees the page, and a page
without its sidebars and comment threads looks different: one model trained
on both views serves both settings). **Labels:** the page's words (lower-cased ``\\w+``)
are aligned with the gold words by an exact LCS (the alignment
``webprune eval-cleaning`` scores with); a block is content when at least half
of its words are aligned. **Weights:** a block weighs its share of the page's
words, so every page counts the same (the benchmark is a macro mean over
pages; each view half), and every training benchmark weighs the same in total: CleanEval dev
and final are two samples of one benchmark with one annotation guideline and
weigh as one (by pages), CleanPortalEval, Dragnet and L3S-GN1 one each.
**Vocabulary:** the class/id tokens on the most training pages (never the
held-out set's). **Rows:** at most ``MAX_BLOCKS`` blocks a page, sampled
uniformly with a fixed seed (``--bag K``: K samples, K models, their margins averaged in one). **Model:** scikit-learn's HistGradientBoostingClassifier,
exported to JSON (``model.py`` evaluates it in numpy). The evidence to report is
the leave-one-set-out models' ``webprune eval-cleaning`` run (README, Results).
"""
from __future__ import annotations

import argparse
import json
import os
import pickle
import sys
import time
import zlib
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import numpy as np

os.environ.setdefault("OMP_NUM_THREADS", "1")  # one core: 2 threads on a shared 2-core machine ran 5x slower
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from eval.cleaning.gold import SETS, gold_pages
from eval.cleaning.harness import strip_wrapper
from eval.cleaning.score import tokens
from preprocess.cleaners.learned.anchor import page_head
from preprocess.cleaners.learned.blocks import split_body
from preprocess.cleaners.learned.features import CLASS_TOKEN, TokenVocab, feature_names, page_features
from preprocess.core.document import Document
from preprocess.filters.hints import HintFilter
from preprocess.config.options import CleanOptions
from preprocess.run.pipeline import build_steps, run_steps
from scripts.tools.learned_trees import THRESHOLD, bag, export
from webprune.benchdata import shared_data

MAX_BLOCKS = 80  # rows per training page: a uniform sample, weights scaled up (keeps the fit to minutes)
# dev and final are two samples of one benchmark (one annotation guideline): they weigh as one set
BENCHMARK = {"cleaneval-dev": "cleaneval", "cleaneval-final": "cleaneval"}
# WCXB's development split weighs 3 benchmarks: it is the one set of the modern web's seven page types, and
# the article sets' convention (a listing is boilerplate) costs it (site-grouped CV, README)
DEFAULT_BOOST = {"wcxb-dev": 3.0}
PARAMS = dict(max_iter=80, learning_rate=0.2, max_leaf_nodes=15, max_depth=5, min_samples_leaf=40,
              l2_regularization=1.0, early_stopping=False, random_state=0)


def aligned(words: list[str], gold: list[str]) -> np.ndarray:
    """Per page word: True when the exact LCS with the gold words uses it."""
    from rapidfuzz.distance import Indel

    keep = np.ones(len(words), dtype=bool)
    if not gold:
        keep[:] = False
        return keep
    for op in Indel.editops(words, gold):
        if op.tag == "delete":
            keep[op.src_pos] = False
    return keep


def read_page(page, steps) -> list:
    """The views of one gold page the model is trained on: the page as is and the page after the hint rule
    (``--drop-hinted`` prunes it before the model sees it). Each view is (blocks Page, title, labels, weights,
    the page's ``anchor.PageHead``); none when the page has no blocks."""
    raw = page.raw()
    views = [_view(page, raw, steps, None), _view(page, raw, steps, HintFilter())]
    return [v for v in views if v is not None]


def _view(page, raw: bytes, steps, hints: HintFilter | None):
    """One view, parsed anew (the hint rule prunes the tree)."""
    docs = run_steps(steps, [Document(id=page.name, url=page.url(raw), content_type="text/html",
                                      raw=strip_wrapper(raw))])
    if not docs or docs[0].tree is None or docs[0].tree.body is None:
        return None
    tree = docs[0].tree
    head = page_head(tree)  # before split_body, which may remove the scripts
    if hints is not None:
        hints.drop_from(tree.body)  # the tree filter: the compiled scan's drops are the same (test_learned_compiled)
    blocks = split_body(tree)
    if not blocks.texts:
        return None
    per_block = [tokens(t) for t in blocks.texts]
    hit = aligned([w for ws in per_block for w in ws], tokens(page.gold_text()))
    labels, weights, at = [], [], 0
    for ws in per_block:
        n = len(ws)
        labels.append(bool(n) and hit[at:at + n].mean() >= 0.5)
        weights.append(n)
        at += n
    w = np.asarray(weights, dtype=np.float64)
    return blocks, tree.title or "", np.asarray(labels), w / max(w.sum(), 1.0), head


@dataclass
class TrainPage:
    set: str
    name: str
    split: str       # the held-out model that scores it: its set, or its WCXB fold
    page_type: str   # WCXB's; "" elsewhere
    views: list      # (blocks, title, labels, weights, head) as is and after the hint rule


def reading_steps() -> list:
    """Decode and parse, as every run does (named ``tags``: the default cleaner, learned, would clean the page)."""
    return build_steps(CleanOptions(cleaner="tags"), stop_before="tags")


def read_sets(shared: Path, sets: list[str]) -> dict[str, list[TrainPage]]:
    steps = reading_steps()
    out = {}
    for s in sets:
        t0 = time.perf_counter()
        pages = [(page, read_page(page, steps)) for page in gold_pages(shared, [s])]
        out[s] = [TrainPage(page.set, page.name, page.split, page.page_type, views) for page, views in pages if views]
        blocks = sum(len(v[2]) for p in out[s] for v in p.views)
        print(f"{s}: {len(out[s])} pages, {blocks} blocks in both views, {time.perf_counter() - t0:.0f} s",
              file=sys.stderr)
    return out


def choose_vocab(pages: list[TrainPage], size: int, min_pages: int) -> list[str]:
    """Class/id tokens on the most training pages (as is: the hinted view holds a subset of its elements)."""
    df = Counter()
    for page in pages:
        blocks = page.views[0][0]
        df.update({t for names in blocks.el_names for t in CLASS_TOKEN.findall(names.lower())})
    return sorted(t for t, n in df.most_common(size) if n >= min_pages)


def training_rows(chosen: dict[str, list[TrainPage]], rows_of, boost: dict | None = None,
                  balance_types: bool = False, seed: int = 0,
                  max_blocks: int = MAX_BLOCKS) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(X, y, w) over the ``chosen`` pages: up to ``max_blocks`` sampled rows a view (``rows_of(blocks, title,
    head)``: its feature rows), weights that make each benchmark weigh the same (times its ``boost``) and each
    page of a benchmark the same (with ``balance_types``: each WCXB page type the same), normalised to mean 1.
    Each view's sample is drawn from its own seed (``seed``, set, page, view), so a page read anew or a page
    more or less in training leaves every other page's rows as they were."""
    pages = [p for ps in chosen.values() for p in ps]
    Xs, ys, ws = [], [], []
    bench_pages = Counter()
    for s, ps in chosen.items():
        bench_pages[BENCHMARK.get(s, s)] += len(ps)
    boost = boost or {}
    for s, ps in chosen.items():
        set_weight = len(pages) / (len(bench_pages) * bench_pages[BENCHMARK.get(s, s)]) * boost.get(s, 1.0)
        per_type = Counter(p.page_type for p in ps)
        for page in ps:
            page_weight = set_weight
            if balance_types and page.page_type:
                page_weight *= len(ps) / (len(per_type) * per_type[page.page_type])
            for k, (blocks, title, lab, wt, head) in enumerate(page.views):
                rows = np.arange(len(lab))
                if len(rows) > max_blocks:
                    rng = np.random.default_rng(zlib.crc32(f"{seed}/{s}/{page.name}/{k}".encode()))
                    rows = np.sort(rng.choice(rows, max_blocks, replace=False))
                Xs.append(rows_of(blocks, title, head)[rows])
                ys.append(lab[rows])
                ws.append(wt[rows] * len(lab) / len(rows) * page_weight / len(page.views))
    X, y, w = np.vstack(Xs), np.concatenate(ys), np.concatenate(ws)
    w *= len(w) / w.sum()
    return X, y, w


def train(data: dict[str, list[TrainPage]], held_out: str | None, vocab_size: int, min_pages: int,
          boost: dict | None = None, balance_types: bool = False, threshold: float = THRESHOLD,
          max_blocks: int = MAX_BLOCKS, seed: int = 0) -> dict:
    """A model over every page whose split is not ``held_out``; each benchmark weighs the same (times its
    ``boost``), each page of a benchmark the same (with ``balance_types``: each WCXB page type the same)."""
    from sklearn import __version__ as sk_version
    from sklearn.ensemble import HistGradientBoostingClassifier

    chosen = {s: [p for p in pages if p.split != held_out] for s, pages in data.items()}
    chosen = {s: pages for s, pages in chosen.items() if pages}
    pages = [p for ps in chosen.values() for p in ps]
    vocab = choose_vocab(pages, vocab_size, min_pages)
    tv = TokenVocab(vocab)
    X, y, w = training_rows(chosen, lambda blocks, title, head: page_features(blocks, title, tv, head), boost,
                            balance_types, seed, max_blocks)
    t0 = time.perf_counter()
    clf = HistGradientBoostingClassifier(**PARAMS).fit(X, y, sample_weight=w)
    info = {"trained_on": sorted(chosen), "held_out": held_out,
            "weights": f"equal per benchmark (CleanEval dev + final as one), times {boost or {}}"
                       + (", WCXB page types equal" if balance_types else ""),
            "views": "as is and after the hint rule, half a page each", "rows_per_view": max_blocks, "seed": seed,
            "pages": len(pages),
            "blocks": int(len(y)), "content_blocks": int(y.sum()),
            "params": PARAMS, "sklearn": sk_version, "fit_s": round(time.perf_counter() - t0, 1)}
    model = export(clf, feature_names(tv), vocab, info, threshold)
    _check(model, clf, X[:5000])
    print(f"trained without {held_out or 'nothing'}: {len(pages)} pages, {len(y)} blocks, {X.shape[1]} features, "
          f"{info['fit_s']} s", file=sys.stderr)
    return model


def _check(model: dict, clf, X: np.ndarray) -> None:
    """The exported trees give scikit-learn's own scores."""
    from preprocess.cleaners.learned.model import BlockModel

    ours = BlockModel(json.loads(json.dumps(model))).margin(X)
    theirs = clf.decision_function(X)
    if not np.allclose(ours, theirs, atol=1e-4):
        raise SystemExit(f"export differs from scikit-learn: max {np.abs(ours - theirs).max():.3g}")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--shared", type=Path, default=None, help="the shared data folder (default: webprune's own lookup)")
    ap.add_argument("--sets", default=",".join(SETS))
    ap.add_argument("--loso", type=Path, help="folder for the held-out models ({set}.json, wcxb-dev-f{k}.json)")
    ap.add_argument("--all", type=Path, help="write the model trained on every set here")
    ap.add_argument("--held-out", default="", metavar="SPLITS",
                    help="--loso: only these held-out models (comma-separated; default all), to train in parallel")
    ap.add_argument("--vocab", type=int, default=100, help="class/id tokens in the vocabulary (default 100)")
    ap.add_argument("--min-pages", type=int, default=10, help="a vocabulary token is on this many pages")
    ap.add_argument("--cache", type=Path, help="keep the parsed and labelled pages here (pickle; reused when present)")
    ap.add_argument("--boost", action="append", default=[], metavar="SET=W",
                    help="a benchmark weighs W times the others (default: wcxb-dev=%s)" % DEFAULT_BOOST["wcxb-dev"])
    ap.add_argument("--balance-types", action="store_true", help="each WCXB page type weighs the same")
    ap.add_argument("--rows", type=int, default=MAX_BLOCKS, help=f"rows sampled per page view (default {MAX_BLOCKS})")
    ap.add_argument("--seed", type=int, default=0, help="the rows' sampling seed (default 0)")
    ap.add_argument("--bag", type=int, default=1, metavar="K",
                    help="K models on K samples (seeds SEED..SEED+K-1), their margins averaged in one model "
                         "(K times the trees; default 1)")
    ap.add_argument("--threshold", type=float, default=THRESHOLD,
                    help=f"the model's decision threshold on P(content) (default {THRESHOLD}: F-beta, beta^2 = 2)")
    args = ap.parse_args(argv)
    if not 0 < args.threshold < 1:
        ap.error("--threshold is a probability in (0, 1)")
    try:
        boost = DEFAULT_BOOST | {k: float(v) for k, _, v in (b.partition("=") for b in args.boost)}
    except ValueError:
        ap.error("--boost takes SET=WEIGHT, e.g. wcxb-dev=3")
    if args.bag < 1 or args.rows < 1:
        ap.error("--bag and --rows are counts, 1 or more")
    if args.held_out and not args.loso:
        ap.error("--held-out picks held-out models: give --loso DIR")
    if not (args.loso or args.all):
        ap.error("give --loso DIR and/or --all FILE")
    sets = [s for s in args.sets.split(",") if s]
    try:
        shared = args.shared or shared_data()
    except FileNotFoundError as e:
        ap.error(str(e))
    if args.cache and args.cache.exists():
        data = {s: ps for s, ps in pickle.loads(args.cache.read_bytes()).items() if s in sets}
        if any(len(v) != 5 for ps in data.values() for p in ps for v in p.views):
            ap.error(f"{args.cache} was written before the heading columns (its pages have no head): "
                     "give --cache a new path (the pages are read again, a few minutes)")
    else:
        data = read_sets(shared, sets)
        if args.cache:
            args.cache.parent.mkdir(parents=True, exist_ok=True)
            part = args.cache.with_name(f"{args.cache.name}.{os.getpid()}.part")  # processes in parallel: whole files
            part.write_bytes(pickle.dumps(data, protocol=pickle.HIGHEST_PROTOCOL))
            os.replace(part, args.cache)

    def fit(held):
        models = [train(data, held, args.vocab, args.min_pages, boost, args.balance_types, args.threshold, args.rows,
                        args.seed + j) for j in range(args.bag)]
        return bag(models) if len(models) > 1 else models[0]

    splits = sorted({p.split for ps in data.values() for p in ps})
    wanted = [s for s in args.held_out.split(",") if s]
    if set(wanted) - set(splits):
        ap.error(f"--held-out: no split {sorted(set(wanted) - set(splits))}; the splits: {', '.join(splits)}")
    splits = wanted or splits
    if args.loso:
        args.loso.mkdir(parents=True, exist_ok=True)
        for held in splits:
            model = fit(held)
            (args.loso / f"{held}.json").write_text(json.dumps(model, separators=(",", ":")))
    if args.all:
        model = fit(None)
        args.all.parent.mkdir(parents=True, exist_ok=True)
        args.all.write_text(json.dumps(model, separators=(",", ":")))
        print(f"wrote {args.all} ({args.all.stat().st_size / 1e3:.0f} kB)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
