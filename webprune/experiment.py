"""Run a whole experiment from a TOML config: preprocess -> index -> search -> eval per variant.

Config (paths are relative to the config file)::

    name = "cacm"
    [collection]  inputs = ["../../shared/data/retrieval/cacm/cacm.tar.gz"]
    [topics]      path = "...", field = "query"
    [qrels]       path = "..."
    [preprocess]  workers = 2, compress = true          # defaults for every variant
    [index]       threads = 2
    [search]      mu = 2000, k = 1000
    [eval]        metrics = ["P@5", "P@10", "AP", "nDCG@10"], baseline = "tags"
    [[variants]]  name = "tags", cleaner = "tags"        # + per-variant mu / k overrides

Variants with the same cleaning options share one collection and one index.
Outputs go to OUTPUT/: ``collections/<key>/``, ``indexes/<key>/``, ``runs/<variant>.txt``,
``results.md``, ``results.json``. Finished stages are reused on a re-run unless ``fresh``.
"""
from __future__ import annotations

import hashlib
import json
import logging
import shutil
import time
import tomllib
from pathlib import Path

from eval.metrics import DEFAULT_METRICS
from eval.report import evaluate, markdown_table, write_json
from index.build import STATS_FILE, build_index
from preprocess.pipeline import CleanOptions
from preprocess.run import run_preprocess
from search.qld import run_search
from search.topics import read_topics

log = logging.getLogger("webprune.experiment")
SEARCH_KEYS = {"mu", "k"}
CLEAN_KEYS = {"cleaner", "max_bytes"}


def load_config(path: str | Path) -> dict:
    path = Path(path)
    with open(path, "rb") as f:
        cfg = tomllib.load(f)
    cfg["_base"] = str(path.parent.resolve())
    cfg.setdefault("name", path.stem)
    return cfg


def _path(cfg: dict, p: str) -> Path:
    p = Path(p)
    return p if p.is_absolute() else (Path(cfg["_base"]) / p).resolve()


def _clean_options(variant: dict) -> CleanOptions:
    unknown = set(variant) - CLEAN_KEYS - SEARCH_KEYS - {"name"}
    known = {k: v for k, v in variant.items() if k in CLEAN_KEYS}
    return CleanOptions(**known, extra={k: variant[k] for k in sorted(unknown)})


def _key(opts: CleanOptions, inputs: list[str]) -> str:
    """Collection/index folder name: the cleaner plus a hash of everything that changes the output."""
    blob = json.dumps([opts.__dict__, inputs], sort_keys=True, default=str)
    return f"{opts.cleaner}-{hashlib.sha1(blob.encode()).hexdigest()[:8]}"


def _mb(n: int) -> str:
    return f"{n / 1e6:.2f}"


def run_experiment(cfg: dict, output: str | Path | None = None, fresh: bool = False, progress: bool | None = None) -> dict:
    out = Path(output or Path("runs") / cfg["name"])
    if fresh and out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True, exist_ok=True)
    inputs = [str(_path(cfg, p)) for p in cfg["collection"]["inputs"]]
    topics = read_topics(_path(cfg, cfg["topics"]["path"]), cfg["topics"].get("field", "query"),
                         cfg["topics"].get("format"))
    qrels = _path(cfg, cfg["qrels"]["path"])
    pre, idx, srch, ev = (cfg.get(k, {}) for k in ("preprocess", "index", "search", "eval"))
    variants = cfg.get("variants") or [{"name": "tags", "cleaner": "tags"}]
    summary: dict = {"name": cfg["name"], "variants": {}}
    for v in variants:
        name = v["name"]
        opts = _clean_options(v)
        key = _key(opts, inputs)
        coll, index = out / "collections" / key, out / "indexes" / key
        row = summary["variants"][name] = {"cleaning": opts.__dict__, "collection": str(coll), "index": str(index)}
        if (coll / "stats.json").exists() and (coll / "options.json").exists():
            row["preprocess"] = json.loads((coll / "stats.json").read_text())
        else:
            log.info("[%s] preprocess %s", name, ", ".join(inputs))
            shutil.rmtree(coll, ignore_errors=True)
            row["preprocess"] = run_preprocess(inputs, coll, opts, workers=pre.get("workers"),
                                               address=pre.get("address"), compress=pre.get("compress", True),
                                               executor=pre.get("executor", "ray"), progress=progress)
            (coll / "options.json").write_text(json.dumps(opts.__dict__, indent=1, default=str) + "\n")
        if (index / STATS_FILE).exists():
            row["index_stats"] = json.loads((index / STATS_FILE).read_text())
        else:
            log.info("[%s] index -> %s", name, index)
            shutil.rmtree(index, ignore_errors=True)
            row["index_stats"] = build_index(coll, index, threads=idx.get("threads", 2))
        mu, k = v.get("mu", srch.get("mu", 2000)), v.get("k", srch.get("k", 1000))
        log.info("[%s] search mu=%s k=%s", name, mu, k)
        row["search"] = run_search(index, topics, out / "runs" / f"{name}.txt", mu=mu, k=k,
                                   threads=srch.get("threads", 2), tag=name)
    metrics = ev.get("metrics", list(DEFAULT_METRICS))
    baseline = ev.get("baseline", variants[0]["name"])
    result = evaluate(qrels, {n: out / "runs" / f"{n}.txt" for n in summary["variants"]}, baseline=baseline,
                      metrics=metrics, alpha=ev.get("alpha", 0.05))
    rows = summary["variants"]
    extra = {
        "docs": {n: str(r["preprocess"]["written"]) for n, r in rows.items()},
        "collection MB": {n: _mb(r["index_stats"]["collection_bytes"]) for n, r in rows.items()},
        "index MB": {n: _mb(r["index_stats"]["index_bytes"]) for n, r in rows.items()},
        "preprocess s": {n: f"{r['preprocess']['wall_s']:.1f}" for n, r in rows.items()},
        "index s": {n: f"{r['index_stats']['wall_s']:.1f}" for n, r in rows.items()},
        "search s": {n: f"{r['search']['wall_s']:.1f}" for n, r in rows.items()},
    }
    table = markdown_table(result, extra)
    summary["evaluation"] = result
    summary["table"] = table
    (out / "results.md").write_text(f"# {cfg['name']}\n\n{table}\n")
    write_json(summary, out / "results.json")
    return summary
