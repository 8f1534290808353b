"""CleanEval-style quality benchmark: webprune's cleaners and peer extractors, side by side.

Run (all ~2,800 pages take several minutes per tool; run it in the background):

    webprune eval-cleaning [--sets cleaneval-final,dragnet] [--limit 50]
        [--cleaners tags,...] [--tools webprune/density+links,trafilatura,...] [--jobs 1|2] [--json OUT]
    .venv/bin/python scripts/bench_cleaning.py ...   (the same)

Tools: every webprune cleaner (``--cleaners``, default every name in
``preprocess.pipeline.CLEANERS``), shown as ``webprune/<name>``, and every
installed peer in ``eval/cleaning_peers.py`` (trafilatura, resiliparse, justext,
boilerpy3, readability; install them with ``pip install -e '.[bench]'``).
``--tools`` filters that list: tool ids, bare cleaner/peer names, ``webprune``
or ``peers``. A webprune tool id may add steps with ``+``:
``+hints`` (drop elements whose class/id names comments, sidebars, menus, ...:
``preprocess/steps/hints.py``), ``+links`` (drop blocks whose link density
exceeds ``--max-link-density``, default 0.5), ``+kitten`` / ``+nokitten`` (Kitten normalisation on/off) and
``+prune`` (perplexity pruning with ``--prune-model`` and ``--prune-percentile``
/ ``--max-perplexity`` / ``--prune-score``; a percentile is calibrated, as
``webprune preprocess`` does, on the first ``--prune-sample-docs`` benchmark
pages -- input pages only, never gold text), e.g. ``webprune/density+links+prune``.

Pages: ``eval.cleaning_gold.gold_pages`` (pages with both input and gold) of
``--sets`` (default all five), the first ``--limit`` of each set. The CleanEval
``<text id=... title=... encoding=...>`` wrapper line around the CleanEval and
CleanPortalEval inputs (and its closing ``</text>``) is removed before any tool
sees the page (``--keep-wrapper`` to keep it); it is an artefact of the corpus,
not part of the page. Each page's URL (``eval.cleaning_gold.page_url``: the
wrapper's id, else a canonical link or og:url) is passed to webprune; cleaners
that compare the pages of a host (``sitediff``) get every page of a host of a
set in one batch, as the preprocess driver groups a crawl window, with the
cleaner's per-host memory reset before each batch (so a score never depends on
which worker saw which host first); their CPU time is shared evenly by the
pages of the batch.

Per tool, ONE process (a ``multiprocessing`` spawn pool of size ``--jobs``,
default 1) runs the tool over all pages of all sets; the tool is imported and
built once in that process (webprune: ``Pipeline(CleanOptions(...))``).
Per page only the cleaning call is timed, in CPU time (``time.process_time`` of
the worker), so other load on the machine does not skew docs/s. A call that
raises counts as an error, one that runs longer than ``--timeout`` seconds (20,
wall clock, ``signal.alarm`` in the worker) as a timeout; both score as empty
output "". Their CPU time still counts.

What is scored: webprune -- ``out[0]["contents"]`` as indexed (title line +
text; an empty ``out`` means the page was skipped: ""); peers -- their main text
(no title). Scores (``eval.cleaning_score``): word precision / recall / F1 on an
exact word LCS, and the CleanEval score, per page, then the macro mean over the
pages of a set, x100. An empty output against an empty gold scores 100.

Prints, per set, a Markdown table (tool | word P | word R | word F1 | CleanEval
| docs/s/core | errors/timeouts) and a summary (rows = tools, columns = sets,
cell = "F1 (docs/s)", last row = the best peer per set); the best F1 per set is
bold. ``--json OUT`` writes the options, versions, aggregates and per-page scores.
"""
from __future__ import annotations

import argparse
import dataclasses
import importlib.metadata as md
import importlib.util
import json
import multiprocessing as mp
import platform
import re
import signal
import sys
import time
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

from eval.cleaning_gold import FORMATS, gold_pages, page_url
from eval.cleaning_score import cleaneval, word_prf

WP_PREFIX = "webprune/"
PEER_MODULES = {"trafilatura": "trafilatura", "resiliparse": "resiliparse", "justext": "justext",
                "boilerpy3": "boilerpy3", "readability": "readability"}
_WRAP_OPEN = re.compile(rb"\A\s*<text\b[^>]*>[ \t]*\r?\n?")
_WRAP_CLOSE = re.compile(rb"</text>\s*\Z")


