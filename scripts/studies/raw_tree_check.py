#!/usr/bin/env python
"""Can the learned cleaner's blocks be read off the raw markup with the SAME result as off lexbor's tree?

    scripts/studies/raw_tree_check.py [--sets cleaneval-dev,...,wcxb-dev] [--limit N] [--show N] [--no-hints]

Issue 23's remaining lever is lexbor's parse and the ``<body>`` serialisation the learned scan reads. An earlier
measurement (``raw_blocks_feasibility.py``) read the raw markup naively and found a different element structure on
a third to half of the classic pages: a retrained model. This prototype goes the other way: it follows HTML's tree
construction rules (the "in body" and table insertion modes, implied ends, scopes, the active formatting elements
and the adoption agency's simple case) over its own tokenizer and GIVES UP on anything it does not model (foster
parenting, misnested formatting with a furthest block, templates, a ``<title>`` in the body, ...). Where it does not
give up its :class:`Page` must equal ``split_body``'s on lexbor's tree, field by field: a twin, no retraining.

The reader is ``preprocess.cleaners.learned.raw`` (the Python reference, and its compiled twin ``_raw.pyx``).
Printed per set, with the class/id hint rule (``--drop-hinted``, as the recommended
cleaner runs; ``--no-hints``: without): pages, the share read raw, mismatches against lexbor's way (the Page field
by field, the rule's counts, and the page's title and names the cleaner reads; must be 0), the commonest reasons for giving up, and the CPU a raw reading would
cost on the pages read raw, both ways. The tree's way: the parse step (its superlinear-markup probe included),
the ``<body>`` serialisation and the compiled scans of it (the hint rule's, the blocks'); the reader also gives
the page's title and names, so no tree at all is needed where it reads a page. A raw reading's floor, what a
compiled twin could not go below: the compiled block scan over the raw page, once (where the hint rule drops
something the Python reference reads a page twice; the compiled twin replays its first reading's log). Averaged over
all pages of a set: pages given up cost and save nothing. The reader itself (``read_raw``: the compiled twin
``_raw.pyx`` where built, as the cleaner runs it) on the pages it reads, and on those it gives up (the partial
reading the cleaner pays before parsing them).
Nothing here changes the product.
"""
from __future__ import annotations

import argparse
import sys
import time
from collections import Counter

from eval.cleaning.gold import SETS, gold_pages
from eval.cleaning.harness import strip_wrapper
from preprocess.cleaners.learned import compiled
from preprocess.cleaners.learned.anchor import page_head
from preprocess.cleaners.learned.blocks import Page, split_body
from preprocess.cleaners.learned.raw import read_raw
from preprocess.core.document import Document
from preprocess.filters.hints import HintFilter
from preprocess.config.options import CleanOptions
from preprocess.run.pipeline import build_steps, run_steps
from webprune.benchdata import shared_data

FIELDS = ("texts", "link_chars", "owner", "start", "el_tag", "el_parent", "el_depth", "el_names", "el_start", "el_end",
          "chars")
ALL_SETS = "cleaneval-dev,cleaneval-final,cleanportaleval,dragnet,l3s-gn1,wcxb-dev"


def first_difference(a: Page, b: Page) -> str:
    for f in FIELDS:
        x, y = getattr(a, f), getattr(b, f)
        if x != y:
            if isinstance(x, list):
                i = next((i for i, (u, v) in enumerate(zip(x, y)) if u != v), min(len(x), len(y)))
                return f"{f}[{i}]: raw {x[i:i + 2]!r} tree {y[i:i + 2]!r} (lengths {len(x)}/{len(y)})"
            return f"{f}: raw {x!r} tree {y!r}"
    return ""


def decoded_pages(shared, set_name: str, limit: int = 0):
    """(page file, decoded html, the Decode step's document) of a set's pages, as the pipeline decodes them;
    the html is None where lexbor decodes the bytes itself (not a strict decode: not read raw)."""
    decode = build_steps(CleanOptions(cleaner="tags"), stop_before="parse")
    pages = gold_pages(shared, [set_name])
    for gp in pages[:limit] if limit else pages:
        docs = run_steps(decode, [Document(id="p", content_type="text/html", raw=strip_wrapper(gp.raw()))])
        if docs:
            yield gp.input, (docs[0].html if docs[0].raw is None else None), docs[0]


