#!/usr/bin/env python
"""A language without spaces in a crawl: real Japanese pages beside English ones, what train-crawl learns and prunes.

The only real Chinese/Japanese pages in the shared data are the 29 ClueWeb09 Japanese records
(``warc/clueweb09/clueweb09-ja-sample.warc.gz``: one bag shop, www.uraharajuku.st); the cleaning sets
hold English pages with a few CJK lines (WCXB-dev 0388 has a Korean sidebar). The crawl here is those
29 records beside the 71 CleanPortalEval pages (English news portals), trained twice with
``--min-language-lines 100`` (the Japanese part is small): with the default labelling and with
``--no-drop-hinted``. For each model it prints the card's languages, lines per side and duplicates,
then prunes the Japanese pages (``tags`` cleaning + the model at its default threshold, as
``webprune preprocess --prune-model``) and shows the lines of two pages kept and dropped, with scores.

``--english-model M`` (a model of English pages, e.g. ``contrastive_duplicates.py``'s ``single``) also counts,
on the five article sets and WCXB-dev (1,296 pages, WCXB's own labels give no language), the pages whose
detected language is not English and how many of them the pruner still scores through M's vocabulary.

Usage: python scripts/studies/contrastive_cjk.py [--out build/contrastive/cjk] [--pages 2] [--english-model M]
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

from webprune.benchdata import ROOT, shared_data

JA = ("warc", "clueweb09", "clueweb09-ja-sample.warc.gz")


def build_crawl(out: Path) -> Path:
    from eval.cleaning.gold import page_url
    from eval.cleaning.harness import strip_wrapper
    from webprune.warcpack import pack_pages

    crawl = out / "crawl"
    if not (crawl / "en.warc.gz").exists():
        files = sorted(shared_data("cleaning", "cleanportaleval", "input").glob("*.html"))
        pack_pages([(f.stem, page_url(f.read_bytes()) or f"http://cpe.invalid/{f.stem}", strip_wrapper(f.read_bytes()))
                    for f in files], crawl / "en.warc.gz")
    link = crawl / JA[-1]
    if not link.exists():
        link.symlink_to(shared_data(*JA))
    return crawl


def train(crawl: Path, model: Path, extra: list[str]) -> dict:
    if not (model / "contrastive.json").exists():
        subprocess.run([sys.executable, "-m", "webprune.cli", "lm", "train-crawl", str(crawl), "-o", str(model),
                        "--local", "--min-language-lines", "100", *extra], check=True, capture_output=True)
    return json.loads((model / "contrastive.json").read_text())


def show(card: dict) -> None:
    for lang, e in card["languages"].items():
        n = e["label_counts"]
        print(f"- `{lang}` ({e['tokens']}): {e['documents']} pages, content {e['content']['lines']:,} lines / "
              f"{e['content']['tokens']:,} tokens, boilerplate {e['boilerplate']['lines']:,} / "
              f"{e['boilerplate']['tokens']:,} ({n.get('kept_but_repeated', 0)} kept lines repeated), "
              f"vocabulary {e['vocabulary']['words']:,}")
    d = card["duplicates"]
    print(f"- duplicates: {d['duplicates']} of {d['pages']} pages ({d['exact']} exact, {d['near']} near); without "
          f"a pair: {card['without_model']['documents'] or 'none'} {card['without_model']['left_out'] or ''}")


def prune(model: Path, pages: int) -> None:
    from preprocess.filters.prune.contrastive import ContrastivePrune
    from preprocess.config.options import CleanOptions
    from preprocess.run.pipeline import Pipeline
    from preprocess.readers import read_source
    from preprocess.core.segment import sentences_of_lines
    from preprocess.readers.sources import discover
    from preprocess.core.stats import Stats

    def docs():
        return list(read_source(discover([str(shared_data(*JA))])[0], Stats(), 1 << 26))

    out, stats = Pipeline(CleanOptions(prune_model=str(model)).check()).process(docs())
    c = stats.counts
    print(f"- pruning the 29 Japanese pages at the default threshold: {c.get('prune.lang.ja', 0)} scored with the "
          f"`ja` pair, {c.get('prune.docs_without_language_model', 0)} left unpruned; sentences kept "
          f"{c.get('prune.sentences_kept', 0):,} of {c.get('prune.sentences', 0):,}")
    step = ContrastivePrune(str(model), float("inf"))
    pair = step.scorer.pair("ja")
    if pair is None:
        return
    plain = Pipeline(CleanOptions(cleaner="tags").check())
    for d in docs()[:pages]:
        doc = plain.run([d], Stats())[0]
        sents = [s for _, s in sentences_of_lines(doc.lines)]
        print(f"\n`{d.id}` ({d.url}), {len(sents)} sentences, score = bits per character token:\n")
        print("| score | kept at 3 bits | sentence |\n|---:|:-:|---|")
        for s, score in zip(sents, step._score_with(pair, sents)):
            if score is not None:
                print(f"| {score:.2f} | {'yes' if score <= step.scorer.default_threshold else '**no**'} | {s[:90]} |")


def languages_of_english_sets(model: Path) -> None:
    """Pages of the English sets by detected language, and how the pruner treats those not detected as English."""
    import gzip
    from collections import Counter

    from eval.cleaning.gold import FORMATS
    from eval.cleaning.harness import strip_wrapper
    from preprocess.core.document import Document
    from preprocess.lm.contrastive import ContrastiveScorer
    from preprocess.learning.labels import LabelOptions, label_pipeline, labelled
    from preprocess.lm.lang import page_text
    from preprocess.core.stats import Stats

    scorer = ContrastiveScorer(model)
    pipe = label_pipeline(LabelOptions())
    root = shared_data("cleaning")
    groups = {"the five article sets": [(f, strip_wrapper(f.read_bytes())) for s in FORMATS
                                       for f in sorted((root / s / "input").glob("*.html"))],
              "WCXB-dev": [(f, gzip.decompress(f.read_bytes())) for f in sorted((root / "wcxb-dev" / "html").glob("*.gz"))]}
    print("\n| pages | detected English | other language or und | of those, scored by vocabulary | left unpruned |")
    print("|---|---:|---:|---:|---|")
    for name, pages in groups.items():
        docs = [Document(id=f.name, content_type="text/html", raw=raw) for f, raw in pages]
        n, other, rescued, left = 0, 0, 0, Counter()
        for d, kept, _ in labelled(pipe, docs, Stats()):
            lang, pair, by_vocab = scorer.page_pair(page_text(d.title, kept))
            n += 1
            if lang != "en":
                other += 1
                rescued += by_vocab
                left[lang] += pair is None
        print(f"| {name} ({n:,}) | {n - other:,} | {other} | {rescued} | "
              f"{sum(left.values())}: {', '.join(f'{k} {v}' for k, v in left.most_common() if v)} |")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", type=Path, default=ROOT / "build" / "contrastive" / "cjk")
    ap.add_argument("--pages", type=int, default=2, help="pages whose lines are shown")
    ap.add_argument("--english-model", type=Path, default=None)
    a = ap.parse_args()
    if a.english_model:
        languages_of_english_sets(a.english_model)
    crawl = build_crawl(a.out)
    for name, extra in (("default", []), ("no-drop-hinted", ["--no-drop-hinted"])):
        print(f"\n### train-crawl {' '.join(extra) or '(default labelling)'}\n")
        card = train(crawl, a.out / name, extra)
        show(card)
        prune(a.out / name, a.pages)


if __name__ == "__main__":
    main()