def strip_wrapper(raw: bytes) -> bytes:
    """Remove CleanEval's ``<text id=...>`` ... ``</text>`` wrapper (no-op on other pages)."""
    m = _WRAP_OPEN.match(raw)
    if not m:
        return raw
    return _WRAP_CLOSE.sub(b"", raw[m.end():])


# --------------------------------------------------------------------------- worker side

class _Timeout(BaseException):
    """BaseException, so a tool's ``except Exception`` does not swallow it."""


_W: dict = {}


def _on_alarm(signum, frame):
    _W["timed_out"] = True
    signal.alarm(1)  # a bare ``except:`` inside a tool may swallow this: fire again until it escapes
    raise _Timeout


def tool_options(tool: str, settings: dict):
    """CleanOptions of a webprune tool id ``webprune/<cleaner>[+hints][+links][+kitten|+nokitten][+prune]``."""
    from preprocess.pipeline import CleanOptions

    cleaner, *extras = tool[len(WP_PREFIX):].split("+")
    opts = CleanOptions(cleaner=cleaner, prune_sample_docs=settings.get("prune_sample_docs", 1000))
    for extra in extras:
        if extra == "links":
            opts.max_link_density = settings.get("max_link_density", 0.5)
        elif extra == "hints":
            opts.drop_hinted = True
        elif extra in ("kitten", "nokitten"):
            opts.kitten = extra == "kitten"
        elif extra == "prune":
            if not settings.get("prune_model"):
                raise SystemExit(f"{tool}: +prune needs --prune-model MODEL (webprune lm train)")
            opts.prune_model = settings["prune_model"]
            opts.prune_score = settings.get("prune_score", "perplexity")
            opts.max_perplexity = settings.get("max_perplexity")
            opts.prune_percentile = settings.get("prune_percentile")
            opts.prune_threshold = settings.get("thresholds", {}).get(tool)
        else:
            raise SystemExit(f"unknown step {extra!r} in {tool}: use +hints, +links, +kitten, +nokitten or +prune")
    return opts.check()


def _init_worker(tool: str, timeout: int, keep_wrapper: bool, settings: dict) -> None:
    warnings.filterwarnings("ignore")
    if tool.startswith(WP_PREFIX):
        from preprocess.document import Document
        from preprocess.pipeline import Pipeline

        pipe = Pipeline(tool_options(tool, settings))

        def call(pages: list[tuple[bytes, str]]) -> tuple[list[str], str | None]:
            # a call is one host of one set: which worker saw which host before must not matter
            pipe.reset()
            try:
                docs = [Document(id=str(i), url=url, content_type="text/html", raw=raw)
                        for i, (raw, url) in enumerate(pages)]
                out, _stats = pipe.process(docs)
                by_id = {o["id"]: o["contents"] for o in out}
                return [by_id.get(str(i), "") for i in range(len(pages))], None
            except Exception as exc:  # noqa: BLE001
                return [""] * len(pages), f"{type(exc).__name__}: {str(exc)[:200]}"
    else:
        from eval import cleaning_peers as cleaners

        cleaners.quiet()

        def call(pages: list[tuple[bytes, str]]) -> tuple[list[str], str | None]:
            (raw, _url), = pages
            text, err = cleaners.run(tool, raw)
            return [text], err

    _W.update(call=call, timeout=timeout, keep_wrapper=keep_wrapper)
    signal.signal(signal.SIGALRM, _on_alarm)
    # warm-up outside the timed calls: lazy imports, stoplists, model loading
    try:
        call([(b"<html><head><title>t</title></head><body><p>warm up text for the cleaner.</p></body></html>", "")])
    except Exception:  # noqa: BLE001
        pass


def _clean_group(task: tuple[list[int], list[str]]) -> list[tuple[int, str, float, str, str | None]]:
    """Pages cleaned in one call (one page, or a host's pages): (index, text, cpu seconds, status, error) each."""
    idxs, paths = task
    pages = []
    for path in paths:
        raw = Path(path).read_bytes()
        pages.append((raw if _W["keep_wrapper"] else strip_wrapper(raw), page_url(raw)))
    _W["timed_out"] = False
    texts, err = [""] * len(pages), None
    t0 = time.process_time()
    try:
        signal.alarm(_W["timeout"] * len(pages))
        try:
            texts, err = _W["call"](pages)
        finally:
            signal.alarm(0)
    except _Timeout:
        pass
    cpu = (time.process_time() - t0) / len(pages)
    signal.alarm(0)
    if _W["timed_out"]:
        return [(i, "", cpu, "timeout", f"> {_W['timeout']} s per page") for i in idxs]
    return [(i, t, cpu, ("error" if err else "ok"), err) for i, t in zip(idxs, texts)]


