#!/usr/bin/env python
"""A fast held-out proxy for learned-cleaner experiments: decisions and new columns scored in minutes, not a
full ``eval-cleaning`` run.

    scripts/tools/train_learned.py --loso build/learned/loso --all build/learned/all.json --cache build/learned/cache.pkl
    scripts/studies/proxy_learned.py base                       # the held-out models' proxy figures
    scripts/studies/proxy_learned.py smooth                     # + context smoothing of their margins (nested choice)
    scripts/studies/proxy_learned.py stack                      # + a second model on their margins' context
    scripts/studies/proxy_learned.py islands                    # + small islands of kept blocks dropped (nested choice)
    scripts/studies/proxy_learned.py columns MOD:FN --splits wcxb-dev-f0,wcxb-dev-f1 --out a.pkl   # retrain, extra columns
    scripts/studies/proxy_learned.py columns none --balance-types --out b.pkl   # retrain, each WCXB page type weighing the same
    scripts/studies/proxy_learned.py columns none --seed 1 --out c.pkl          # retrain on another sample of the rows
    scripts/studies/proxy_learned.py columns none --host-share 0.5 --out h.pkl  # on half of wcxb-dev's sites (learning curve)
    scripts/studies/proxy_learned.py report a.pkl b.pkl         # those models against the held-out ones
    scripts/studies/proxy_learned.py report c.pkl d.pkl --bag   # the held-out models bagged with those (margins averaged)
    scripts/studies/proxy_learned.py reach                      # how much of the gold the page's blocks hold at all
    scripts/studies/proxy_learned.py labels                     # the score of keeping exactly the blocks labelled content
    scripts/studies/proxy_learned.py headings                   # kept words under a proxy_tries.SECTION_WORDS heading

Pages: ``train_learned.py``'s cache (both views: as is, after the hint rule). Every page is scored by the model
that never saw it (its set's, or its WCXB host fold's, from ``--models``). The proxy scores the kept blocks
alone (no title, no later filter): word-LCS F1 on the five article sets (the words the exact alignment with the
gold uses, as the labels), WCXB's bag-of-words F1 on wcxb-dev; the macro mean over pages per set and page type.
It ranks variants; the figures to report come from ``webprune eval-cleaning`` (docs/cleaning.md).

``smooth``: a block's margin moved toward the character-weighted mean margin of (a) the blocks whose element
shares its signature, (b) the blocks under its parent element and (c) the two blocks either side, by weights
chosen on the other splits' pages (held-out split by split; the objective: the mean of the five sets and of
wcxb-dev's seven page types). ``stack``: a second gradient-boosted model on those means (and a 5-block window, the page's mean margin and kept
share, the group's size, the block's words and position), trained split by split on the other splits' pages'
held-out margins (a little in its favour: the models behind those margins saw the split). ``columns MOD:FN``: ``FN(page) -> (blocks x k)`` appended to every row, the
held-out models of ``--splits`` retrained as ``train_learned.train`` trains them (same sampling, weights and
parameters), their margins saved for ``report``; ``scripts.studies.proxy_learned:noise_column`` (random numbers) is
the yardstick: how far retraining with a column that says nothing moves the figures.
"""
from __future__ import annotations

import argparse
import ast
import importlib
import itertools
import math
import os
import pickle
import sys
import time
from bisect import bisect_left
from collections import defaultdict
from pathlib import Path

import numpy as np

os.environ.setdefault("OMP_NUM_THREADS", "1")
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
import scripts.studies.proxy_tries as tries  # noqa: E402
import scripts.tools.train_learned as TL  # noqa: E402
from eval.cleaning.gold import gold_pages  # noqa: E402
from eval.cleaning.score import tokens  # noqa: E402
from preprocess.cleaners.learned.features import TokenVocab, page_features  # noqa: E402
from preprocess.cleaners.learned.model import load_model  # noqa: E402
from webprune.benchdata import shared_data  # noqa: E402

ARTICLE_SETS = ["cleaneval-dev", "cleaneval-final", "cleanportaleval", "dragnet", "l3s-gn1"]
CUT = math.log(TL.THRESHOLD / (1 - TL.THRESHOLD))


