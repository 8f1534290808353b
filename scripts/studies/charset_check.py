#!/usr/bin/env python
"""What the decoder's UTF-8 check changes on the shared gold sets (docs/cleaning.md, Decoding).

    scripts/studies/charset_check.py [--sets wcxb-dev,l3s-gn1,...]

Per set: the pages that reach the check (no declared charset decodes them, the bytes are valid UTF-8), those
all ASCII (same text either way), and those whose text differs from the order without the check
(``decode_payload(..., utf8_check=False)``): split by whether the page's first 64 KiB, all the detector reads,
are ASCII, or the detector saw non-ASCII bytes and still named another charset.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from eval.cleaning.gold import SETS, gold_pages  # noqa: E402
from eval.cleaning.harness import strip_wrapper  # noqa: E402
from preprocess.steps.decode import DETECTOR_BYTES, UTF8_PROBE, decode_payload  # noqa: E402
from webprune.benchdata import shared_data  # noqa: E402

def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sets", default=",".join(SETS))
    a = ap.parse_args(argv)
    sets = [s for s in a.sets.split(",") if s]
    if unknown := [s for s in sets if s not in SETS]:
        ap.error(f"--sets: no set {', '.join(unknown)}; the sets: {', '.join(SETS)}")
    try:
        shared = shared_data()
    except FileNotFoundError as e:
        ap.error(str(e))
    print("| set | pages that reach the check | all ASCII (text unchanged) | text changed "
          "| first 64 KiB all ASCII | detector misread |\n|---|---:|---:|---:|---:|---:|")
    for s in sets:
        reach = ascii_only = changed = window = 0
        for page in gold_pages(shared, [s]):
            raw = strip_wrapper(page.raw())
            text, _, source = decode_payload(raw, "text/html")
            if source != UTF8_PROBE:
                continue
            reach += 1
            ascii_only += raw.isascii()
            if text != decode_payload(raw, "text/html", utf8_check=False)[0]:
                changed += 1
                window += raw[:DETECTOR_BYTES].isascii()
        print(f"| {s} | {reach} | {ascii_only} | {changed} | {window} | {changed - window} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