# --------------------------------------------------------------------------- parent side

def host_groups(pages: list) -> list[list[int]]:
    """Indexes of the pages grouped by (set, host); pages without a URL stand alone."""
    from preprocess.document import Document

    groups: dict = {}
    for i, p in enumerate(pages):
        host = Document(id="", url=page_url(p.input.read_bytes())).host
        groups.setdefault((p.set, host or f"#{i}"), []).append(i)
    return list(groups.values())


def run_tool(tool: str, pages: list, jobs: int, timeout: int, keep_wrapper: bool, settings: dict):
    from preprocess.pipeline import HOST_GROUPED

    grouped = tool.startswith(WP_PREFIX) and tool[len(WP_PREFIX):].split("+")[0] in HOST_GROUPED
    groups = host_groups(pages) if grouped else [[i] for i in range(len(pages))]
    tasks = [(g, [str(pages[i].input) for i in g]) for g in groups]
    ctx = mp.get_context("spawn")
    results = [None] * len(pages)
    with ctx.Pool(jobs, initializer=_init_worker, initargs=(tool, timeout, keep_wrapper, settings)) as pool:
        for done in pool.imap_unordered(_clean_group, tasks, chunksize=1 if grouped else 4):
            for idx, text, cpu, status, err in done:
                results[idx] = (text, cpu, status, err)
    return results


def calibrate_prune(tools: list[str], pages: list, settings: dict) -> dict:
    """Thresholds for ``+prune`` tools with ``--prune-percentile``: calibrated on input pages, as preprocess does."""
    from preprocess.calibrate import calibrate_docs
    from preprocess.document import Document

    out = {}
    for tool in tools:
        if "+prune" not in tool or settings.get("prune_percentile") is None:
            continue
        opts = tool_options(tool, settings)
        sample = [Document(id=str(i), url=page_url(raw), content_type="text/html", raw=strip_wrapper(raw))
                  for i, raw in enumerate(p.input.read_bytes() for p in pages[: opts.prune_sample_docs])]
        _opts, info = calibrate_docs(opts, sample)
        out[tool] = info["threshold"]
        print(f"{tool}: prune threshold {info['threshold']:.4g} ({info})", file=sys.stderr)
    return out


def resolve_tools(tools_arg: str | None, cleaners: list[str], peers: list[str]) -> list[str]:
    every = [WP_PREFIX + c for c in cleaners] + peers
    if not tools_arg:
        return every
    chosen = []
    for name in (t.strip() for t in tools_arg.split(",")):
        if not name:
            continue
        if name == "webprune":
            picks = [WP_PREFIX + c for c in cleaners]
        elif name == "peers":
            picks = list(peers)
        elif name in every:
            picks = [name]
        elif name in peers:
            picks = [name]
        elif WP_PREFIX + name in every:
            picks = [WP_PREFIX + name]
        elif "+" in name and name.removeprefix(WP_PREFIX).split("+")[0] in cleaners:
            picks = [WP_PREFIX + name.removeprefix(WP_PREFIX)]
        else:
            raise SystemExit(f"unknown tool {name!r}; choose from {', '.join(every)} (or webprune, peers)")
        chosen += [p for p in picks if p not in chosen]
    return chosen


def _versions(tools: list[str]) -> dict[str, str]:
    from eval.cleaning_peers import versions

    out = {"python": platform.python_version()}
    try:
        out["webprune"] = md.version("webprune")
    except md.PackageNotFoundError:
        out["webprune"] = "source"
    pv = versions()
    out.update({t: pv[t] for t in tools if t in pv})
    try:
        out["lxml"] = md.version("lxml")
    except md.PackageNotFoundError:
        pass
    return out


def _fmt_rate(r: float) -> str:
    return f"{r:.0f}" if r >= 10 else f"{r:.1f}"