class View:
    """One view of one page: held-out margins and what scoring a kept-block mask needs."""

    def __init__(self, blocks, margin: np.ndarray, gold: list[str], bag: bool):
        per = [tokens(t) for t in blocks.texts]
        self.margin = margin
        self.words = np.array([len(w) for w in per], dtype=np.int64)
        self.chars = np.array([len(t) for t in blocks.texts], dtype=np.float64)
        self.gold = len(gold)
        # per block, the words the exact LCS with the gold uses (the training labels' alignment)
        hit = np.r_[0, np.cumsum(TL.aligned([w for ws in per for w in ws], gold))]
        ends = np.cumsum(self.words)
        self.hits = hit[ends] - hit[ends - self.words]
        self.gold_bag = None
        if bag:  # WCXB's score: bags of words; per block its words' ids in the page's vocabulary
            vocab: dict[str, int] = {}
            ids = [vocab.setdefault(w, len(vocab)) for ws in per for w in ws]
            self.ids, self.block_of = np.array(ids, dtype=np.int64), np.repeat(np.arange(len(per)), self.words)
            self.gold_bag = np.zeros(len(vocab), dtype=np.int64)
            for w in gold:
                if w in vocab:
                    self.gold_bag[vocab[w]] += 1
        owner = np.asarray(blocks.owner, dtype=np.int64)
        self.context = _context(blocks, owner, self.chars)

    def shared(self, keep: np.ndarray) -> int:
        """Gold words the kept blocks hold (the exact LCS's on the article sets, the bags' overlap on WCXB)."""
        if self.gold_bag is None:
            return self.hits[keep].sum()
        return np.minimum(np.bincount(self.ids[keep[self.block_of]], minlength=len(self.gold_bag)),
                          self.gold_bag).sum()

    def f1(self, keep: np.ndarray) -> float:
        kept, shared = self.words[keep].sum(), self.shared(keep)
        if not kept and not self.gold:
            return 1.0
        p, r = (shared / kept if kept else 0.0), (shared / self.gold if self.gold else 0.0)
        return 2 * p * r / (p + r) if p + r else 0.0


def _context(blocks, owner: np.ndarray, w: np.ndarray):
    """Index arrays for :func:`smoothed`: each block's signature group, parent element's block range."""
    n, has = len(owner), owner >= 0
    own = np.where(has, owner, 0)
    if not len(blocks.el_tag):
        return None
    sig: dict = {}
    el_sig = np.array([sig.setdefault(k, len(sig)) for k in zip(blocks.el_tag, blocks.el_names)], dtype=np.int64)
    group = np.where(has, el_sig[own], -1) + 1
    parent = np.where(has, np.asarray(blocks.el_parent, dtype=np.int64)[own], -1)
    first = np.array([bisect_left(blocks.start, a) for a in blocks.el_start], dtype=np.int64)
    stop = np.array([bisect_left(blocks.start, b) for b in blocks.el_end], dtype=np.int64)
    p = np.maximum(parent, 0)
    return group, np.bincount(group), parent >= 0, first[p], stop[p], np.arange(n)


class _Unpickler(pickle.Unpickler):
    def find_class(self, module, name):  # the cache was written by train_learned.py run as __main__
        return getattr(TL, name) if module == "__main__" else super().find_class(module, name)


def load(cache: Path):
    with cache.open("rb") as f:
        return _Unpickler(f).load()


def held_out_views(data, models: Path) -> list[tuple]:
    """(set, name, split, page type, [View per view]) for every cached page, scored by its held-out model."""
    shared, loaded, out = shared_data(), {}, []
    for s, pages in data.items():
        gold = {g.name: g for g in gold_pages(shared, [s])}
        for p in pages:
            if p.split not in loaded:
                m = load_model(str(models / f"{p.split}.json"))
                loaded[p.split] = (m, TokenVocab(m.vocab))
            m, tv = loaded[p.split]
            g = tokens(gold[p.name].gold_text())
            views = [View(b, m.margin(page_features(b, t, tv, h)[:, :len(m.features)]), g, s == "wcxb-dev")
                     for b, t, _, _, h in p.views]
            out.append((s, p.name, p.split, p.page_type, views))
        print(f"{s}: {len(pages)} pages", file=sys.stderr, flush=True)
    return out


def summary(rows: list[tuple], scores: dict[str, np.ndarray]) -> None:
    """Per set and WCXB page type, the mean page F1 (x100) of each scored variant."""
    keys = list(scores)
    groups = defaultdict(list)
    for i, (s, _, _, ptype, _) in enumerate(rows):
        groups[s].append(i)
        if ptype:
            groups[f"  {ptype}"].append(i)
    print("| pages | n | " + " | ".join(keys) + " |")
    print("|---|---:|" + "---:|" * len(keys))
    for g, idx in groups.items():
        print(f"| {g} | {len(idx)} | " + " | ".join(f"{100 * scores[k][idx].mean():.2f}" for k in keys) + " |")


