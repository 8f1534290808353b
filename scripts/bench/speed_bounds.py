#!/usr/bin/env python
"""What the speed targets ask of a record, beside pyplexity's tag remover in one run.

    scripts/bench/speed_bounds.py [--rec-model build/models/crawl] [--repeat 3]

The speed benchmark (``bench_preprocess.py --parts speed``) compares ``webprune preprocess --workers 1`` over
17,226 records, wall time including start-up, with pyplexity's tag remover in process on the same pages. A run's
wall time is a fixed part (Python's and Ray's start-up and exit, the model's loading) and a part that grows with
the records. This measures both, for ``tags`` and the recommended pipeline:

* fixed: the same command on a small real WARC (../shared/data/warc/commoncrawl, 50 records), median of
  ``--repeat`` runs, its wall time and the driver's CPU;
* the full run on the benchmark's 4 files (build/bench/speed-00*.warc.gz), once: wall and CPU per record
  (the cleaning pass's, every step's, plus the driver's, as the benchmark counts);
* the reading floor on the same files: every gzip member inflated by ISA-L (the product's inflate) and its
  bytes hashed by SHA-1 (what the record digests cost), in a plain loop with nothing else;
* pyplexity's tag remover before and after, merged.

It prints the per-record budget each target leaves -- for the wall targets after the fixed part, ``(N /
(k * peer docs/s) - fixed wall) / N``; for the CPU targets ``peer CPU ms / k`` -- beside what a record costs now.
"""
from __future__ import annotations

import argparse
import hashlib
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_preprocess import HL, TAGS, machine, merged, peer_ms, run_cli, worker_cpu_s  # noqa: E402
from peers.pyplexity_runs import pyplexity  # noqa: E402
from webprune.benchdata import pack_cleaning_pages, shared_data  # noqa: E402

TARGETS = {"tags": 5.0, "recommended": 1.5}


def reading_floor(files: list[Path]) -> tuple[float, float, int]:
    """(inflate, SHA-1) CPU ms per gzip member over ``files``, and the members: a tight loop, nothing else."""
    try:
        from isal import isal_zlib as zlib
    except ImportError:  # pragma: no cover
        import zlib
    from preprocess.readers.gzip_members import header_length
    inflate = sha = 0.0
    members = 0
    for f in files:
        data = memoryview(f.read_bytes())
        i = 0
        while i < len(data):
            t0 = time.process_time()
            n = header_length(bytes(data[i:i + 512]))
            if not n:
                sys.exit(f"{f}: not a gzip member at byte {i}")
            dec, pieces, at = zlib.decompressobj(-zlib.MAX_WBITS), [], i + n
            while not dec.eof:
                chunk = data[at:at + (1 << 16)]
                pieces.append(dec.decompress(chunk))
                at += len(chunk) - len(dec.unused_data) if dec.eof else len(chunk)
            out = b"".join(pieces)
            t1 = time.process_time()
            hashlib.sha1(out).digest()
            sha += time.process_time() - t1
            inflate += t1 - t0
            i, members = at + 8, members + 1
    return 1e3 * inflate / members, 1e3 * sha / members, members


