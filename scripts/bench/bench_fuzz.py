#!/usr/bin/env python
"""Fuzz benchmark: >= 10,000 mutated real records in every framing (webprune/fuzz.py), then every cleaner.

First the integrity table: the files and their unbroken twins are cleaned with tag removal (--local), and per
framing it prints records in and counted, pristine or repairable records lost to a bad neighbour, and records
written with a text other than their twin's. Then for each cleaner it runs `webprune preprocess` with pruning
(Ray, --workers 2, batches of one page so that the slowest pages are named) and prints: records and their
accounting, failures by reason, units failed, the driver's errors (tracebacks), peak RSS per worker, and the
slowest pages with what was done to them. Last, the stages after preprocess, per framing: each output is
indexed (`webprune index`) and searched (`webprune search`, QLD, k=1000, common words as topics), and it prints
documents written, documents indexed, ids outside the id rule, and the run file's ids: how many, and how many
of them preprocess never wrote (0: every id a run file names is a written document).
Usage: .venv/bin/python scripts/bench/bench_fuzz.py [--records 10000] [--files 21] [--scale 1.0]
       [--cleaners tags,density,...] [--model build/models/general-2gram.bin] [--out build/fuzz]
"""
import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

from preprocess.config.registry import CLEANERS
from webprune.benchdata import ROOT, cleaning_pages
from webprune.fuzz import FRAMINGS, write_fuzz_files
from webprune.fuzz_check import integrity


def preprocess(src: Path, dest: Path, *flags: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "webprune.cli", "preprocess", str(src), "-o", str(dest), *flags,
                           "--overwrite"], capture_output=True, text=True, cwd=ROOT)


def integrity_table(files, out: Path) -> list[dict]:
    """Tag removal over the fuzzed files and their twins, compared record by record."""
    for src, dest in (("input", "integrity-run"), ("twin", "integrity-twin")):
        proc = preprocess(out / src, out / dest, "--local", "--no-compress")
        if proc.returncode not in (0, 1) or "Traceback" in proc.stderr:
            sys.exit(f"integrity run on {src} failed:\n{proc.stderr[-3000:]}")
    rows = [v.row() for v in integrity(files, out / "integrity-run", out / "integrity-twin").values()]
    print("\n| framing | records in | records counted | pristine + repairable | lost to a neighbour | "
          "written with altered text |")
    print("|---|---:|---:|---:|---:|---:|")
    for r in rows:
        print(f"| {r['framing']} | {r['records_in']:,} | {r['counted']:,} | {r['expected']:,} | {r['lost']} | "
              f"{r['altered']} |")
    return rows


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--records", type=int, default=10_000)
    ap.add_argument("--files", type=int, default=21, help="files, the framings taken in turn (7 framings)")
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
    files = write_fuzz_files(out / "input", pages, a.records, a.files, seed=a.seed, scale=a.scale,
                             record_rate=0.2, twin_dir=out / "twin")
    mutation = {k: m for f in files for k, m in f.mutated.items()}
    records = sum(f.records for f in files) + sum(1 for f in files if f.framing.startswith("arc"))
    print(f"{records} records in {len(files)} files ({', '.join(FRAMINGS)}; {len(mutation)} mutated), written "
          f"in {time.time() - t0:.0f} s", flush=True)
    checks = integrity_table(files, out)
    rows = []
    for cleaner in a.cleaners.split(","):
        dest = out / f"out-{cleaner}"
        t0 = time.time()
        proc = preprocess(out / "input", dest, "--cleaner", cleaner, "--drop-hinted", "--max-link-density", "0.5",
                          "--prune-model", a.model, "--max-perplexity", a.max_perplexity, "--workers", a.workers,
                          "--batch-size", "1", "--outcomes")
        wall = time.time() - t0
        r = json.loads((dest / "stats.json").read_text())
        rows.append({"cleaner": cleaner, "exit": proc.returncode, "records": r["records"], "written": r["written"],
                     "unaccounted": r["unaccounted"], "failed": r["failed"],
                     "skipped": r["skipped"], "units_failed": r["units"]["failed"],
                     "tracebacks": proc.stderr.count("Traceback"),
                     "worker_rss_mb": r["units"]["worker_peak_rss_mb"], "driver_rss_mb": r["driver"]["peak_rss_mb"],
                     "wall_s": round(wall), "slowest": [(s, w, mutation.get(w.split()[0], "-"))
                                                       for s, w in r["slowest"][:5]]})
        print(json.dumps(rows[-1]), flush=True)
    print("\n| cleaner | records | written | unaccounted | tracebacks | units failed | "
          "worker peak RSS | wall | failures by reason |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---|")
    for r in rows:
        print(f"| {r['cleaner']} | {r['records']:,} | {r['written']:,} | {r['unaccounted']} | "
              f"{r['tracebacks']} | {r['units_failed']} | {r['worker_rss_mb']:.0f} MB | {r['wall_s']} s | "
              f"{', '.join(f'{k} {v}' for k, v in sorted(r['failed'].items())) or '-'} |")
    print("\nslowest pages (seconds, id, mutation):")
    for r in rows:
        print(f"- {r['cleaner']}: " + "; ".join(f"{s:.1f} s {w.split()[0]} ({m})" for s, w, m in r["slowest"]))
    stages = [stage_rows(out / f"out-{r['cleaner']}", r["cleaner"], files) for r in rows]
    print("\n| cleaner | framing | written | indexed | ids outside the rule | ids in the run | run ids never written |")
    print("|---|---|---:|---:|---:|---:|---:|")
    for per in stages:
        for r in per:
            print(f"| {r['cleaner']} | {r['framing']} | {r['written']:,} | {r['indexed']:,} | {r['unsafe']} | "
                  f"{r['named']:,} | {r['foreign']} |")
    sound = all(c["records_in"] == c["counted"] and not c["lost"] and not c["altered"] for c in checks)
    stages_sound = all(r["written"] == r["indexed"] and not r["unsafe"] and not r["foreign"] for p in stages for r in p)
    return 0 if sound and stages_sound and all(r["unaccounted"] == 0 and r["records"] == records
                                               and not r["tracebacks"] for r in rows) else 1


