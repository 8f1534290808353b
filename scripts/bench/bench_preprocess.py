#!/usr/bin/env python
"""Preprocess throughput, side by side with pyplexity's tag remover, and the cluster-scale figures, in one run.

Input: the 2,871 real pages of ../shared/data/cleaning/*/input, repeated with new ids and packed into
WARC files under build/bench (webprune.benchdata.pack_cleaning_pages). Every webprune row runs the CLI,
``webprune preprocess ... --workers N``, in a fresh process; wall time includes start-up.

Parts (all by default; ``--parts`` picks some):
  parsers   parse only, one core: lxml vs lexbor (why webprune parses with resiliparse)
  speed     17,226 records in 4 files, 1 worker: tags, each DOM cleaner with hints and links, the full
            pipeline with pruning; pyplexity's tag remover on the same pages in the same run, before every
            webprune row and after the last (each row's ratio is to the two around it: the machine drifts), and
            its whole pipeline (tag remover + bulk-perplexity's processor, with a stand-in bigram model built
            from ../shared/data/lm by scripts/peers/pyplexity_model.py: its own models are downloads) x1
  scaling   20,097 records in 8 files, tags: 1 vs 2 workers (the cleaning pass, start-up apart)
  driver    driver CPU seconds per 1,000 records: this checkout vs an older one (--old-checkout), 2 workers
  memory    worker peak RSS on one file of 1x and 4x the records (a unit streams its file)
  grouped   sitediff and feeds with 1 and 2 workers: same output?, learning pass vs cleaning pass, and
            the bytes the learning pass keeps against the input bytes
Prints Markdown tables; the README's preprocess tables are copied from them.
"""
from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from eval.report import fmt
from webprune.benchdata import ROOT, cleaning_pages, pack_cleaning_pages

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # scripts/: its peers
from peers.pyplexity_runs import pyplexity, pyplexity_model  # noqa: E402

PY = sys.executable
HL = ["--drop-hinted", "--max-link-density", "0.5"]
TAGS = ["--cleaner", "tags"]  # named: the default cleaner is the learned one
CLUEWEB12_B13 = 52_200_000


def run_cli(inputs: list[Path], args: list[str], workers: int, hash_output: bool = False, env: dict | None = None) -> dict:
    """``webprune preprocess`` in a fresh process; its stats plus the wall time around the process (and, with
    ``hash_output``, ``content_sha`` of its shards)."""
    out = Path(tempfile.mkdtemp(prefix="bench-pre-"))
    cmd = [PY, "-m", "webprune.cli", "preprocess", *map(str, inputs), "-o", str(out / "o"), "--workers", str(workers),
           *args]
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, env=os.environ | {"PYTHONPATH": str(ROOT)} | (env or {}))
    wall = time.perf_counter() - t0
    if proc.returncode not in (0, 1):
        sys.exit(f"{' '.join(cmd)} failed:\n{proc.stderr[-3000:]}")
    stats = json.loads((out / "o" / "stats.json").read_text())
    stats["process_wall_s"] = wall
    if hash_output:
        stats["content_sha"] = content_hash(out / "o" / "collection")
    stats["learned_bytes"] = sum(f.stat().st_size for f in (out / "o" / "learned").rglob("*") if f.is_file()) \
        if (out / "o" / "learned").exists() else 0
    assert stats["unaccounted"] == 0, stats
    shutil.rmtree(out)
    return stats


def content_hash(folder: Path) -> str:
    """Hash of the JSON values of every shard (independent of JSON spacing and gzip settings)."""
    h = hashlib.sha256()
    for f in sorted(folder.iterdir()):
        data = gzip.open(f).read() if f.name.endswith(".gz") else f.read_bytes()
        for line in data.splitlines():
            h.update(json.dumps(json.loads(line), sort_keys=True).encode())
    return h.hexdigest()[:12]


def table(head: list[str], rows: list[list]) -> None:
    print(fmt.table(head, [[fmt.secs(x) if isinstance(x, float) else str(x) for x in r] for r in rows]) + "\n",
          flush=True)


def part_parsers() -> None:
    import lxml.html
    from resiliparse.parse.html import HTMLTree

    from preprocess.steps.decode import decode_payload

    texts = [decode_payload(p.read_bytes())[0] for p in cleaning_pages()]

    def rate(fn) -> float:
        t0 = time.process_time()
        for t in texts:
            try:
                fn(t)
            except Exception:  # lxml refuses some pages (empty after its clean-up)
                pass
        return len(texts) / (time.process_time() - t0)

    table(["parse only, CPU, 1 core, 2,871 pages", "docs/s"],
          [["lxml", rate(lxml.html.document_fromstring)], ["lexbor (resiliparse)", rate(HTMLTree.parse)]])