def measure(label: str, args: list[str], small: Path, files: list[Path], repeat: int) -> dict:
    fixed = [run_cli([small], args, workers=1) for _ in range(repeat)]
    full = run_cli(files, args, workers=1)
    n = full["records"]
    fixed_wall = statistics.median(s["process_wall_s"] for s in fixed)
    return {"label": label, "records": n, "fixed_records": fixed[0]["records"], "fixed_wall": fixed_wall,
            "fixed_driver_cpu": statistics.median(s["driver"]["cpu_s"] for s in fixed),
            "fixed_walls": [s["process_wall_s"] for s in fixed], "wall": full["process_wall_s"],
            "cpu_ms": 1e3 * worker_cpu_s(full) / n,
            "steps_ms": {k: 1e3 * v["cpu_s"] / n for k, v in full["times"].items() if not k.startswith("learn.")},
            "marginal_wall_ms": 1e3 * (full["process_wall_s"] - fixed_wall) / n}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rec-model", type=Path, default=ROOT / "build" / "models" / "crawl",
                    help="the recommended pipeline's contrastive model (webprune lm train-crawl)")
    ap.add_argument("--repeat", type=int, default=3, help="runs of the small file (median)")
    a = ap.parse_args()
    if a.repeat < 1:
        ap.error("--repeat: at least 1")
    if not a.rec_model.exists():
        sys.exit(f"{a.rec_model}: no contrastive model; build it with `webprune lm train-crawl "
                 "build/bench/cleaning.warc.gz -o build/models/crawl --local`")
    small = shared_data("warc") / "commoncrawl" / "CC-MAIN-2020-34-sample.warc.gz"
    files = pack_cleaning_pages(ROOT / "build" / "bench", files=4, copies=6, prefix="speed")
    before = pyplexity(1)
    if before is None:
        sys.exit("pyplexity is not set up: bash scripts/setup_pyplexity.sh")
    runs = [measure("tags", TAGS, small, files, a.repeat),
            measure("recommended", ["--cleaner", "learned", *HL, "--prune-model", str(a.rec_model)], small, files,
                    a.repeat)]
    peer = merged([before, pyplexity(1)])
    inflate, sha, members = reading_floor(files)
    p_ms, p_rate = peer_ms(peer), peer["docs_per_s"]
    print(f"### what the speed targets ask of a record: {runs[0]['records']:,} records in {len(files)} files, "
          f"1 worker; fixed part: {small.name} ({runs[0]['fixed_records']} records), median of {a.repeat}")
    print(f"machine: {machine()}")
    print(f"pyplexity's tag remover (before and after, merged): {p_ms:.3f} ms CPU a page, {p_rate:.0f} docs/s")
    print()
    print("| | " + " | ".join(r["label"] for r in runs) + " |")
    print("|---|" + "---:|" * len(runs))

    def row(name, cells):
        print(f"| {name} | " + " | ".join(cells) + " |")

    row("target (x pyplexity's tag remover)", [f"{TARGETS[r['label']]:g}x" for r in runs])
    row("fixed part: wall s (each run)", [f"{r['fixed_wall']:.2f} ({', '.join(f'{w:.2f}' for w in r['fixed_walls'])})"
                                          for r in runs])
    row("fixed part: driver CPU s", [f"{r['fixed_driver_cpu']:.2f}" for r in runs])
    row("full run: wall s", [f"{r['wall']:.2f}" for r in runs])
    row("full run: x pyplexity (wall)", [f"{r['records'] / r['wall'] / p_rate:.2f}" for r in runs])
    row("full run: CPU ms a record", [f"{r['cpu_ms']:.3f}" for r in runs])
    row("full run: x pyplexity (CPU)", [f"{p_ms / r['cpu_ms']:.2f}" for r in runs])
    row("wall ms a record past the fixed part", [f"{r['marginal_wall_ms']:.3f}" for r in runs])
    budget = {r["label"]: 1e3 * (r["records"] / (TARGETS[r["label"]] * p_rate) - r["fixed_wall"]) / r["records"]
              for r in runs}
    row("**the wall target leaves a record (past the fixed part), ms**", [f"**{budget[r['label']]:.3f}**" for r in runs])
    row("**the CPU target leaves a record, ms**", [f"**{p_ms / TARGETS[r['label']]:.3f}**" for r in runs])
    row("wall time the fixed part alone takes of the target's, %",
        [f"{100 * r['fixed_wall'] / (r['records'] / (TARGETS[r['label']] * p_rate)):.0f}" for r in runs])
    print()
    print(f"reading floor, {members:,} gzip members in a plain loop: ISA-L inflate {inflate:.3f} + SHA-1 {sha:.3f} = "
          f"{inflate + sha:.3f} ms a record")
    for r in runs:
        print(f"{r['label']}: CPU ms a record by stage: "
              + ", ".join(f"{k} {v:.3f}" for k, v in sorted(r["steps_ms"].items(), key=lambda kv: -kv[1])))
    return 0


if __name__ == "__main__":
    sys.exit(main())