def objective(rows, f: np.ndarray, mask: np.ndarray) -> np.ndarray:
    sets = np.array([r[0] for r in rows])
    types = np.array([r[3] for r in rows])
    parts = [f[mask & (sets == s)].mean(0) for s in ARTICLE_SETS if (mask & (sets == s)).any()]
    wcxb = mask & (sets == "wcxb-dev")
    per_type = [f[wcxb & (types == t)].mean(0) for t in sorted(set(types[wcxb]))]
    if per_type:
        parts.append(np.mean(per_type, axis=0))
    return np.mean(parts, axis=0)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("what", choices=["base", "smooth", "islands", "stack", "columns", "report", "reach", "labels",
                                     "headings"])
    ap.add_argument("args", nargs="*", help="columns: MOD:FN; report: the pickles `columns` wrote")
    ap.add_argument("--cache", type=Path, default=Path("build/learned/cache.pkl"))
    ap.add_argument("--models", type=Path, default=Path("build/learned/loso"))
    ap.add_argument("--view", type=int, default=0, help="0: the page as is (learned); 1: after the hint rule")
    ap.add_argument("--splits", default="", help="columns: the held-out splits to retrain (default: all)")
    ap.add_argument("--out", type=Path, help="columns: where to save the margins")
    ap.add_argument("--balance-types", action="store_true", help="columns: each WCXB page type weighs the same")
    ap.add_argument("--seed", type=int, default=0, help="columns: the rows' sampling seed (how far the sample alone "
                                                        "moves the figures)")
    ap.add_argument("--rows", type=int, default=TL.MAX_BLOCKS, help="columns: rows sampled per page view")
    ap.add_argument("--host-share", type=float, default=1.0,
                    help="columns: train on this share of wcxb-dev's training hosts (a learning curve: more sites, "
                         "how much better; the shares nest)")
    ap.add_argument("--param", action="append", default=[], metavar="KEY=VALUE",
                    help="columns: a fitting parameter other than train_learned.PARAMS' (e.g. max_iter=40)")
    ap.add_argument("--without-held-out", action="store_true", help="report --bag: the pickles' margins alone")
    ap.add_argument("--bag", action="store_true", help="report: the held-out models' margins averaged with the pickles' (one bagged model)")
    a = ap.parse_args()
    if a.rows < 1:
        ap.error("--rows is a count, 1 or more")
    if not 0 < a.host_share <= 1:
        ap.error("--host-share is a share of the hosts, above 0 and at most 1")
    if a.without_held_out and not a.bag:
        ap.error("--without-held-out goes with report --bag")
    for key, _, value in (p.partition("=") for p in a.param):
        if key not in TL.PARAMS:
            ap.error(f"--param: no parameter {key!r}; the parameters: {', '.join(TL.PARAMS)}")
        try:  # a Python literal: 40, 0.4, False, None
            TL.PARAMS[key] = ast.literal_eval(value)
        except (ValueError, SyntaxError):
            ap.error(f"--param {key}: {value!r} is not a number, True/False or None")
    if not a.cache.is_file():
        ap.error(f"no cache at {a.cache}: run scripts/tools/train_learned.py with --cache first")
    data = load(a.cache)
    if a.what == "columns":
        if len(a.args) != 1 or not a.out or (a.args[0] != "none" and ":" not in a.args[0]):
            ap.error("columns takes MOD:FN (or none) and --out FILE")
        extra = None if a.args[0] == "none" else getattr(importlib.import_module(a.args[0].split(":")[0]),
                                                          a.args[0].split(":")[1])
        splits = [s for s in a.splits.split(",") if s] or sorted({p.split for ps in data.values() for p in ps})
        a.out.write_bytes(pickle.dumps(retrain(data, splits, extra, a.balance_types, a.seed, a.rows,
                                               a.host_share)))
        return 0
    if not a.models.is_dir():
        ap.error(f"no held-out models in {a.models}: run scripts/tools/train_learned.py --loso {a.models}")
    rows = [r for r in held_out_views(data, a.models) if len(r[4]) > a.view]
    views = [r[4][a.view] for r in rows]
    base = np.array([v.f1(v.margin >= CUT) for v in views])
    if a.what == "base":
        summary(rows, {"held-out models": base})
    elif a.what == "reach":
        reach(rows, views)
    elif a.what == "labels":
        labels(rows, views, data, a.view, base)
    elif a.what == "headings":
        headings(rows, views, data, a.view)
    elif a.what == "stack":
        summary(rows, {"held-out models": base, "second model on their margins' context": tries.stacked(rows, views)})
    elif a.what in ("smooth", "islands"):
        if a.what == "smooth":
            steps = (0, .1, .2, .3, .4, .6, .8)
            grid = [c for c in itertools.product(steps, repeat=3) if sum(c) <= 1.0]
            f = np.array([[v.f1(tries.smoothed(v, *c) >= CUT) for c in grid] for v in views])
        else:
            grid = tries.ISLANDS
            f = np.array([[v.f1(tries.islands(v, *c)) for c in grid] for v in views])
        splits = np.array([r[2] for r in rows])
        chosen = np.zeros(len(rows), dtype=np.int64)
        for s in sorted(set(splits)):
            j = int(np.argmax(objective(rows, f, splits != s)))
            chosen[splits == s] = j
            print(f"{s}: chosen {grid[j]}", file=sys.stderr)
        summary(rows, {"held-out models": base, f"{a.what}, parameters chosen without the split":
                       f[np.arange(len(rows)), chosen]})
    else:
        packs = [pickle.loads(Path(path).read_bytes()) for path in a.args]
        new = {k: m for p in packs for k, m in p.items()}
        if a.bag:  # one bagged model: the held-out models' margins averaged with every pickle's
            new = {k: m for k, m in new.items() if all(k in p for p in packs)}
        idx = [i for i, r in enumerate(rows) if (r[0], r[1]) in new]
        rows, views = [rows[i] for i in idx], [views[i] for i in idx]
        def margin(r, v):
            if not a.bag:
                return new[(r[0], r[1])][a.view]
            held = [] if a.without_held_out else [v.margin]
            return np.mean(held + [p[(r[0], r[1])][a.view] for p in packs], axis=0)

        margins = [margin(r, v) for r, v in zip(rows, views)]
        summary(rows, {"held-out models": base[idx], "bagged" if a.bag else "retrained": np.array(
            [v.f1(m >= CUT) for m, v in zip(margins, views)])})
    return 0


