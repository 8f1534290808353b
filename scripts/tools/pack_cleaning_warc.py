#!/usr/bin/env python
"""Pack the ~2,900 real pages of ../shared/data/cleaning/*/input into gzipped WARCs (benchmark inputs).

Each page becomes a response record with WARC-TREC-ID "<set>/<stem>" (copies: "#N") and, for CleanEval
pages, the original URL from their <text id=...> wrapper line.
Usage: scripts/tools/pack_cleaning_warc.py [--output build/bench] [--files 1] [--copies 1]
"""
import argparse

from webprune.benchdata import ROOT, pack_cleaning_pages

if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--output", default=str(ROOT / "build" / "bench"), help="folder for the WARC files")
    ap.add_argument("--files", type=int, default=1)
    ap.add_argument("--copies", type=int, default=1)
    a = ap.parse_args()
    for path in pack_cleaning_pages(a.output, a.files, a.copies):
        print(path)