def aggregate(rows: list[dict]) -> dict:
    n = len(rows)
    cpu = sum(r["cpu"] for r in rows)
    mean = lambda k: 100.0 * sum(r[k] for r in rows) / n if n else 0.0  # noqa: E731
    return {"pages": n, "precision": mean("precision"), "recall": mean("recall"), "f1": mean("f1"),
            "cleaneval": mean("cleaneval"), "cpu_s": cpu, "docs_per_s": n / cpu if cpu > 0 else float("inf"),
            "errors": sum(r["status"] == "error" for r in rows),
            "timeouts": sum(r["status"] == "timeout" for r in rows),
            "empty": sum(r["out_words"] == 0 for r in rows)}


def _best(values: dict[str, float]) -> set[str]:
    if not values:
        return set()
    top = max(round(v, 1) for v in values.values())
    return {k for k, v in values.items() if round(v, 1) == top}


def report(summary: dict, sets: list[str], tools: list[str]) -> str:
    lines = []
    for s in sets:
        n = summary[tools[0]][s]["pages"]
        best = _best({t: summary[t][s]["f1"] for t in tools})
        lines += [f"### {s} ({n} pages)", "",
                  "| tool | word P | word R | word F1 | CleanEval | docs/s/core | errors/timeouts |",
                  "|---|---:|---:|---:|---:|---:|---:|"]
        for t in tools:
            a = summary[t][s]
            f1 = f"{a['f1']:.1f}"
            lines.append(f"| {t} | {a['precision']:.1f} | {a['recall']:.1f} | "
                         f"{'**' + f1 + '**' if t in best else f1} | {a['cleaneval']:.1f} | "
                         f"{_fmt_rate(a['docs_per_s'])} | {a['errors']}/{a['timeouts']} |")
        lines.append("")
    lines += ["### Summary: word F1 (docs/s/core)", "",
              "| tool | " + " | ".join(sets) + " |", "|---|" + "---:|" * len(sets)]
    best = {s: _best({t: summary[t][s]["f1"] for t in tools}) for s in sets}
    for t in tools:
        cells = []
        for s in sets:
            a = summary[t][s]
            f1 = f"{a['f1']:.1f}"
            cells.append(f"{'**' + f1 + '**' if t in best[s] else f1} ({_fmt_rate(a['docs_per_s'])})")
        lines.append(f"| {t} | " + " | ".join(cells) + " |")
    peers = [t for t in tools if not t.startswith(WP_PREFIX)]
    if peers:
        cells = []
        for s in sets:
            p = max(peers, key=lambda t: summary[t][s]["f1"])
            cells.append(f"{p} {summary[p][s]['f1']:.1f}")
        lines.append("| *best peer* | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    from eval.cleaning_peers import PEERS
    from preprocess.pipeline import CLEANERS

    ap = argparse.ArgumentParser(prog="webprune eval-cleaning", description=__doc__.split("\n\n")[0],
                                 epilog="Tool ids, the +steps and what is scored: see eval/cleaning_bench.py.")
    ap.add_argument("--sets", default=",".join(FORMATS), help=f"comma list (default: {','.join(FORMATS)})")
    ap.add_argument("--limit", type=int, default=None, help="first N pages per set (quick runs)")
    ap.add_argument("--cleaners", "--cleaner", default=",".join(CLEANERS),
                    help=f"webprune cleaners, comma list (default: all of CLEANERS = {','.join(CLEANERS)})")
    ap.add_argument("--tools", default=None,
                    help="comma list of tools, e.g. density,webprune/density+links,readability "
                         "(default: all cleaners and the installed peers)")
    ap.add_argument("--max-link-density", type=float, default=0.5, help="for +links tools (default 0.5)")
    ap.add_argument("--prune-model", default=None, help="KenLM model for +prune tools")
    g = ap.add_mutually_exclusive_group()
    g.add_argument("--max-perplexity", type=float, default=None, help="+prune: drop sentences above this")
    g.add_argument("--prune-percentile", type=float, default=None, help="+prune: drop the worst P%% of sentences")
    ap.add_argument("--prune-score", choices=("perplexity", "adjusted"), default="perplexity")
    ap.add_argument("--prune-sample-docs", type=int, default=1000, help="+prune calibration pages")
    ap.add_argument("--jobs", type=int, default=1, help="worker processes per tool (default 1; 2 on this machine max)")
    ap.add_argument("--timeout", type=int, default=20, help="per-page timeout in seconds (default 20)")
    ap.add_argument("--keep-wrapper", action="store_true", help="keep CleanEval's <text ...> wrapper line")
    ap.add_argument("--shared", type=Path, default=ROOT.parent / "shared" / "data", help="shared data folder")
    ap.add_argument("--json", type=Path, default=None, help="write aggregates and per-page scores here")
    args = ap.parse_args(argv)

    sets = [s.strip() for s in args.sets.split(",") if s.strip()]
    if bad := [s for s in sets if s not in FORMATS]:
        ap.error(f"unknown set(s) {bad}; choose from {', '.join(FORMATS)}")
    cleaners = [c.strip() for c in args.cleaners.split(",") if c.strip()]
    if bad := [c for c in cleaners if c not in CLEANERS]:
        ap.error(f"unknown cleaner(s) {bad}; preprocess.pipeline.CLEANERS = {', '.join(CLEANERS)}")
    if args.jobs < 1 or args.timeout < 1:
        ap.error("--jobs and --timeout must be >= 1")
    installed = [t for t in PEERS if importlib.util.find_spec(PEER_MODULES[t]) is not None]
    tools = resolve_tools(args.tools, cleaners, list(PEERS) if args.tools else installed)
    if not tools:
        ap.error("no tools selected")
    missing = [t for t in tools if t in PEER_MODULES and t not in installed]
    if missing:
        ap.error(f"peer(s) not installed: {', '.join(missing)}; run: .venv/bin/pip install -e '.[bench]'")
    if not args.tools and len(installed) < len(PEERS):
        print(f"peers not installed, left out: {', '.join(sorted(set(PEERS) - set(installed)))} "
              "(.venv/bin/pip install -e '.[bench]')", file=sys.stderr)
    settings = {"max_link_density": args.max_link_density, "prune_model": args.prune_model,
                "max_perplexity": args.max_perplexity, "prune_percentile": args.prune_percentile,
                "prune_score": args.prune_score}
    for t in tools:
        if t.startswith(WP_PREFIX):
            try:
                tool_options(t, settings | {"thresholds": {t: 1.0}})
            except ValueError as exc:
                ap.error(f"{t}: {exc}")
    if not (args.shared / "cleaning").is_dir():
        ap.error(f"no cleaning data under {args.shared}")

    pages = []
    for s in sets:
        ps = gold_pages(args.shared, [s])
        pages += ps[: args.limit] if args.limit else ps
    t0 = time.perf_counter()
    golds = [p.gold_text() for p in pages]
    print(f"{len(pages)} pages in {len(sets)} sets, gold read in {time.perf_counter() - t0:.1f} s; "
          f"tools: {', '.join(tools)}; jobs={args.jobs}", file=sys.stderr)

    settings["thresholds"] = calibrate_prune(tools, pages, settings | {"prune_sample_docs": args.prune_sample_docs})
    per_page: list[dict] = []
    summary: dict[str, dict] = {}
    for tool in tools:
        w0 = time.perf_counter()
        results = run_tool(tool, pages, args.jobs, args.timeout, args.keep_wrapper, settings)
        rows = []
        for page, gold, (text, cpu, status, err) in zip(pages, golds, results):
            prf = word_prf(text, gold)
            row = {"tool": tool, "set": page.set, "name": page.name, "precision": prf["precision"],
                   "recall": prf["recall"], "f1": prf["f1"], "cleaneval": cleaneval(text, gold), "cpu": cpu,
                   "status": status, "out_words": len(text.split())}
            if err:
                row["error"] = err
            rows.append(row)
        per_page += rows
        summary[tool] = {s: aggregate([r for r in rows if r["set"] == s]) for s in sets}
        allagg = aggregate(rows)
        print(f"{tool}: {len(rows)} pages, {allagg['cpu_s']:.1f} CPU s ({_fmt_rate(allagg['docs_per_s'])} docs/s), "
              f"wall {time.perf_counter() - w0:.0f} s, errors {allagg['errors']}, timeouts {allagg['timeouts']}, "
              f"macro F1 {allagg['f1']:.1f}", file=sys.stderr, flush=True)

    print(report(summary, sets, tools))
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        doc = {"options": {"sets": sets, "limit": args.limit, "tools": tools, "jobs": args.jobs,
                           "timeout": args.timeout, "keep_wrapper": args.keep_wrapper, "shared": str(args.shared),
                           "settings": settings},
               "versions": _versions(tools), "summary": summary, "pages": per_page}
        args.json.write_text(json.dumps(doc, indent=1))
        print(f"wrote {args.json}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