def reach(rows, views) -> None:
    """Per set and WCXB page type: the share of the gold's words the page's blocks hold whatever is kept (the
    ceiling of any block model), and the pages under 70% (of them, those with an empty gold)."""
    groups = defaultdict(list)
    for (s, _, _, ptype, _), v in zip(rows, views):
        r = v.shared(np.ones(len(v.words), dtype=bool)) / v.gold if v.gold else 0.0
        for g in [s] + ([f"  {ptype}"] if ptype else []):
            groups[g].append((r, v.gold == 0))
    print("| pages | n | gold words the blocks hold | pages under 70% | of them, an empty gold |\n|---|---:|---:|---:|---:|")
    for g, rs in groups.items():
        a = np.array(rs, dtype=np.float64)
        low = a[:, 0] < 0.7
        print(f"| {g} | {len(a)} | {100 * a[:, 0].mean():.1f}% | {low.sum()} | {int(a[low, 1].sum())} |")


def labels(rows, views, data, view: int, base: np.ndarray) -> None:
    """The training labels as a cleaner (the ceiling of a model that learned them all), and the same with a block
    the alignment leaves out labelled content too when the gold's unaligned words hold half its words or more
    (WCXB scores bags of words, not an alignment)."""
    from collections import Counter

    pages = {(s, p.name): p.views[view] for s, ps in data.items() for p in ps}
    gold = {(g.set, g.name): g for g in gold_pages(shared_data(), sorted(data))}
    exact, bags = [], []
    for (s, name, *_), v in zip(rows, views):
        blocks, _, labelled, _, _ = pages[(s, name)]
        keep = np.asarray(labelled, dtype=bool)
        per = [tokens(t) for t in blocks.texts]
        words, g = [w for ws in per for w in ws], tokens(gold[(s, name)].gold_text())
        left = Counter(g) - Counter(w for w, h in zip(words, TL.aligned(words, g)) if h)
        more = keep.copy()
        for i, ws in enumerate(per):
            if ws and not more[i]:
                got = Counter({w: min(k, left[w]) for w, k in Counter(ws).items()})
                if sum(got.values()) >= 0.5 * len(ws):
                    more[i], left = True, left - got
        exact.append(v.f1(keep))
        bags.append(v.f1(more))
    summary(rows, {"held-out models": base, "the labelled blocks": np.array(exact),
                   "labelled by the bag too": np.array(bags)})


