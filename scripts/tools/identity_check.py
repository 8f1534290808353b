#!/usr/bin/env python
"""Byte-identity check for refactors: `webprune preprocess` under many configurations, one hash each.

Runs every cleaner, hints, links, Kitten on/off and pruning (a KenLM model, a contrastive model: fixed,
percentile, adjusted) in this process (--executor local) over the same inputs: ~100 real cleaning pages of
four sets, the Common Crawl sample WARC and WET, ClueWeb09's Japanese sample and the feeds fixtures. Each
configuration's hash covers its shard bytes, the outcome counts, the counters (timings left out), the
pruning report and the learned artefacts. The models are trained once into the work folder.

    scripts/tools/identity_check.py --save before.txt     # on the old code
    scripts/tools/identity_check.py --check before.txt    # after a change: exit 1 and the configurations that differ
"""
from __future__ import annotations

import argparse
import hashlib
import json
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
FEEDS = ROOT / "tests" / "fixtures" / "feeds"
DANA, NOTES = "http://dana.example.org", "http://notes.example.net"
FEED_RECORDS = {"dana-rss.xml": (f"{DANA}/feed/", "application/rss+xml; charset=UTF-8"),
                "notes-atom.xml": (f"{NOTES}/feeds/posts/default", "application/atom+xml"),
                "dana-planting-early-potatoes.html": (f"{DANA}/2008/03/planting-early-potatoes/", "text/html"),
                "dana-mulching-the-beds.html": (f"{DANA}/2008/04/mulching-the-beds/", "text/html"),
                "dana-saving-tomato-seed.html": ("https://www.dana.example.org/2008/05/saving-tomato-seed",
                                                 "text/html"),
                "dana-pruning-the-apple-tree.html": (f"{DANA}/2008/01/pruning-the-apple-tree/", "text/html"),
                "dana-about.html": (f"{DANA}/about/", "text/html"),
                "notes-fixing-dripping-tap.html": (f"{NOTES}/2009/05/fixing-dripping-tap.html", "text/html"),
                "notes-oiling-door-hinge.html": (f"{NOTES}/2009/04/oiling-door-hinge.html", "text/html")}


def build_inputs(work: Path) -> tuple[list[str], str, str]:
    """(inputs, KenLM model, contrastive model), made once under ``work``."""
    from io import BytesIO

    from warcio.statusandheaders import StatusAndHeaders
    from warcio.warcwriter import WARCWriter

    from webprune.benchdata import cleaning_pages, page_record, shared_data
    from webprune.warcpack import pack_pages

    work.mkdir(parents=True, exist_ok=True)
    pages = work / "cleaning.warc.gz"
    if not pages.exists():
        chosen = [p for s in ("cleaneval-dev", "cleanportaleval", "l3s-gn1", "dragnet") for p in cleaning_pages([s])[:25]]
        pack_pages([page_record(p) for p in chosen], pages)
    feeds = work / "feeds.warc.gz"
    if not feeds.exists():
        with open(feeds, "wb") as fh:
            writer = WARCWriter(fh, gzip=True)
            for name, (url, ctype) in FEED_RECORDS.items():
                body = (FEEDS / name).read_bytes()
                http = StatusAndHeaders("200 OK", [("Content-Type", ctype), ("Content-Length", str(len(body)))],
                                        protocol="HTTP/1.1")
                writer.write_record(writer.create_warc_record(url, "response", payload=BytesIO(body),
                                                              http_headers=http))
    cc = shared_data("warc", "commoncrawl")
    inputs = [str(pages), str(feeds), str(cc / "CC-MAIN-2020-34-sample.warc.gz"),
              str(cc / "whirlwind-whirlwind.warc.wet.gz"), str(shared_data("warc", "clueweb09", "clueweb09-ja-sample.warc.gz"))]
    kenlm = work / "brown-2gram.bin"
    if not kenlm.exists():
        from preprocess.lm.train import train

        train([str(shared_data("lm", "brown.txt"))], kenlm, order=2)
    contrastive = work / "contrastive"
    if not (contrastive / "contrastive.json").exists():
        from preprocess.driver.train_crawl import train_crawl
        from preprocess.train_crawl.options import CrawlOptions

        train_crawl([str(pages), inputs[2]], str(contrastive), CrawlOptions(order=2), executor="local")
    return inputs, str(kenlm), str(contrastive)


