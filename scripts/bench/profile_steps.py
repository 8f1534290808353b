#!/usr/bin/env python
"""CPU milliseconds per page for every step of webprune's pipeline, and pyplexity's tag remover on the same pages.

Input: the 2,871 real pages of ../shared/data/cleaning/*/input, packed into one gzipped WARC
(scripts/tools/pack_cleaning_warc.py). Two configurations, built only through the public API
(``CleanOptions``, ``Pipeline(opts).steps``, each step's ``.name`` and ``.run(docs)``):

  tags   webprune preprocess --cleaner tags
  full   --cleaner density --drop-hinted --max-link-density 0.5 --prune-model M --max-perplexity 8000
  rec    the recommended pipeline, ``--rec-flags`` (default: --cleaner learned --drop-hinted --max-link-density 0.5
         --prune-model build/models/crawl, a contrastive model from `webprune lm train-crawl`)

Per configuration and repeat, single process, no Ray, batches of 64 as the executor sends them:
read the WARC with the product's reader, run each step over the batch, build the JSON dicts
(``Document.to_json``), write one shard as a unit does (``preprocess.folder.output``). Every row is CPU time
(``time.process_time``) divided by the number of pages read (2,871), so the rows of a column add
up to the end-to-end cost; the median of ``--repeat`` runs is shown with the spread (max - min).
pyplexity's tag remover runs in its own virtualenv (.venv-pyplexity, scripts/setup_pyplexity.sh)
on the same page files in the same run, interleaved with the repeats, timed the same way
(per document exactly what `pyplexity tag-remover` does, see scripts/peers/pyplexity_tags.py).

Indented rows split one step by re-running its parts on the inputs the step saw (one extra,
untimed pass keeps them); they are measured separately, so they need not add up exactly to the
step. They reach into the step modules' current functions and print "n/a" if those moved.
Also printed: the floor (lexbor parse alone, extract_plain_text alone) and FastWARC's reading
time for the same WARC (not product code).

  --cprofile STEP   also profile one step (a step name such as hints, density, tags, prune,
                    or read / to_json / write) in one extra pass and print its top functions.
  --configs tags    one configuration only; --no-peer skips pyplexity.

Usage: .venv/bin/python scripts/bench/profile_steps.py [--model build/models/general-2gram.bin] [--repeat 3]
       (run it with `nice -n 10` on a shared machine; ~4 minutes for 3 repeats)
"""
from __future__ import annotations

import argparse
import cProfile
import io
import json
import logging
import pstats
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from preprocess.config.options import CleanOptions
from preprocess.folder.output import OutputDir
from preprocess.run.pipeline import Pipeline
from preprocess.readers import read_source
from preprocess.readers.sources import discover
from preprocess.core.stats import Stats
from preprocess.folder.shard import json_dumps
from webprune.benchdata import ROOT, cleaning_pages, pack_cleaning_pages

PYPLEXITY = ROOT / ".venv-pyplexity" / "bin" / "python"
clock = time.process_time

# pyplexity's tag remover, per document exactly as scripts/peers/pyplexity_tags.py (CPU and wall time).
_PEER = r"""
import contextlib, json, sys, time
from pyplexity.tag_remover import HTMLTagRemover
paths = [l.strip() for l in open(sys.argv[1], encoding="utf-8") if l.strip()]
pages = [open(p, "rb").read() for p in paths]
remover = HTMLTagRemover()
errors = 0
with contextlib.redirect_stdout(sys.stderr):
    c0, w0 = time.process_time(), time.perf_counter()
    for raw in pages:
        try:
            remover.process(raw.decode(errors="ignore").encode("utf-8", errors="ignore"))
        except Exception:
            errors += 1
    cpu, wall = time.process_time() - c0, time.perf_counter() - w0
print(json.dumps({"docs": len(pages), "cpu_s": cpu, "wall_s": wall, "errors": errors}))
"""


