#!/usr/bin/env python
"""Build CACM inside real web-page boilerplate (webprune/cacm_web.py) as a WARC.

Usage: scripts/tools/make_cacm_web.py [--output build/cacm-web/cacm-web.warc.gz] [--templates 400]
"""
import argparse

from webprune.benchdata import ROOT
from webprune.cacm_web import build

if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--output", default=str(ROOT / "build" / "cacm-web" / "cacm-web.warc.gz"))
    ap.add_argument("--templates", type=int, default=400)
    a = ap.parse_args()
    print(build(a.output, a.templates))
