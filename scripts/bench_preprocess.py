#!/usr/bin/env python
"""Preprocess throughput on the ~2,900 real pages of ../shared/data/cleaning (packed into one WARC).

Prints, in one run on the same pages:
  1. HTML parsers, parse only, one core: lxml vs lexbor (resiliparse HTMLTree, selectolax)
     -> why webprune parses with resiliparse;
  2. pyplexity's own tag remover, one process (if scripts/setup_pyplexity.sh was run);
  3. webprune tag removal, decode+parse+clean, one process without Ray;
  4. `webprune preprocess` end to end (read WARC -> Ray actors -> shards) with 1 and 2 workers;
  5. with --prune-model: sentence segmentation and KenLM scoring throughput (sentences/s/core),
     and rows 3-4 again with perplexity pruning on top.
docs/s/core = documents written / wall seconds / cleaner workers. Ratios are against pyplexity.
Usage: .venv/bin/python scripts/bench_preprocess.py [--workers 1 2] [--limit N]
"""
from __future__ import annotations

import argparse
import json
import logging
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))
from pack_cleaning_warc import cleaning_pages, pack  # noqa: E402

from preprocess.document import Document  # noqa: E402
from preprocess.pipeline import CleanOptions, Pipeline  # noqa: E402
from preprocess.run import run_preprocess  # noqa: E402
from preprocess.steps.decode import decode_payload  # noqa: E402

PYPLEXITY = ROOT / ".venv-pyplexity" / "bin" / "python"


def cpu_rate(fn, items) -> float:
    t0 = time.process_time()
    for x in items:
        fn(x)
    return len(items) / (time.process_time() - t0)


def bench_parsers(texts: list[str]) -> dict[str, float]:
    import lxml.html
    from resiliparse.parse.html import HTMLTree

    def lxml_parse(s):
        try:
            lxml.html.document_fromstring(s)
        except Exception:  # lxml refuses some pages (e.g. empty after its cleanup)
            pass

    out = {"lxml": cpu_rate(lxml_parse, texts), "lexbor (resiliparse)": cpu_rate(HTMLTree.parse, texts)}
    try:
        from selectolax.lexbor import LexborHTMLParser

        out["lexbor (selectolax)"] = cpu_rate(LexborHTMLParser, texts)
    except ImportError:
        pass
    return out


def bench_pyplexity(pages: list[Path]) -> dict | None:
    if not PYPLEXITY.exists():
        print("  pyplexity: not set up (bash scripts/setup_pyplexity.sh); skipped", file=sys.stderr)
        return None
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
        f.write("\n".join(map(str, pages)) + "\n")
    proc = subprocess.run([str(PYPLEXITY), str(ROOT / "scripts" / "peers" / "pyplexity_tags.py"), f.name],
                          capture_output=True, text=True)
    if proc.returncode != 0:
        print(f"  pyplexity failed: {proc.stderr[-500:]}", file=sys.stderr)
        return None
    return json.loads(proc.stdout.strip().splitlines()[-1])


def sentence_rows(docs: list[dict], model: str) -> list[tuple]:
    """Sentences/s/core for segmentation alone and for segmentation + KenLM scoring (CPU time)."""
    from preprocess.segment import sentences_of
    from preprocess.filters.prune import PerplexityPrune

    texts = [d["contents"] for d in docs]
    t0 = time.process_time()
    sents = [s for t in texts for _, s in sentences_of(t)]
    seg = time.process_time() - t0
    pruner = PerplexityPrune(model, float("inf"))
    t0 = time.process_time()
    for s in sents:
        pruner.decision_score(s)
    score = time.process_time() - t0
    return [(f"sentence segmentation (sentencex), {len(sents)} sentences", len(sents) / seg, len(sents) / seg),
            ("sentence normalise + KenLM perplexity", len(sents) / score, len(sents) / score)]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--shared", type=Path, default=ROOT.parent / "shared" / "data")
    ap.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    ap.add_argument("--limit", type=int, default=None, help="first N pages only (quick check)")
    ap.add_argument("--prune-model", default=None, help="KenLM model: also benchmark perplexity pruning")
    ap.add_argument("--max-perplexity", type=float, default=8000)
    a = ap.parse_args()
    logging.basicConfig(level=logging.WARNING)

    pages = cleaning_pages(a.shared)[: a.limit]
    warc = pack(pages, ROOT / "build" / "bench" / (f"cleaning-{a.limit}.warc.gz" if a.limit else "cleaning.warc.gz"))
    raw = [p.read_bytes() for p in pages]
    texts = [decode_payload(b)[0] for b in raw]
    print(f"{len(pages)} pages, {sum(map(len, raw)) / 1e6:.1f} MB", file=sys.stderr)

    rows = []  # (what, docs/s, docs/s/core)
    print("parsers (parse only, CPU time, 1 core):", file=sys.stderr)
    parsers = bench_parsers(texts)
    for name, rate in parsers.items():
        rows.append((f"parse only: {name}", rate, rate))

    peer = bench_pyplexity(pages)
    if peer:
        rows.append((f"pyplexity {peer.get('version', '')} tag remover, 1 process", peer["docs_per_s"], peer["docs_per_s"]))

    variants = [("tag removal", CleanOptions())]
    if a.prune_model:
        variants.append((f"tag removal + pruning at {a.max_perplexity:g}",
                         CleanOptions(prune_model=a.prune_model, max_perplexity=a.max_perplexity)))
    for label, opts in variants:
        pipe = Pipeline(opts)
        docs = [Document(id=str(i), content_type="text/html", raw=b) for i, b in enumerate(raw)]
        t0 = time.perf_counter()
        out, stats = pipe.process(docs)
        wall = time.perf_counter() - t0
        rows.append((f"webprune {label} (decode+parse+clean), 1 process, no Ray", len(out) / wall, len(out) / wall))
        if opts.prune_model:
            rows += sentence_rows(out, opts.prune_model)
        for w in a.workers:
            tmp = Path(tempfile.mkdtemp(prefix=f"bench-w{w}-"))
            r = run_preprocess([str(warc)], tmp, opts, workers=w, progress=False)
            rows.append((f"webprune preprocess {label}, WARC->shards, Ray, {w} worker(s)", r["docs_per_s"], r["docs_per_s"] / w))
            assert r["unaccounted"] == 0 and r["records"] == len(pages)
            shutil.rmtree(tmp)
            import ray

            ray.shutdown()

    base = peer["docs_per_s"] if peer else None
    print(f"\n| measurement ({len(pages)} real pages) | per s | per s per core | × pyplexity |")
    print("|---|---:|---:|---:|")
    for what, rate, per_core in rows:
        ratio = f"{per_core / base:.2f}" if base and "sentence" not in what else ""
        print(f"| {what} | {rate:.0f} | {per_core:.0f} | {ratio} |")


if __name__ == "__main__":
    main()