TREE = {"WEBPRUNE_TREE_TAGS": "1"}  # tag removal through lexbor's tree, as before the streaming scan


def part_speed(bench: Path, model: str | None, rec_model: str | None, only: list[str] | None = None) -> dict:
    files = pack_cleaning_pages(bench, files=4, copies=6, prefix="speed")
    marks = [pyplexity(1)]  # the tag remover on the 2,871 pages before every webprune row and after the last
    lm = pyplexity_model()
    full = pyplexity(1, lm) if lm else None  # ~12 ms a page: the pages once
    configs = [("tags", TAGS, None), ("tags, lexbor tree path (WEBPRUNE_TREE_TAGS=1)", TAGS, TREE),
               ("tags " + " ".join(HL), [*TAGS, *HL], None)]
    configs += [(f"{c} " + " ".join(HL), ["--cleaner", c, *HL], None) for c in ("density", "blog", "sitediff", "feeds")]
    if model:
        configs.append(("full: density " + " ".join(HL) + " --prune-model M --max-perplexity 8000",
                        ["--cleaner", "density", *HL, "--prune-model", model, "--max-perplexity", "8000"], None))
    if rec_model:
        configs.append(("recommended: learned " + " ".join(HL) + " --prune-model C (contrastive, lm train-crawl)",
                        ["--cleaner", "learned", *HL, "--prune-model", rec_model], None))
    if only:
        configs = [c for c in configs if any(o in c[0] for o in only)]
    measured = []
    for label, args, env in configs:
        s = run_cli(files, args, workers=1, env=env)
        # the machine's speed drifts over a run (pyplexity's own figure moved by a third within one), so each row
        # is compared with the tag remover just before and just after it
        marks.append(pyplexity(1) if marks[0] else None)
        measured.append((label, s["written"] / s["process_wall_s"], 1000 * worker_cpu_s(s) / s["records"], s,
                         merged(marks[-2:])))
    peer = merged(marks) if marks[0] else None
    bracket = ""
    if peer:
        bracket = (f"; before each webprune row and after the last, CPU ms: "
                   f"{' '.join(f'{peer_ms(m):.2f}' for m in marks)}")
    rows, rates = [], {}
    peer_cpu = peer_ms(peer) if peer else None
    full_cpu = peer_ms(full) if full else None

    def ratio(ref, cpu):
        return f"{ref / cpu:.2f}" if ref else ""

    def errors(result):
        return f" ({result['errors']} pages raised)" if result["errors"] else ""

    if peer:
        rows.append([f"pyplexity {peer.get('version', '')} tag remover, in-process, pages in memory{bracket}"
                     f"{errors(peer)}", f"{peer['docs']:,}", peer["docs_per_s"], "1.00", peer_cpu, "1.00",
                     ratio(full_cpu, peer_cpu)])
    if full:
        rows.append([f"pyplexity {full.get('version', '')} tag remover + bulk-perplexity's processor (stand-in "
                     f"bigram model, pyplexity_model.py){errors(full)}", f"{full['docs']:,}", full["docs_per_s"],
                     f"{full['docs_per_s'] / peer['docs_per_s']:.2f}", full_cpu, ratio(peer_cpu, full_cpu), "1.00"])
    for label, rate, cpu, s, around in measured:
        rates[label] = 1000 / cpu
        rows.append([f"webprune `{label}`", f"{s['records']:,}", rate,
                     f"{rate / around['docs_per_s']:.2f}" if around else "", cpu,
                     ratio(peer_ms(around) if around else None, cpu), ratio(full_cpu, cpu)])
    print(f"### speed: {len(files)} files, 1 worker; docs/s = wall time including start-up; CPU = the cleaning "
          "pass's CPU per record on the worker (read to shard) plus the driver's; x pyplexity: against its tag remover's "
          "runs just before and just after the row; the last column against pyplexity's whole pipeline (tag remover, "
          "then perplexity)")
    print(f"machine: {machine()}")  # (the ratios move with the CPU: pyplexity's pure Python and webprune's compiled code differ)
    table(["run", "records", "docs/s (wall)", "x pyplexity (wall)", "CPU ms/record", "x pyplexity (CPU)",
           "x pyplexity+perplexity (CPU)"], rows)
    return rates


