"""Run a whole experiment from a TOML config: preprocess -> index -> search -> eval per variant.

Config (paths are relative to the config file)::

    name = "cacm"
    [collection]  inputs = ["../../shared/data/retrieval/cacm/cacm.tar.gz"]   # prepare = "script.py" builds them
    [topics]      path = "...", field = "query"
    [qrels]       path = "..."
    [preprocess]  workers = 2, compress = true          # defaults for every variant
    [index]       threads = 2
    [search]      mu = 2000, k = 1000
    [eval]        metrics = ["P@5", "P@10", "AP", "nDCG@10"], baseline = "tags"
    [models.bigram] corpus = ["../../shared/data/lm/brown.txt"], order = 2, output = "../build/models/b.bin"
    [[variants]]  name = "tags", cleaner = "tags"        # + per-variant mu / k overrides
    [[variants]]  name = "pruned-8k", cleaner = "tags", model = "bigram", max_perplexity = 8000

Variants with the same cleaning options share one collection and one index.
Outputs go to OUTPUT/: ``collections/<key>/``, ``indexes/<key>/``, ``runs/<variant>.txt``,
``results.md``, ``results.json``. Finished stages are reused on a re-run unless ``fresh``.
"""
from __future__ import annotations

import hashlib
import json
import logging
import shutil
import tomllib
from pathlib import Path

from eval.metrics import DEFAULT_METRICS
from eval.report import evaluate, markdown_table, write_json
from index.build import STATS_FILE, build_index
from preprocess import options
from preprocess.options import CleanOptions, RunOptions
from preprocess.run import run_preprocess
from preprocess.units import code_id
from search.qld import run_search
from search.topics import read_topics

log = logging.getLogger("webprune.experiment")
SEARCH_KEYS = {"mu", "k"}


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


def _clean_options(cfg: dict, variant: dict) -> CleanOptions:
    known = dict(variant)
    if "model" in variant:  # a model named in [models.NAME], trained when missing
        known["prune_model"] = str(ensure_model(cfg, known.pop("model")))
    elif "prune_model" in known:
        known["prune_model"] = str(_path(cfg, known["prune_model"]))
    return options.from_mapping(known, f"[[variants]] {variant.get('name')!r}", ignore=frozenset(SEARCH_KEYS | {"name"}))


def ensure_model(cfg: dict, name: str) -> Path:
    """Train the model ``[models.NAME]`` of the config unless its output file exists."""
    spec = cfg.get("models", {}).get(name)
    if spec is None:
        raise ValueError(f"model {name!r} is not defined in the config's [models] section")
    out = _path(cfg, spec["output"])
    if not out.exists():
        from preprocess.lm.train import train

        log.info("training model %r -> %s", name, out)
        corpora = [str(_path(cfg, c)) for c in spec["corpus"]]
        train(corpora, out, order=spec.get("order", 2), prune=spec.get("prune"),
              discount_fallback=spec.get("discount_fallback", False))
    return out


def _key(opts: CleanOptions, inputs: list[str]) -> str:
    """Collection/index folder name: the cleaner plus a hash of everything that changes the output."""
    model = Path(opts.prune_model).stat() if opts.prune_model else None
    model_id = [model.st_size, model.st_mtime_ns] if model else None  # a retrained model is a new collection
    blob = json.dumps([opts.to_dict(), inputs, model_id, code_id()], sort_keys=True, default=str)
    return f"{opts.cleaner}-{hashlib.sha1(blob.encode()).hexdigest()[:8]}"


def _threshold(t: float) -> str:
    return f"{t:,.0f}" if abs(t) >= 100 else f"{t:.3f}"  # perplexities vs adjusted logits


def _kept(pre: dict) -> str:
    c = pre["counters"]
    return f"{100 * c.get('prune.sentences_kept', 0) / max(c.get('prune.sentences', 0), 1):.1f}"


def _size(n: int) -> str:
    for unit, scale in (("GB", 1e9), ("MB", 1e6), ("KB", 1e3)):
        if n >= scale:
            return f"{n / scale:.1f} {unit}"
    return f"{n} B"


def run_experiment(cfg: dict, output: str | Path | None = None, fresh: bool = False, progress: bool | None = None) -> dict:
    out = Path(output or Path("runs") / cfg["name"])
    if fresh and out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True, exist_ok=True)
    inputs = [str(_path(cfg, p)) for p in cfg["collection"]["inputs"]]
    prepare = cfg["collection"].get("prepare")  # a script that builds missing inputs
    if prepare and not all(Path(i).exists() for i in inputs):
        import subprocess
        import sys

        script = _path(cfg, prepare)
        log.info("building the collection's inputs with %s", script)
        subprocess.run([sys.executable, str(script)], check=True)
    topics = read_topics(_path(cfg, cfg["topics"]["path"]), cfg["topics"].get("field", "query"),
                         cfg["topics"].get("format"))
    qrels = _path(cfg, cfg["qrels"]["path"])
    pre, idx, srch, ev = (cfg.get(k, {}) for k in ("preprocess", "index", "search", "eval"))
    variants = cfg.get("variants") or [{"name": "tags", "cleaner": "tags"}]
    names = [v.get("name") for v in variants]
    if None in names or len(set(names)) != len(names):
        raise ValueError(f"every [[variants]] needs a unique name; got {names}")
    summary: dict = {"name": cfg["name"], "variants": {}}
    for v in variants:
        name = v["name"]
        opts = _clean_options(cfg, v)
        key = _key(opts, inputs)
        coll, index = out / "collections" / key, out / "indexes" / key
        row = summary["variants"][name] = {"cleaning": opts.to_dict(), "collection": str(coll), "index": str(index)}
        if (coll / "stats.json").exists() and (coll / "options.json").exists():
            row["preprocess"] = json.loads((coll / "stats.json").read_text())
        else:
            log.info("[%s] preprocess %s", name, ", ".join(inputs))
            shutil.rmtree(coll, ignore_errors=True)
            run = options.from_mapping(pre, "[preprocess]", RunOptions)
            row["preprocess"] = run_preprocess(inputs, str(coll), opts, run, progress=progress)
            (coll / "options.json").write_text(json.dumps(opts.to_dict(), indent=1, default=str) + "\n")
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
        "text": {n: _size(r["preprocess"]["counters"].get("bytes_out", 0)) for n, r in rows.items()},
        "index": {n: _size(r["index_stats"]["index_bytes"]) for n, r in rows.items()},
        "preprocess s": {n: f"{r['preprocess']['wall_s']:.1f}" for n, r in rows.items()},
        "index s": {n: f"{r['index_stats']['wall_s']:.1f}" for n, r in rows.items()},
        "search s": {n: f"{r['search']['wall_s']:.1f}" for n, r in rows.items()},
    }
    if any(r["cleaning"].get("prune_model") for r in rows.values()):
        extra["threshold"] = {n: _threshold(r['preprocess']['pruning']['threshold'])
                            for n, r in rows.items() if r["preprocess"].get("pruning")}
        extra["sentences kept %"] = {n: _kept(r["preprocess"]) for n, r in rows.items() if r["preprocess"].get("pruning")}
    table = markdown_table(result, extra)
    summary["evaluation"] = result
    summary["table"] = table
    (out / "results.md").write_text(f"# {cfg['name']}\n\n{table}\n")
    write_json(summary, out / "results.json")
    return summary