REC_FLAGS = f"--cleaner learned --drop-hinted --max-link-density 0.5 --prune-model {ROOT / 'build' / 'models' / 'crawl'}"


def options_of(flags: str) -> CleanOptions:
    """CleanOptions from ``webprune preprocess`` flags (the CLI's own parser)."""
    from preprocess.config import options

    ap = argparse.ArgumentParser(prog="--rec-flags")
    options.add_arguments(ap)
    return options.from_args(ap.parse_args(flags.split()))


def configs(model: str | None, rec_flags: str | None = None) -> dict[str, CleanOptions]:
    out = {"tags": CleanOptions(cleaner="tags")}
    if model:
        out["full"] = CleanOptions(cleaner="density", drop_hinted=True, max_link_density=0.5, prune_model=model,
                                   max_perplexity=8000)
    if rec_flags:
        out["rec"] = options_of(rec_flags)
    return out


def read_all(warc: Path) -> list:
    stats = Stats()
    docs = []
    for src in discover([warc]):
        docs.extend(read_source(src, stats))
    return docs


def records(warc: Path, stats: Stats):
    for src in discover([warc]):
        yield from read_source(src, stats)


def take(it, n: int) -> list:
    out = []
    for doc in it:
        out.append(doc)
        if len(out) >= n:
            break
    return out


class Run:
    """One pass of one configuration: CPU seconds per stage, in pipeline order."""

    def __init__(self):
        self.cpu: dict[str, float] = {}
        self.order: list[str] = []
        self.counts: dict[str, int] = {}
        self.pair_load_s = 0.0  # a contrastive pair's load, before the timers

    def add(self, key: str, seconds: float) -> None:
        if key not in self.cpu:
            self.cpu[key] = 0.0
            self.order.append(key)
        self.cpu[key] += seconds


def one_pass(warc: Path, opts: CleanOptions, batch_size: int, out_dir: Path, keep: bool = False,
             profile_step: str | None = None, profiler: cProfile.Profile | None = None):
    """Read -> steps -> to_json -> shard, batch by batch as ``webprune preprocess`` does (the reader streams,
    each batch's trees are freed before the next one is read). Returns (Run, kept) where, with ``keep``,
    kept[step] lists (doc, doc.text before the step) for the probes (and nothing is freed)."""
    pipe = Pipeline(opts)  # model loading is start-up, not per page: outside the timers
    run = Run()
    t0 = clock()
    for step in pipe.steps:  # (a contrastive model loads its main pair on the first page: loaded here instead)
        scorer = getattr(step, "scorer", None)
        if hasattr(scorer, "pair"):
            scorer.pair(scorer.main)
    run.pair_load_s = clock() - t0

    def timed(key, fn, *args):
        prof = profiler if key == profile_step else None
        if prof:
            prof.enable()
        t0 = clock()
        out = fn(*args)
        run.add(key, clock() - t0)
        if prof:
            prof.disable()
        return out

    stats = Stats()
    reader = records(warc, stats)
    out = OutputDir(str(out_dir))
    out.mkdirs("collection")
    shard = timed("write", out.open_shard, "00000-profile.jsonl.gz", True)
    kept: dict[str, list] = {}
    pages = written = 0
    while True:
        batch = timed("read", take, reader, batch_size)
        if not batch:
            break
        pages += len(batch)
        for step in pipe.steps:
            step.stats = stats
            if keep:  # (tag removal's probe re-extracts trees: not those whose lines the learned cleaner handed it)
                kept.setdefault(step.name, []).extend((d, d.text) for d in batch
                                                      if step.name != "tags" or d.handed is None)
            batch = timed(step.name, lambda s, b: list(s.run(b)), step, batch)
        dicts = timed("to_json", lambda b: [d.to_json() for d in b], batch)
        timed("write", lambda ds: shard.write([json_dumps(d) for d in ds]), dicts)
        written += len(dicts)
        if keep:
            kept.setdefault("out", []).extend(dicts)
        else:
            timed("free", batch.clear)  # the batch's documents and trees go (Ray drops them after the batch)
        batch = dicts = None
    timed("write", shard.commit)
    run.counts.update(pages=pages, written=written)
    run.stats = stats
    return run, kept