def headings(rows, views, data, view: int) -> None:
    """Per WCXB page type: of the words the held-out models keep rightly and wrongly (a block's label: half its
    words in the gold's alignment), the share under a heading holding a ``proxy_tries.SECTION_WORDS`` word."""
    blocks = {(s, p.name): p.views for s, ps in data.items() for p in ps}
    out = defaultdict(lambda: np.zeros((2, 2)))
    for (s, name, _, ptype, _), v in zip(rows, views):
        if s != "wcxb-dev":
            continue
        under = tries.section_heading(blocks[(s, name)][view][0])[:, 0] > 0
        kept = v.margin >= CUT
        wrong = v.hits < 0.5 * np.maximum(v.words, 1)
        for t in (ptype, "all"):
            for k in (0, 1):
                sel = kept & (wrong == bool(k))
                out[t][k] += v.words[sel & under].sum(), v.words[sel].sum()
    print("| page type | rightly kept words under such a heading | wrongly kept |\n|---|---:|---:|")
    for t, c in out.items():
        print(f"| {t} | {100 * c[0, 0] / max(c[0, 1], 1):.1f}% | {100 * c[1, 0] / max(c[1, 1], 1):.1f}% |")


def noise_column(page) -> np.ndarray:
    """A column of random numbers (seeded by the page's blocks): ``columns scripts.studies.proxy_learned:noise_column``
    measures how far retraining alone moves the figures, the yardstick for a real column's change."""
    return np.random.default_rng(len(page.texts) * 7919 + page.chars).random((len(page.texts), 1))


def sampled_hosts(share: float) -> set[str]:
    """The names of the wcxb-dev pages whose host falls in ``share`` of the hosts (a stable hash, salted apart
    from the folds': every fold keeps about that share of its hosts, and a smaller share's hosts are in a larger's)."""
    import hashlib

    from eval.cleaning.gold import host_of

    def draw(host: str) -> float:
        return int(hashlib.sha1(f"host-share/{host}".encode()).hexdigest(), 16) % 10_000 / 10_000

    return {g.name for g in gold_pages(shared_data(), ["wcxb-dev"]) if draw(host_of(g.url())) < share}


def retrain(data, splits: list[str], extra, balance_types: bool = False, seed: int = 0,
            max_blocks: int = TL.MAX_BLOCKS, host_share: float = 1.0) -> dict:
    """Held-out margins (per page, per view) of models retrained with ``extra``'s columns appended (None: none);
    ``balance_types``: each WCXB page type weighs the same within its set (``train_learned --balance-types``);
    ``host_share``: only that share of wcxb-dev's hosts trains (:func:`sampled_hosts`)."""
    kept = sampled_hosts(host_share) if host_share < 1 else None
    def rows_of(blocks, title, tv, head):
        rows = page_features(blocks, title, tv, head)
        return rows if extra is None else np.hstack([rows, extra(blocks).astype(np.float32)])

    from sklearn.ensemble import HistGradientBoostingClassifier
    out = {}
    for held in splits:
        t0 = time.perf_counter()
        chosen = {s: [p for p in pages if p.split != held and (kept is None or s != "wcxb-dev" or p.name in kept)]
                  for s, pages in data.items()}
        chosen = {s: ps for s, ps in chosen.items() if ps}
        pages = [p for ps in chosen.values() for p in ps]
        tv = TokenVocab(TL.choose_vocab(pages, 100, 10))
        X, y, w = TL.training_rows(chosen, lambda b, t, h: rows_of(b, t, tv, h), TL.DEFAULT_BOOST, balance_types,
                                   seed, max_blocks)
        clf = HistGradientBoostingClassifier(**TL.PARAMS).fit(X, y, sample_weight=w)
        for s, ps in data.items():
            for p in ps:
                if p.split == held:
                    out[(s, p.name)] = [clf.decision_function(rows_of(b, t, tv, h)) for b, t, _, _, h in p.views]
        print(f"{held}: retrained in {time.perf_counter() - t0:.0f} s", file=sys.stderr, flush=True)
    return out


if __name__ == "__main__":
    sys.exit(main())
