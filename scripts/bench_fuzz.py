#!/usr/bin/env python
"""Fuzz benchmark: every cleaner, with pruning, over >= 10,000 mutated real records (webprune/fuzz.py).

For each cleaner it runs `webprune preprocess` (Ray, --workers 2, batches of one page so that the slowest
pages are named) and prints: records and their accounting, pristine records lost to a bad neighbour,
failures by reason, units failed, the driver's errors (tracebacks), peak RSS per worker, and the slowest
pages with what was done to them.
Usage: .venv/bin/python scripts/bench_fuzz.py [--records 10000] [--files 20] [--scale 1.0]
       [--cleaners tags,density,...] [--model build/models/general-2gram.bin] [--out build/fuzz]
"""
import argparse
import gzip
import json
import subprocess
import sys
import time
from pathlib import Path

from preprocess.registry import CLEANERS
from webprune.benchdata import ROOT, cleaning_pages
from webprune.fuzz import write_fuzz_warcs


FRAMING = ("failed.corrupt", "failed.bad_headers", "failed.bad_http_head")


def lost_pristine(dest: Path, pristine: list[str]) -> list[str]:
    """Pristine records that have no outcome of their own, or one that only a broken neighbour explains."""
    outcome = {}
    for p in sorted((dest / "outcomes").glob("*.tsv.gz")):
        for line in gzip.open(p, "rt"):
            rid, what = line.rstrip("\n").split("\t")
            outcome.setdefault(rid, what)
    return [rid for rid in pristine if rid not in outcome or outcome[rid] in FRAMING]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--records", type=int, default=10_000)
    ap.add_argument("--files", type=int, default=20)
    ap.add_argument("--scale", type=float, default=1.0, help="size of the big mutations (1.0: 20 MB pages)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--cleaners", default=",".join(CLEANERS))
    ap.add_argument("--model", default=str(ROOT / "build" / "models" / "general-2gram.bin"))
    ap.add_argument("--max-perplexity", default="8000")
    ap.add_argument("--workers", default="2")
    ap.add_argument("--out", default=str(ROOT / "build" / "fuzz"))
    a = ap.parse_args()
    out = Path(a.out)
    if not Path(a.model).exists():
        sys.exit(f"{a.model}: train it first: webprune lm train ../shared/data/lm/*.txt --order 2 -o {a.model}")
    pages = [p.read_bytes() for p in cleaning_pages()]
    t0 = time.time()
    files = write_fuzz_warcs(out / "input", pages, a.records, a.files, seed=a.seed, scale=a.scale)
    mutation = {rid: m for f in files for rid, m in f.mutated.items()}
    pristine = [rid for f in files for rid in f.pristine]
    print(f"{sum(f.records for f in files)} records in {len(files)} files ({len(mutation)} mutated, "
          f"{len(pristine)} pristine), written in {time.time() - t0:.0f} s", flush=True)
    rows = []
    for cleaner in a.cleaners.split(","):
        dest = out / f"out-{cleaner}"
        t0 = time.time()
        proc = subprocess.run([sys.executable, "-m", "webprune.cli", "preprocess", str(out / "input"), "-o", str(dest),
                               "--cleaner", cleaner, "--drop-hinted", "--max-link-density", "0.5", "--prune-model",
                               a.model, "--max-perplexity", a.max_perplexity, "--workers", a.workers,
                               "--batch-size", "1", "--overwrite", "--outcomes"], capture_output=True, text=True,
                              cwd=ROOT)
        wall = time.time() - t0
        r = json.loads((dest / "stats.json").read_text())
        lost = lost_pristine(dest, pristine)
        rows.append({"cleaner": cleaner, "exit": proc.returncode, "records": r["records"], "written": r["written"],
                     "unaccounted": r["unaccounted"], "lost": len(lost), "failed": r["failed"],
                     "skipped": r["skipped"], "units_failed": r["units"]["failed"],
                     "tracebacks": proc.stderr.count("Traceback"),
                     "worker_rss_mb": r["units"]["worker_peak_rss_mb"], "driver_rss_mb": r["driver"]["peak_rss_mb"],
                     "wall_s": round(wall), "slowest": [(s, w, mutation.get(w.split()[0], "-"))
                                                       for s, w in r["slowest"][:5]]})
        print(json.dumps(rows[-1]), flush=True)
    print("\n| cleaner | records | written | unaccounted | pristine lost | tracebacks | units failed | "
          "worker peak RSS | wall | failures by reason |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---|")
    for r in rows:
        print(f"| {r['cleaner']} | {r['records']:,} | {r['written']:,} | {r['unaccounted']} | {r['lost']} | "
              f"{r['tracebacks']} | {r['units_failed']} | {r['worker_rss_mb']:.0f} MB | {r['wall_s']} s | "
              f"{', '.join(f'{k} {v}' for k, v in sorted(r['failed'].items())) or '-'} |")
    print("\nslowest pages (seconds, id, mutation):")
    for r in rows:
        print(f"- {r['cleaner']}: " + "; ".join(f"{s:.1f} s {w.split()[0]} ({m})" for s, w, m in r["slowest"]))
    return 0 if all(r["unaccounted"] == 0 and r["lost"] == 0 and not r["tracebacks"] for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