def t_each(fn, items) -> float:
    t0 = clock()
    for x in items:
        fn(x)
    return clock() - t0


# ---------------------------------------------------------------- probes (re-run parts of a step)
# Probes keep none of the large outputs they make: holding thousands of decoded pages or texts makes
# every allocation touch fresh memory, which costs as much again (page faults are CPU time too).
def probe_decode(docs) -> list[tuple[str, float, str]]:
    from resiliparse.parse.encoding import detect_encoding

    from preprocess.steps.decode import DETECTOR_BYTES, decode_payload

    t = td = tdec = t_all = 0.0
    by_src: dict[str, int] = {}
    n_det = 0
    for d in docs:
        raw = d.raw
        c0 = clock()
        _, codec, src = decode_payload(raw, d.content_type)
        c1 = clock()
        raw.decode(codec, errors="replace")
        c2 = clock()
        detect_encoding(raw[:DETECTOR_BYTES])
        c3 = clock()
        t, tdec, t_all = t + c1 - c0, tdec + c2 - c1, t_all + c3 - c2
        if src.startswith("detector"):
            td += c3 - c2
            n_det += 1
        by_src[src] = by_src.get(src, 0) + 1
    note = ", ".join(f"{k} {v}" for k, v in sorted(by_src.items()))
    return [(f"decode_payload (charset choice + strict bytes.decode); charset from {note}", t, ""),
            (f"&nbsp;&nbsp;detect_encoding on the {n_det} pages that reach it", td, ""),
            ("&nbsp;&nbsp;bytes.decode(codec) alone", tdec, ""),
            ("(detect_encoding if it ran on every page)", t_all, "not in the pipeline")]


def probe_tags(entries, line_features: bool) -> list[tuple[str, float, str]]:
    from resiliparse.extract.html2text import extract_plain_text

    from preprocess.html import dom
    from preprocess.steps import tags as T

    t = [0.0] * 4
    for d, _ in entries:
        tree = d.tree
        if tree is None:
            continue
        c0 = clock()
        title = tree.title
        c1 = clock()
        T.clean_title(title)
        c2 = clock()
        if line_features:
            x = extract_plain_text(tree, preserve_formatting="minimal_html", links=True, **T._OPTIONS)
            c3 = clock()
            T.lines_with_link_density(x)
        else:
            x = extract_plain_text(tree, preserve_formatting=True, links=False, **T._OPTIONS)
            c3 = clock()
            dom.tidy_lines(x)
        c4 = clock()
        for i, (u, v) in enumerate(((c0, c1), (c1, c2), (c2, c3), (c3, c4))):
            t[i] += v - u
    rows = [("tree.title", t[0], ""), ("clean_title", t[1], "")]
    if line_features:
        return rows + [("extract_plain_text(minimal_html, links)", t[2], ""),
                       ("lines_with_link_density", t[3], "Python regexes per line")]
    return rows + [("extract_plain_text(product options)", t[2], ""), ("tidy_lines", t[3], "")]


