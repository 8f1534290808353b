#!/usr/bin/env python
"""Faults on a multi-host Ray cluster of network namespaces (tests/multihost.py), seed by seed: the table of
docs/cluster.md. Needs root and iproute2; takes about a minute a fault and seed.

    python scripts/bench/multihost.py --seeds 3 --json results/cluster/multihost.json
    python scripts/bench/multihost.py --kinds cut --ray-defaults      # Ray's own health checks and keepalive

Prints fault x seed -> finished / refused, identical shards and counts, time lost against the uninterrupted run;
exit 1 when a run was not as expected (tests/test_multihost.py asserts the same).
"""
from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.multihost import (ARGS, FAULTS, FILES, PAGES, RAY_SETTINGS, SLOW_S, Cluster, Study,  # noqa: E402
                             table, unavailable)
from webprune.benchdata import pack_cleaning_pages  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--seeds", type=int, default=1, help="seeds 1..N of every fault (default: 1)")
    p.add_argument("--kinds", default=",".join(FAULTS), help=f"faults, comma-separated (default: {','.join(FAULTS)})")
    p.add_argument("--workers", type=int, default=2, help="worker nodes (default: 2)")
    p.add_argument("--ray-defaults", action="store_true",
                   help="the nodes with Ray's own health-check and keepalive settings (the driver: webprune's)")
    p.add_argument("--json", type=Path, default=None, help="write every outcome here")
    a = p.parse_args(argv)
    kinds = [k for k in a.kinds.split(",") if k]
    if unknown := [k for k in kinds if k not in FAULTS]:
        p.error(f"unknown fault(s) {unknown}: choose from {list(FAULTS)}")
    if why := unavailable():
        print(f"multihost: {why}", file=sys.stderr)
        return 2
    t0 = time.monotonic()
    settings = {} if a.ray_defaults else dict(RAY_SETTINGS)
    with tempfile.TemporaryDirectory(prefix="multihost-") as tmp:
        work = Path(tmp)
        crawl = pack_cleaning_pages(work / "crawl", files=FILES, limit=PAGES)[0].parent
        with Cluster(workers=a.workers, env={"WEBPRUNE_TEST_SLOW_S": SLOW_S}, ray_settings=settings) as cluster:
            study = Study(cluster, crawl, work, ARGS)
            print(f"uninterrupted: {study.reference.wall_s:.1f} s; faults between {study.window[0]} and "
                  f"{study.window[1]} s", file=sys.stderr)
            outcomes = []
            for kind in kinds:
                for seed in range(1, a.seeds + 1):
                    t1 = time.monotonic()
                    outcomes.append(study.run(kind, seed))
                    o = outcomes[-1]
                    print(f"{kind} seed {seed}: {o.result}, identical {o.identical}, lost {o.lost_s:+.0f} s "
                          f"({time.monotonic() - t1:.0f} s)", file=sys.stderr)
    print(table([o.row() for o in outcomes], study.reference.wall_s))
    if a.json:
        a.json.parent.mkdir(parents=True, exist_ok=True)
        a.json.write_text(json.dumps({
            "command": "python scripts/bench/multihost.py " + " ".join(argv if argv is not None else sys.argv[1:]),
            "workers": a.workers, "ray_settings": settings or "Ray's defaults", "args": ARGS,
            "workload": {"files": FILES, "pages": PAGES, "seconds_a_page": float(SLOW_S)},
            "uninterrupted_s": round(study.reference.wall_s, 1), "fault_window_s": study.window,
            "wall_s": round(time.monotonic() - t0, 1), "outcomes": [o.row() for o in outcomes]}, indent=1) + "\n")
    return 0 if all(o.as_expected for o in outcomes) else 1


if __name__ == "__main__":
    sys.exit(main())
