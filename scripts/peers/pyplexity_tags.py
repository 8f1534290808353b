#!/usr/bin/env python3
"""Throughput of pyplexity's HTML tag remover, for side-by-side benchmarks.

Run with pyplexity's own virtualenv (see scripts/setup_pyplexity.sh):

    .venv-pyplexity/bin/python scripts/peers/pyplexity_tags.py LIST [--repeat N]

LIST is a file with one HTML file path per line. Per document this does exactly
what `pyplexity tag-remover DIR` does (pyplexity.dataset_processor.DatasetProcessor
.process_single_file, non-WARC branch), minus the disk I/O:

    sanitized = raw_bytes.decode(errors="ignore").encode("utf-8", errors="ignore")
    text = HTMLTagRemover().process(sanitized)

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
import sys
import time


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("list_file", help="file with one HTML file path per line")
    ap.add_argument("--repeat", type=int, default=1, help="passes over all files (default 1)")
    args = ap.parse_args(argv)
    if args.repeat < 1:
        ap.error("--repeat must be >= 1")

    from pyplexity.tag_remover import HTMLTagRemover

    with open(args.list_file, encoding="utf-8") as fh:
        paths = [line.strip() for line in fh if line.strip()]
    pages: list[bytes] = []
    for p in paths:
        with open(p, "rb") as fh:  # the CLI opens the input with 'rb' too
            pages.append(fh.read())

    remover = HTMLTagRemover()  # the CLI builds one remover for the whole run
    docs = errors = empty = 0
    # pyplexity print()s "html5lib" to stdout when it falls back to html5lib;
    # keep stdout for our single JSON line.
    with contextlib.redirect_stdout(sys.stderr):
        start, cpu_start = time.perf_counter(), time.process_time()
        for _ in range(args.repeat):
            for raw in pages:
                docs += 1
                try:
                    sanitized = raw.decode(errors="ignore").encode("utf-8", errors="ignore")
                    if not remover.process(sanitized):
                        empty += 1
                except Exception:  # noqa: BLE001 - one bad page must not stop the run
                    errors += 1
        seconds = time.perf_counter() - start
        cpu_seconds = time.process_time() - cpu_start

    print(json.dumps({
        "tool": "pyplexity-tags",
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