def tree_page(doc, hints: bool, parse: list):
    """``split_body``'s Page on lexbor's tree (the ``parse`` step's), the hint rule's counts, the tree's title and
    the page's names (``anchor.page_head``), and the CPU seconds of the parse step and of serialising ``<body>``."""
    t0 = time.process_time()
    docs = run_steps(parse, [doc])
    t_parse = time.process_time() - t0
    if not docs or docs[0].tree.body is None:
        return None, None, None, 0.0, 0.0
    tree = docs[0].tree
    t0 = time.process_time()
    markup = tree.body.html
    t_ser = time.process_time() - t0
    t0 = time.process_time()  # the compiled scan the tree's way runs on it (the hint rule's pass, then the blocks)
    if hints and compiled.ON:
        compiled._scan.hint_ranges(markup, HintFilter.unlikely, HintFilter.maybe, HintFilter().max_share)
    compiled._scan.scan(markup, 400, True)
    t_ser += time.process_time() - t0
    h = HintFilter() if hints else None
    if h is not None:
        h.deferred = True
    head = (tree.title, page_head(tree).names)  # (read before split_body prunes the tree, as the cleaner does)
    page = split_body(tree, hints=h)
    counts = (h.stats.counts.get("hints.elements_dropped", 0), h.stats.counts.get("hints.kept_large", 0)) if h else None
    return page, counts, head, t_parse, t_ser


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sets", default=ALL_SETS)
    ap.add_argument("--limit", type=int, default=0, help="first N pages of each set (0: all)")
    ap.add_argument("--show", type=int, default=3, help="mismatches to print per set")
    ap.add_argument("--no-hints", action="store_true", help="without the class/id hint rule")
    args = ap.parse_args(argv)
    unknown = sorted(set(args.sets.split(",")) - set(SETS))
    if unknown:
        ap.error(f"unknown set(s) {', '.join(unknown)}: choose from {', '.join(SETS)}")
    try:
        shared = shared_data()
    except FileNotFoundError as e:
        ap.error(str(e))
    parse = build_steps(CleanOptions(cleaner="tags"), stop_before="tags")[1:2]  # (the parse step alone)
    print("| set | pages | read raw | mismatches | the tree's way: parse + serialisation + scans, ms a page | "
          "a raw reading's floor: the scan over the raw page | the reader | its readings given up | "
          "top reasons given up |\n|---|---:|---:|---:|---:|---:|---:|---:|---|")
    total_bad = 0
    for set_name in args.sets.split(","):
        why, n, raw_ok, bad, saved, proxy, shown = Counter(), 0, 0, 0, 0.0, 0.0, 0
        reader = given_up = 0.0
        for path, html, doc in decoded_pages(shared, set_name, args.limit):
            n += 1
            if html is None:
                why["not a strict decode"] += 1
                continue
            want, counts, head, t_parse, t_ser = tree_page(doc, not args.no_hints, parse)
            if want is None:
                why["no tree or body"] += 1
                continue
            t0 = time.process_time()
            page, reason, info = read_raw(html, hints=None if args.no_hints else HintFilter())
            t_read = time.process_time() - t0
            if page is None:
                why[reason] += 1
                given_up += t_read
                continue
            diff = first_difference(page, want)
            if not diff and counts is not None and counts != (info["dropped"], info["kept_large"]):
                diff = f"hint counts: raw {(info['dropped'], info['kept_large'])} tree {counts}"
            if not diff and head != (info["title"], info["names"]):
                diff = f"title/names: raw {(info['title'], info['names'])!r:.200} tree {head!r:.200}"
            if diff:
                bad += 1
                if shown < args.show:
                    shown += 1
                    print(f"  MISMATCH {path.name}: {diff}", file=sys.stderr)
                continue
            raw_ok += 1
            saved += t_parse + t_ser
            reader += t_read
            t0 = time.process_time()  # a compiled reader's floor: the compiled scan over the raw page, once
            compiled._scan.scan(html, 400, True)
            proxy += time.process_time() - t0
        total_bad += bad
        top = "; ".join(f"{k} {v}" for k, v in why.most_common(4))
        print(f"| {set_name} | {n} | {raw_ok / max(n, 1):.1%} | {bad} | {1000 * saved / max(n, 1):.3f} | "
              f"{1000 * proxy / max(n, 1):.3f} | {1000 * reader / max(n, 1):.3f} | {1000 * given_up / max(n, 1):.3f} | "
              f"{top} |", flush=True)
    return 1 if total_bad else 0


if __name__ == "__main__":
    sys.exit(main())