TOPIC_WORDS = ("news", "home", "page", "information", "people", "world", "time", "service", "contact", "price",
               "search", "music", "free", "business", "city", "school", "health", "games", "water", "online")


def stage_rows(dest: Path, cleaner: str, files) -> list[dict]:
    """Index and search one preprocess output; per framing: written, indexed, unsafe ids, run ids."""
    import gzip

    idx, run, topics = dest.parent / f"{dest.name}-idx", dest.parent / f"{dest.name}-run.txt", dest.parent / "topics.txt"
    topics.write_text("".join(f"<top>\n<num> Number: {n}\n<title> {w}\n</top>\n" for n, w in enumerate(TOPIC_WORDS, 1)))
    for cmd in (["index", str(dest), "-i", str(idx)], ["search", "-i", str(idx), "-t", str(topics), "-o", str(run),
                                                          "--k", "1000"]):
        proc = subprocess.run([sys.executable, "-m", "webprune.cli", *cmd], capture_output=True, text=True, cwd=ROOT)
        if proc.returncode != 0:
            sys.exit(f"webprune {cmd[0]} on {dest} failed:\n{proc.stderr[-3000:]}")
    framing = {f.path.name: f.framing for f in files}
    manifest = json.loads((dest / "manifest.json").read_text())
    per_file = json.loads((idx / "webprune-index.json").read_text())["per_file"]
    ids_of: dict[str, set] = {}
    rows: dict[str, dict] = {}
    for s in manifest["shards"]:
        kind = framing[s["source"].rsplit("/", 1)[-1]]
        ids = {json.loads(line)["id"] for line in gzip.open(dest / "collection" / s["shard"])}
        ids_of.setdefault(kind, set()).update(ids)
        row = rows.setdefault(kind, {"cleaner": cleaner, "framing": kind, "written": 0, "indexed": 0, "unsafe": 0})
        row["written"] += s["documents"]
        row["indexed"] += per_file[s["shard"]]["documents"]
        row["unsafe"] += sum(1 for i in ids if i.split() != [i] or not i.isprintable())
    named = {line.split()[2] for line in run.read_text().splitlines()}
    written = set().union(*ids_of.values())
    for kind, row in rows.items():
        row["named"] = len(named & ids_of[kind])
        row["foreign"] = 0
    rows[next(iter(rows))]["foreign"] = len(named - written)  # (any framing: such an id names no document)
    return [rows[k] for k in dict.fromkeys(framing.values()) if k in rows]


if __name__ == "__main__":
    sys.exit(main())
