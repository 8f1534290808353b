#!/usr/bin/env python
"""Pack the ~2,900 real pages of ../shared/data/cleaning/*/input into one gzipped WARC (a benchmark input).

Each page becomes a response record with WARC-TREC-ID "<set>/<stem>" and, for
CleanEval pages, the original URL from their <text id=...> wrapper line.
Usage: scripts/pack_cleaning_warc.py [--shared ../shared/data] [--output build/bench/cleaning.warc.gz]
"""
from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from webprune.warcpack import pack_pages  # noqa: E402

_URL = re.compile(rb'^<text id="([^"]+)"')


def cleaning_pages(shared: Path) -> list[Path]:
    pages = sorted(shared.glob("cleaning/*/input/*.html"))
    if not pages:
        sys.exit(f"no pages under {shared}/cleaning/*/input: pass --shared PATH_TO/shared/data")
    return pages


def pages_as_records(pages: list[Path]):
    for p in pages:
        data = p.read_bytes()
        m = _URL.match(data)
        set_name = p.parent.parent.name
        url = m.group(1).decode("utf-8", "replace") if m else f"http://{set_name}.invalid/{p.stem}"
        yield f"{set_name}/{p.stem}", url, data


def pack(pages: list[Path], output: Path) -> Path:
    if output.exists():
        return output
    n = pack_pages(pages_as_records(pages), output)
    print(f"packed {n} pages into {output}", file=sys.stderr)
    return output


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--shared", type=Path, default=ROOT.parent / "shared" / "data")
    ap.add_argument("--output", type=Path, default=ROOT / "build" / "bench" / "cleaning.warc.gz")
    a = ap.parse_args()
    print(pack(cleaning_pages(a.shared), a.output))