def probe_prune(entries, model_path: str) -> list[tuple[str, float, str]]:
    import re

    from preprocess.lm.contrastive import is_contrastive
    from preprocess.lm.normalize import normalize

    if is_contrastive(model_path):
        return probe_contrastive(entries, model_path)
    from preprocess.lm.score import Scorer
    from preprocess.core.segment import sentences_of

    word = re.compile(r"\w")
    scorer = Scorer(model_path)
    t_seg = t_norm = t_lm = 0.0
    n_sent = n_scored = 0
    for _, text in entries:
        c0 = clock()
        sents = [s for _, s in sentences_of(text)]
        c1 = clock()
        norms = [normalize(s) for s in sents]
        c2 = clock()
        norms = [x for x in norms if word.search(x)]
        c3 = clock()
        for x in norms:
            scorer.normalized_perplexity(x)
        c4 = clock()
        t_seg, t_norm, t_lm = t_seg + c1 - c0, t_norm + c2 - c1, t_lm + c4 - c3
        n_sent, n_scored = n_sent + len(sents), n_scored + len(norms)
    return [(f"segment (sentences_of, sentencex): {n_sent} sentences", t_seg,
             f"{n_sent / t_seg:,.0f} sent/s" if t_seg else ""),
            ("normalize (per sentence)", t_norm, f"{n_sent / t_norm:,.0f} sent/s" if t_norm else ""),
            (f"KenLM score() -> perplexity (per sentence, {n_scored})", t_lm,
             f"{n_scored / t_lm:,.0f} sent/s" if t_lm else "")]


def probe_contrastive(entries, model_path: str) -> list[tuple[str, float, str]]:
    """The contrastive pruner's parts, as ContrastivePrune.process runs them (language, segment, normalise, score)."""
    from preprocess.filters.prune.contrastive import ContrastivePrune
    from preprocess.lm.contrastive import normalize_many
    from preprocess.lm.lang import page_text
    from preprocess.core.segment import sentences_of_lines

    from preprocess.core.document import Line

    step = ContrastivePrune(model_path)
    t_lang = t_seg = t_norm = t_lm = 0.0
    n_sent = 0
    for d, text in entries:  # (the pruner has since cut d.lines: its input was text)
        lines = [Line(t) for t in text.split("\n") if t]
        c0 = clock()
        _, pair, _ = step.scorer.page_pair(page_text(d.title, [ln.text for ln in lines]))
        c1 = clock()
        if pair is None:
            t_lang += c1 - c0
            continue
        sents = [s for _, s in sentences_of_lines(lines)]
        c2 = clock()
        norms = normalize_many(sents)
        c3 = clock()
        pair.score_worded(norms)
        c4 = clock()
        t_lang, t_seg, t_norm, t_lm = t_lang + c1 - c0, t_seg + c2 - c1, t_norm + c3 - c2, t_lm + c4 - c3
        n_sent += len(sents)
    return [("language of the page (page_pair)", t_lang, ""),
            (f"segment (sentences_of_lines): {n_sent} sentences", t_seg,
             f"{n_sent / t_seg:,.0f} sent/s" if t_seg else ""),
            ("normalize_many", t_norm, f"{n_sent / t_norm:,.0f} sent/s" if t_norm else ""),
            ("words, vocabulary + 2 KenLM scores (score_worded)", t_lm, f"{n_sent / t_lm:,.0f} sent/s" if t_lm else "")]


def floor_rows(docs) -> list[tuple[str, float, str]]:
    """Parse alone and extract_plain_text alone, page by page on fresh trees (bytes with the codec decode
    chose), each tree freed before the next parse as in the pipeline (holding thousands of trees makes
    every parse pay for fresh memory: up to 3x the steady-state cost)."""
    from resiliparse.extract.html2text import extract_plain_text
    from resiliparse.parse.html import HTMLTree

    from preprocess.steps.decode import decode_payload

    items = [(d.raw, decode_payload(d.raw, d.content_type)[1]) for d in docs]
    items = [(r, c if c not in ("utf-8-sig", "utf-16", "utf-16-le", "utf-16-be") else "utf-8") for r, c in items]
    t = [0.0] * 5
    for raw, codec in items:
        c0 = clock()
        tree = HTMLTree.parse_from_bytes(raw, codec)
        c1 = clock()
        extract_plain_text(tree)
        c2 = clock()
        extract_plain_text(tree, preserve_formatting=True, links=False)
        c3 = clock()
        body = tree.body
        if body is not None:
            body.html
        c4 = clock()
        tree = None
        c5 = clock()
        for i, (x, y) in enumerate(((c0, c1), (c1, c2), (c2, c3), (c3, c4), (c4, c5))):
            t[i] += y - x
    return [("lexbor parse alone (HTMLTree.parse_from_bytes)", t[0], ""),
            ("extract_plain_text alone (defaults)", t[1], ""),
            ("extract_plain_text(preserve_formatting=True, links=False)", t[2], ""),
            ("<body>.html serialisation alone", t[3], ""),
            ("freeing the tree", t[4], "")]