def configurations(kenlm: str, contrastive: str) -> dict[str, dict]:
    tags = {"cleaner": "tags"}  # (named: the default cleaner is the learned one)
    plain = {"prune_model": kenlm}
    contr = {"prune_model": contrastive}
    return {
        "tags": tags, "tags+links": tags | {"max_link_density": 0.5}, "tags+kitten": tags | {"kitten": True},
        "tags+hints": tags | {"drop_hinted": True}, "default": {},
        "density": {"cleaner": "density"}, "density+hints+links": {"cleaner": "density", "drop_hinted": True,
                                                                   "max_link_density": 0.3},
        "density+nokitten": {"cleaner": "density", "kitten": False},
        "blog": {"cleaner": "blog"}, "blog+hints": {"cleaner": "blog", "drop_hinted": True},
        "sitediff": {"cleaner": "sitediff"}, "sitediff+links": {"cleaner": "sitediff", "max_link_density": 0.5},
        "feeds": {"cleaner": "feeds"}, "feeds+hints": {"cleaner": "feeds", "drop_hinted": True},
        "learned": {"cleaner": "learned"}, "learned+hints": {"cleaner": "learned", "drop_hinted": True},
        "learned+links+kitten": {"cleaner": "learned", "max_link_density": 0.5, "kitten": True},
        "tags+prune(t=1000)": plain | tags | {"max_perplexity": 1000.0},
        "density+prune(x=800)": plain | {"cleaner": "density", "prune_threshold": 800.0},
        "density+prune(adjusted,p=25,n=40)": plain | {"cleaner": "density", "prune_score": "adjusted",
                                                      "prune_percentile": 25.0, "prune_sample_docs": 40},
        "density+links+prune(p=20)": plain | {"cleaner": "density", "max_link_density": 0.5,
                                              "prune_percentile": 20.0},
        "tags+prune(contrastive)": contr | tags,
        "density+prune(contrastive,x=1.5)": contr | {"cleaner": "density", "prune_threshold": 1.5},
        "density+prune(contrastive,p=30)": contr | {"cleaner": "density", "prune_percentile": 30.0,
                                                    "prune_sample_docs": 50},
        "learned+hints+prune(contrastive,adjusted)": contr | {"cleaner": "learned", "drop_hinted": True,
                                                              "prune_score": "adjusted"},
        "density+limits": {"cleaner": "density", "max_bytes": 20000, "max_nodes": 3000, "max_depth": 40},
    }


def untimed(value):
    """``value`` without its timings (keys ``seconds`` or ending in ``_s``)."""
    if isinstance(value, dict):
        return {k: untimed(v) for k, v in value.items() if k != "seconds" and not k.endswith("_s")}
    return [untimed(v) for v in value] if isinstance(value, list) else value


def summary(out: Path) -> dict:
    stats = json.loads((out / "stats.json").read_text())
    counters = {k: v for k, v in stats["counters"].items()  # (learned.raw_*: which way a page was read)
                if not k.endswith("_s") and not k.startswith("learned.raw_")}
    learned = {}
    for f in sorted((out / "learned").glob("*.json")) if (out / "learned").is_dir() else ():
        learned[f.name] = json.loads(f.read_text()).get("artefact")
    pruning = untimed(stats.get("pruning") or {})
    return {"records": stats["records"], "written": stats["written"], "skipped": stats["skipped"],
            "failed": stats["failed"], "counters": counters, "pruning": pruning, "learned": learned}


def run_one(name: str, kw: dict, inputs: list[str], work: Path, compress: bool) -> str:
    from preprocess.config.options import CleanOptions
    from preprocess.driver.preprocess import run_preprocess
    from preprocess.config.options import RunOptions

    out = work / "out" / name.replace("/", "_")
    shutil.rmtree(out, ignore_errors=True)
    run_preprocess(inputs, str(out), CleanOptions(**kw), RunOptions(executor="local", compress=compress),
                   progress=False)
    h = hashlib.sha256()
    for shard in sorted((out / "collection").iterdir()):
        h.update(shard.name.encode() + b"\0" + shard.read_bytes())
    h.update(json.dumps(summary(out), sort_keys=True, default=str).encode())
    shutil.rmtree(out, ignore_errors=True)
    return h.hexdigest()[:16]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--work", type=Path, default=Path(tempfile.gettempdir()) / "webprune-identity",
                    help="inputs, models and outputs (kept between runs: the models train once)")
    ap.add_argument("--only", default=None, help="comma list of configuration names")
    g = ap.add_mutually_exclusive_group()
    g.add_argument("--save", type=Path, help="write NAME HASH lines here")
    g.add_argument("--check", type=Path, help="compare with a file written by --save")
    a = ap.parse_args()
    import logging

    logging.basicConfig(level=logging.ERROR)
    inputs, kenlm, contrastive = build_inputs(a.work)
    configs = configurations(kenlm, contrastive)
    names = a.only.split(",") if a.only else list(configs)
    got = {}
    for name in names:
        got[name] = run_one(name, configs[name], inputs, a.work, compress=False)
        print(name, got[name], flush=True)
    got["density(gz)"] = run_one("density(gz)", configs["density"], inputs, a.work, compress=True)
    print("density(gz)", got["density(gz)"])
    if a.save:
        a.save.write_text("".join(f"{k} {v}\n" for k, v in got.items()))
    if a.check:
        want = dict(line.split() for line in a.check.read_text().splitlines() if line.strip())
        bad = [k for k in got if k in want and want[k] != got[k]]
        print(f"{len(got) - len(bad)} of {len(got)} configurations identical" + (f"; DIFFER: {bad}" if bad else ""))
        return 1 if bad else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