def merged(results: list) -> dict | None:
    """pyplexity results of the same pages as one: their pages, seconds and errors summed."""
    if not results or any(r is None for r in results):
        return None
    out = {**results[0]}
    for key in ("docs", "seconds", "cpu_seconds", "errors"):
        out[key] = sum(r[key] for r in results)
    out["docs_per_s"] = round(out["docs"] / out["seconds"], 2)
    return out


def peer_ms(result: dict) -> float:
    """A pyplexity result's CPU milliseconds a page."""
    return 1000 * result["cpu_seconds"] / result["docs"]


def worker_cpu_s(stats: dict) -> float:
    """CPU seconds of the cleaning pass (every step's, reading and writing included) and of the driver.
    The learning passes of sitediff/feeds are not in it (their wall time is in the grouped part)."""
    return sum(v["cpu_s"] for k, v in stats["times"].items() if not k.startswith("learn."))


def part_scaling(bench: Path, repeat: int) -> dict:
    files = pack_cleaning_pages(bench, files=8, copies=7, prefix="scale")
    runs: dict[int, list[dict]] = {1: [], 2: []}
    for _ in range(repeat):  # 1 and 2 workers alternate, so a change in the machine's load hits both
        for w in (1, 2):
            runs[w].append(run_cli(files, TAGS, workers=w, hash_output=True))
    med = {w: sorted(rs, key=lambda s: s["records_per_s"])[len(rs) // 2] for w, rs in runs.items()}
    ratios = sorted(b["records_per_s"] / a["records_per_s"] for a, b in zip(runs[1], runs[2]))
    rows = [[f"tags, {w} worker(s)", f"{s['records']:,}", s["records_per_s"],
             " / ".join(f"{r['records_per_s']:.0f}" for r in runs[w]), s["process_wall_s"], s["startup_s"],
             s["driver"]["cpu_s_per_1000_records"], s["units"]["worker_peak_rss_mb"]] for w, s in med.items()]
    same = len({s["content_sha"] for rs in runs.values() for s in rs}) == 1
    print(f"### scaling: {len(files)} files; speed-up 1 -> 2 workers {med[2]['records_per_s'] / med[1]['records_per_s']:.2f}x "
          f"(medians of {repeat}; pairwise {' / '.join(f'{r:.2f}' for r in ratios)}); same output in every run: {same}")
    table(["run", "records", "records/s (cleaning pass, median)", "each run", "process wall s", "start-up s",
           "driver CPU s / 1000 rec", "worker peak RSS MB"], rows)
    return med


def old_driver_cpu(old: Path, files: list[Path], workers: int) -> tuple[float, int]:
    """Driver-process CPU of an older checkout's run_preprocess (it read, shipped and wrote every record)."""
    code = ("import json,sys,time,tempfile; from preprocess.driver.preprocess import run_preprocess; "
            "from preprocess.run.pipeline import CleanOptions; c=time.process_time(); "
            f"r=run_preprocess({[str(f) for f in files]!r}, tempfile.mkdtemp(), CleanOptions(cleaner='tags'), workers={workers}, compress=True, "
            "progress=False); print(json.dumps({'cpu': time.process_time()-c, 'records': r['records']}))")
    proc = subprocess.run([PY, "-c", code], cwd=old, capture_output=True, text=True,
                          env=os.environ | {"PYTHONPATH": str(old)})
    if proc.returncode != 0:
        sys.exit(f"old checkout failed: {proc.stderr[-2000:]}")
    r = json.loads(proc.stdout.strip().splitlines()[-1])
    return r["cpu"], r["records"]


def part_driver(bench: Path, old: Path | None, new2: dict | None) -> None:
    files = pack_cleaning_pages(bench, files=8, copies=7, prefix="scale")
    new = new2 or run_cli(files, TAGS, workers=2)
    rows = [["this checkout (units read and write on the workers)", f"{new['records']:,}",
             new["driver"]["cpu_s"], new["driver"]["cpu_s_per_1000_records"], new["driver"]["peak_rss_mb"]]]
    if old:
        cpu, n = old_driver_cpu(old, files, 2)
        rows.insert(0, [f"{old.name} (the driver reads, ships and writes every record)", f"{n:,}", cpu,
                        1000 * cpu / n, ""])
    print("### driver: tags, 2 workers, driver process only")
    table(["code", "records", "driver CPU s", "driver CPU s / 1000 records", "driver peak RSS MB"], rows)


def part_memory(bench: Path) -> None:
    one = pack_cleaning_pages(bench, files=1, copies=1, prefix="mem1")
    four = pack_cleaning_pages(bench, files=1, copies=4, prefix="mem4")
    rows = []
    for label, args in (("tags", TAGS), ("density " + " ".join(HL), ["--cleaner", "density", *HL])):
        for name, files in (("1x", one), ("4x", four)):
            s = run_cli(files, args, workers=1)
            rows.append([label, f"{name} ({s['records']:,} records, {files[0].stat().st_size / 1e6:.0f} MB gz)",
                         s["units"]["worker_peak_rss_mb"], s["driver"]["peak_rss_mb"]])
    print("### memory: one input file, 1 worker")
    table(["cleaner", "input file", "worker peak RSS MB", "driver peak RSS MB"], rows)


def part_grouped(bench: Path) -> None:
    files = pack_cleaning_pages(bench, files=4, copies=1, prefix="grouped")
    size = sum(f.stat().st_size for f in files)
    rows = []
    for cleaner in ("sitediff", "feeds"):
        runs = {w: run_cli(files, ["--cleaner", cleaner, *HL], workers=w, hash_output=True) for w in (1, 2)}
        for w, s in runs.items():
            learn = sum(v.get("seconds", 0) for v in (s.get("learned") or {}).values() if isinstance(v, dict))
            rows.append([cleaner, w, s["process_wall_s"], learn, f"{s['learned_bytes']:,}",
                         f"{100 * s['learned_bytes'] / size:.2f}%",
                         "yes" if s["content_sha"] == runs[1]["content_sha"] else "NO"])
    print(f"### grouped: {len(files)} files, {size / 1e6:.0f} MB gz; learned state vs input")
    table(["cleaner", "workers", "process wall s", "learning pass wall s", "learned bytes", "of input",
           "same output as 1 worker"], rows)


def machine() -> str:
    """The CPU model, its cores and last-level cache (Linux's sysfs), as the speed part's header names them."""
    from eval.energy import cpu_model

    l3 = Path("/sys/devices/system/cpu/cpu0/cache/index3/size")
    cache = f", L3 {l3.read_text().strip()}" if l3.exists() else ""
    return f"{cpu_model()}, {os.cpu_count()} cores{cache}"


def extrapolate(rates: dict) -> None:
    rows = [[label, rate, CLUEWEB12_B13 / (300 * rate) / 60] for label, rate in rates.items()]
    print("### ClueWeb12-B13 (52.2M pages) on 300 cores at these per-core CPU rates (pages as large as these); "
          "the paper: 45 + 45 min")
    table(["run", "docs/s/core", "minutes on 300 cores"], rows)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--parts", nargs="+", default=["parsers", "speed", "scaling", "driver", "memory", "grouped"])
    ap.add_argument("--prune-model", default=str(ROOT / "build" / "models" / "general-2gram.bin"))
    ap.add_argument("--rec-model", default=str(ROOT / "build" / "models" / "crawl"),
                    help="contrastive model (webprune lm train-crawl) of the recommended pipeline's row")
    ap.add_argument("--speed-rows", nargs="+", default=None,
                    help="only the speed rows whose label contains one of these strings (pyplexity's row stays)")
    ap.add_argument("--old-checkout", type=Path, default=None,
                    help="a checkout of older code (e.g. `git worktree add ../wt-base a60cfac`) for the driver row")
    ap.add_argument("--bench-dir", type=Path, default=ROOT / "build" / "bench")
    ap.add_argument("--repeat", type=int, default=3, help="scaling runs per worker count (medians)")
    a = ap.parse_args()
    model = a.prune_model if Path(a.prune_model).exists() else None
    if model is None:
        print(f"{a.prune_model}: no model; the pruning row is skipped (webprune lm train)", file=sys.stderr)
    a.bench_dir.mkdir(parents=True, exist_ok=True)
    if "parsers" in a.parts:
        part_parsers()
    if "speed" in a.parts:
        extrapolate(part_speed(a.bench_dir, model, a.rec_model if Path(a.rec_model).exists() else None,
                               a.speed_rows))
    runs = part_scaling(a.bench_dir, a.repeat) if "scaling" in a.parts else {}
    if "driver" in a.parts:
        part_driver(a.bench_dir, a.old_checkout, runs.get(2))
    if "memory" in a.parts:
        part_memory(a.bench_dir)
    if "grouped" in a.parts:
        part_grouped(a.bench_dir)


if __name__ == "__main__":
    main()
