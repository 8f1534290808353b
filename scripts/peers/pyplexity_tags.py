#!/usr/bin/env python3
"""Throughput of pyplexity's HTML tag remover (and of its whole pipeline), for side-by-side benchmarks.

Run with pyplexity's own virtualenv (see scripts/setup_pyplexity.sh):

    .venv-pyplexity/bin/python scripts/peers/pyplexity_tags.py LIST [--repeat N] [--perplexity DIR]

LIST is a file with one HTML file path per line. Per document this does exactly
what `pyplexity tag-remover DIR` does (pyplexity.dataset_processor.DatasetProcessor
.process_single_file, non-WARC branch), minus the disk I/O:

    sanitized = raw_bytes.decode(errors="ignore").encode("utf-8", errors="ignore")
    text = HTMLTagRemover().process(sanitized)

With ``--perplexity DIR`` (``scripts/peers/pyplexity_model.py``'s output: a stand-in bigram model and NLTK
Punkt data, since pyplexity's own are downloads), each tag-removed text then goes through what
``pyplexity bulk-perplexity`` does to a file (``PerplexityProcessor(model, 8000).process``: NLTK sentences,
a perplexity per sentence, the high ones marked): the paper's two passes, in memory.

All files are read as bytes first; only the loop above is timed, single process.
Prints one JSON line to stdout:
  {"tool": "pyplexity-tags", "version", "docs", "seconds", "docs_per_s", "errors", ...}
"docs" counts documents processed over all repeats; a page that raises is counted
in "errors" and skipped. "empty" counts pages with an empty result (pyplexity
returns "" itself when lxml raises ParserError, e.g. for an empty document).
"""
from __future__ import annotations

import argparse
import contextlib
import importlib.metadata
import json
import os
import pickle
import sys
import time
from pathlib import Path


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("list_file", help="file with one HTML file path per line")
    ap.add_argument("--repeat", type=int, default=1, help="passes over all files (default 1)")
    ap.add_argument("--perplexity", metavar="DIR", help="also run bulk-perplexity's processor with the model in DIR")
    ap.add_argument("--limit", type=float, default=8000.0, help="bulk-perplexity's --perpl-limit (default 8000)")
    args = ap.parse_args(argv)
    if args.repeat < 1:
        ap.error("--repeat must be >= 1")
    if args.perplexity:
        model_dir = Path(args.perplexity)
        if not (model_dir / "bigrams.pkl").is_file():
            ap.error(f"{model_dir}: no bigrams.pkl (build it with scripts/peers/pyplexity_model.py)")
        os.environ["NLTK_DATA"] = str(model_dir / "nltk_data")  # before nltk is imported

    from pyplexity.tag_remover import HTMLTagRemover

    with open(args.list_file, encoding="utf-8") as fh:
        paths = [line.strip() for line in fh if line.strip()]
    pages: list[bytes] = []
    for p in paths:
        with open(p, "rb") as fh:  # the CLI opens the input with 'rb' too
            pages.append(fh.read())

    remover = HTMLTagRemover()  # the CLI builds one remover for the whole run
    perplexity = None
    # pyplexity print()s "html5lib" to stdout when it falls back to html5lib (and "Done." when a model is
    # loaded); keep stdout for our single JSON line.
    with contextlib.redirect_stdout(sys.stderr):
        if args.perplexity:
            from pyplexity.perpl_model import BigramPerplexityModel, PerplexityProcessor

            data = pickle.loads((Path(args.perplexity) / "bigrams.pkl").read_bytes())
            perplexity = PerplexityProcessor(BigramPerplexityModel(data), args.limit)
        docs = errors = empty = 0
        start, cpu_start = time.perf_counter(), time.process_time()
        for _ in range(args.repeat):
            for raw in pages:
                docs += 1
                try:
                    sanitized = raw.decode(errors="ignore").encode("utf-8", errors="ignore")
                    text = remover.process(sanitized)
                    if perplexity is not None:  # bulk-perplexity reads the tag remover's file the same way
                        text = perplexity.process(text.encode("utf-8", errors="ignore"))
                    if not text:
                        empty += 1
                except Exception:  # noqa: BLE001 - one bad page must not stop the run
                    errors += 1
        seconds = time.perf_counter() - start
        cpu_seconds = time.process_time() - cpu_start

    print(json.dumps({
        "tool": "pyplexity-tags+perplexity" if perplexity is not None else "pyplexity-tags",
        "version": importlib.metadata.version("pyplexity"),
        "docs": docs,
        "seconds": round(seconds, 4),
        "cpu_seconds": round(cpu_seconds, 4),
        "docs_per_s": round(docs / seconds, 2) if seconds > 0 else None,
        "errors": errors,
        "repeat": args.repeat,
        "empty": empty,
    }))
    return 0


if __name__ == "__main__":
    sys.exit(main())