def probe_write(dicts) -> list[tuple[str, float, str]]:
    t = t_each(lambda d: json.dumps(d, ensure_ascii=False) + "\n", dicts)
    return [("json.dumps(ensure_ascii=False) alone", t, "")]


def fastwarc_read(warc: Path) -> float:
    from fastwarc.warc import ArchiveIterator, WarcRecordType

    t0 = clock()
    n = 0
    with open(warc, "rb") as fh:
        for rec in ArchiveIterator(fh, record_types=WarcRecordType.response, parse_http=True):
            rec.reader.read()
            n += 1
    return clock() - t0


def run_peer(pages: list[Path]) -> dict | None:
    if not PYPLEXITY.exists():
        return None
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
        f.write("\n".join(map(str, pages)) + "\n")
    proc = subprocess.run([str(PYPLEXITY), "-c", _PEER, f.name], capture_output=True, text=True)
    Path(f.name).unlink()
    if proc.returncode != 0:
        print(f"pyplexity failed: {proc.stderr[-500:]}", file=sys.stderr)
        return None
    return json.loads(proc.stdout.strip().splitlines()[-1])


# ---------------------------------------------------------------- output
def fmt(ms: float) -> str:
    return f"{ms:.3f}" if ms < 10 else f"{ms:.1f}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--warc", type=Path, default=Path(tempfile.gettempdir()) / "webprune-profile" / "cleaning.warc.gz",
                    help="packed WARC of the pages (made once)")
    ap.add_argument("--model", default=str(ROOT / "build" / "models" / "general-2gram.bin"),
                    help="KenLM model of the full configuration ('' for tags only)")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--batch-size", type=int, default=64)
    ap.add_argument("--configs", nargs="+", default=["tags", "full", "rec"], choices=["tags", "full", "rec"])
    ap.add_argument("--rec-flags", default=REC_FLAGS, help="webprune preprocess flags of the recommended pipeline")
    ap.add_argument("--no-peer", action="store_true")
    ap.add_argument("--no-probes", action="store_true", help="skip the indented split rows and the floor")
    ap.add_argument("--cprofile", metavar="STEP", default=None, help="print the top functions of this step")
    ap.add_argument("--cprofile-config", default=None, choices=["tags", "full", "rec"])
    ap.add_argument("--top", type=int, default=25)
    ap.add_argument("--limit", type=int, default=None, help="first N pages only (a quick check)")
    a = ap.parse_args()
    logging.basicConfig(level=logging.ERROR)

    pages = cleaning_pages()[: a.limit]
    warc = pack_cleaning_pages(a.warc.parent, limit=a.limit, prefix=f"cleaning-{a.limit}" if a.limit else "cleaning")[0]
    model = a.model if a.model and Path(a.model).is_file() else None
    if "full" in a.configs and not model:
        print(f"no model at {a.model!r}: the full configuration is skipped", file=sys.stderr)
    cfgs = {k: v for k, v in configs(model, a.rec_flags if "rec" in a.configs else None).items()
            if k in a.configs}
    work = Path(tempfile.mkdtemp(prefix="webprune-profile-"))

    if a.cprofile:
        name = a.cprofile_config or next(iter(cfgs))
        prof = cProfile.Profile()
        run, _ = one_pass(warc, cfgs[name], a.batch_size, work / "cprofile", profile_step=a.cprofile, profiler=prof)
        if a.cprofile not in run.cpu:
            sys.exit(f"no step {a.cprofile!r} in {name}: one of {', '.join(run.order)}")
        n = run.counts["pages"]
        print(f"## cProfile of step {a.cprofile!r} ({name}): {run.cpu[a.cprofile] * 1e3 / n:.3f} ms/page CPU "
              f"(profiler overhead included); top {a.top} by own time\n")
        for key in ("tottime", "cumulative"):
            s = io.StringIO()
            pstats.Stats(prof, stream=s).strip_dirs().sort_stats(key).print_stats(a.top)
            print(f"### sorted by {key}\n```\n" + s.getvalue().strip() + "\n```\n")
        return

    for name, opts in cfgs.items():  # warm-up: imports, first allocations, the model's pages
        one_pass(warc, opts, a.batch_size, work / f"{name}-warm")
    runs: dict[str, list[Run]] = {k: [] for k in cfgs}
    peer: list[dict] = []
    fw: list[float] = []
    for r in range(a.repeat):
        for name, opts in cfgs.items():
            run, _ = one_pass(warc, opts, a.batch_size, work / f"{name}-{r}")
            runs[name].append(run)
            print(f"repeat {r + 1}/{a.repeat} {name}: {sum(run.cpu.values()):.2f} s CPU, "
                  f"{run.counts['written']}/{run.counts['pages']} written", file=sys.stderr)
        fw.append(fastwarc_read(warc))
        if not a.no_peer:
            p = run_peer(pages)
            if p:
                peer.append(p)
                print(f"repeat {r + 1}/{a.repeat} pyplexity: {p['cpu_s']:.2f} s CPU", file=sys.stderr)

    # probes: one extra, untimed pass per configuration keeps each step's inputs; each probe runs
    # --repeat times (median)
    split: dict[str, dict[str, list]] = {k: {} for k in cfgs}
    floor = []

    def median_rows(fn):
        reps = [fn() for _ in range(a.repeat)]
        return [(what, statistics.median(r[i][1] for r in reps), note) for i, (what, _, note) in enumerate(reps[0])]

    if not a.no_probes:
        names = list(cfgs)
        for name, opts in cfgs.items():
            _, kept = one_pass(warc, opts, a.batch_size, work / f"{name}-probe", keep=True)
            fresh = read_all(warc) if name == names[0] else []  # (the kept documents' raw bytes are gone)
            for step, fn in (("decode", lambda: probe_decode(fresh) if fresh else []),
                             ("tags", lambda: probe_tags(kept["tags"], opts.max_link_density is not None)),
                             ("prune", lambda: probe_prune(kept["prune"], opts.prune_model)),
                             ("write", lambda: probe_write(kept["out"]))):
                if kept.get(step if step != "write" else "out"):
                    try:
                        split[name][step] = median_rows(fn)
                    except Exception as exc:  # an internal moved: the main table still stands
                        split[name][step] = [(f"n/a ({type(exc).__name__}: {exc})", float("nan"), "")]
            kept = fresh = None
        try:
            floor = median_rows(lambda: floor_rows(read_all(warc)))
        except Exception as exc:
            floor = [(f"n/a ({type(exc).__name__}: {exc})", float("nan"), "")]

    n = len(pages)
    names = list(cfgs)
    med: dict[str, dict[str, float]] = {k: {} for k in names}
    spread: dict[str, dict[str, float]] = {k: {} for k in names}
    middle: list[str] = []  # the steps, in pipeline order, longest configuration first
    for k in sorted(names, key=lambda k: -len(runs[k][0].order)):
        for key in runs[k][0].order:
            if key not in middle and key not in ("read", "to_json", "write", "free"):
                middle.append(key)
        for key in runs[k][0].order:
            vals = [run.cpu.get(key, 0.0) * 1e3 / n for run in runs[k]]
            med[k][key] = statistics.median(vals)
            spread[k][key] = max(vals) - min(vals)
    order = ["read"] + middle + ["to_json", "write", "free"]
    labels = {"read": "read WARC (product reader, ISA-L inflate)", "to_json": "Document.to_json",
              "write": "shard writing (JSON encoding + gzip + file)", "free": "freeing a batch (trees, documents)"}

    print(f"\n## CPU ms per page, {n} pages, median of {a.repeat} (± = max - min), batches of {a.batch_size}\n")
    print("| step | " + " | ".join(names) + " | note |")
    print("|---|" + "---:|" * len(names) + "---|")
    for key in order:
        cells = [f"{fmt(med[k][key])} ± {fmt(spread[k][key])}" if key in med[k] else "" for k in names]
        print(f"| {labels.get(key, key)} | " + " | ".join(cells) + " | |")
        for k in names:
            for what, sec, note in split[k].get(key, []):
                cells = [fmt(sec * 1e3 / n) if kk == k else "" for kk in names]
                print(f"| &nbsp;&nbsp;{what} | " + " | ".join(cells) + f" | {note} |")
    tot = {k: statistics.median(sum(r.cpu.values()) for r in runs[k]) * 1e3 / n for k in names}
    steps_only = {k: statistics.median(sum(v for key, v in r.cpu.items() if key not in ("read", "to_json", "write", "free"))
                                       for r in runs[k]) * 1e3 / n for k in names}
    print("| **total, read to shard** | " + " | ".join(f"**{fmt(tot[k])}**" for k in names) + " |")
    print("| steps only (decode .. last step) | " + " | ".join(fmt(steps_only[k]) for k in names) + " |")
    print("| docs/s per core, read to shard | " + " | ".join(f"{1e3 / tot[k]:.0f}" for k in names) + " |")
    print("| docs/s per core, steps only | " + " | ".join(f"{1e3 / steps_only[k]:.0f}" for k in names) + " |")

    print("\n## Reference rows (same pages, same run)\n")
    print("| what | ms/page CPU | docs/s |")
    print("|---|---:|---:|")
    fw_ms = statistics.median(fw) * 1e3 / n
    print(f"| read the same WARC with FastWARC (responses, payload after HTTP headers) | {fmt(fw_ms)} | {1e3 / fw_ms:.0f} |")
    for what, sec, note in floor:
        ms = sec * 1e3 / n
        print(f"| {what} | {fmt(ms)} | {1e3 / ms:.0f} |" if ms == ms and ms > 0 else f"| {what} | {fmt(ms)} | |")
    if peer:
        pm = statistics.median(p["cpu_s"] for p in peer) * 1e3 / n
        pw = statistics.median(p["wall_s"] for p in peer) * 1e3 / n
        print(f"| pyplexity tag remover (CPU; wall {fmt(pw)} ms), median of {len(peer)}, "
              f"{peer[0]['errors']} errors | {fmt(pm)} | {1e3 / pm:.0f} |")
        print("\n## Against pyplexity's tag remover (CPU per core; the targets: tags >= 5x, rec >= 1.5x)\n")
        print("| webprune | read to shard | steps only |")
        print("|---|---:|---:|")
        for k in names:
            print(f"| {k} | {pm / tot[k]:.2f}x | {pm / steps_only[k]:.2f}x |")
    for k in names:
        c = runs[k][0].stats.counts
        interesting = {key: v for key, v in sorted(c.items()) if key.startswith(("skipped", "failed", "decode.charset",
                                                                               "hints.", "prune.sentences"))}
        print(f"\n{k}: {runs[k][0].counts['written']} written; " + ", ".join(f"{x}={v:g}" for x, v in interesting.items()))
        loads = [r.pair_load_s for r in runs[k]]
        if max(loads) > 0.001:  # (a configuration without a contrastive model loads none)
            print(f"{k}: the contrastive pair loaded before the timers in {min(loads):.2f}-{max(loads):.2f} s CPU "
                  f"({len(loads)} passes; {1e3 * max(loads) / runs[k][0].counts['pages']:.3f} ms a page if timed)")


if __name__ == "__main__":
    main()
