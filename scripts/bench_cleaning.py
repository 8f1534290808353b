#!/usr/bin/env python3
"""CleanEval-style quality benchmark: webprune's cleaners and peer extractors, side by side.

Run (all ~2,800 pages take several minutes; run it in the background):

    .venv/bin/python scripts/bench_cleaning.py [--sets cleaneval-final,dragnet] [--limit 50]
        [--cleaners tags,...] [--tools tags,trafilatura,...] [--jobs 1|2] [--json OUT]

Tools: every webprune cleaner (``--cleaners``, default every name in
``preprocess.pipeline.CLEANERS``), shown as ``webprune/<name>``, and every peer
in ``scripts/peers/cleaners.py`` (trafilatura, resiliparse, justext, boilerpy3,
readability; install them with ``pip install -e '.[bench]'``). ``--tools``
filters that list: tool ids, bare cleaner/peer names, ``webprune`` or ``peers``.

Pages: ``eval.cleaning_gold.gold_pages`` (pages with both input and gold) of
``--sets`` (default all five), the first ``--limit`` of each set. The CleanEval
``<text id=... title=... encoding=...>`` wrapper line around the CleanEval and
CleanPortalEval inputs (and its closing ``</text>``) is removed before any tool
sees the page (``--keep-wrapper`` to keep it); it is an artefact of the corpus,
not part of the page.

Per tool, ONE process (a ``multiprocessing`` spawn pool of size ``--jobs``,
default 1) runs the tool over all pages of all sets; the tool is imported and
built once in that process (webprune: ``Pipeline(CleanOptions(cleaner=NAME))``).
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
for _p in (str(ROOT), str(ROOT / "scripts")):
    if _p not in sys.path:
        sys.path.insert(0, _p)

from eval.cleaning_gold import FORMATS, gold_pages  # noqa: E402
from eval.cleaning_score import cleaneval, word_prf  # noqa: E402

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


def _init_worker(tool: str, timeout: int, keep_wrapper: bool) -> None:
    warnings.filterwarnings("ignore")
    if tool.startswith(WP_PREFIX):
        from preprocess.document import Document
        from preprocess.pipeline import CleanOptions, Pipeline

        pipe = Pipeline(CleanOptions(cleaner=tool[len(WP_PREFIX):]))

        def call(raw: bytes) -> tuple[str, str | None]:
            try:
                out, _stats = pipe.process([Document(id="x", content_type="text/html", raw=raw)])
                return (out[0]["contents"] if out else ""), None
            except Exception as exc:  # noqa: BLE001
                return "", f"{type(exc).__name__}: {str(exc)[:200]}"
    else:
        from peers import cleaners

        cleaners.quiet()

        def call(raw: bytes) -> tuple[str, str | None]:
            return cleaners.run(tool, raw)

    _W.update(call=call, timeout=timeout, keep_wrapper=keep_wrapper)
    signal.signal(signal.SIGALRM, _on_alarm)
    # warm-up outside the timed calls: lazy imports, stoplists, model loading
    try:
        call(b"<html><head><title>t</title></head><body><p>warm up text for the cleaner.</p></body></html>")
    except Exception:  # noqa: BLE001
        pass


def _clean_one(task: tuple[int, str]) -> tuple[int, str, float, str, str | None]:
    """(index, text, cpu seconds, status ok/error/timeout, error message)."""
    idx, path = task
    raw = Path(path).read_bytes()
    if not _W["keep_wrapper"]:
        raw = strip_wrapper(raw)
    _W["timed_out"] = False
    text, err = "", None
    t0 = time.process_time()
    try:
        signal.alarm(_W["timeout"])
        try:
            text, err = _W["call"](raw)
        finally:
            signal.alarm(0)
    except _Timeout:
        pass
    cpu = time.process_time() - t0
    signal.alarm(0)
    if _W["timed_out"]:
        return idx, "", cpu, "timeout", f"> {_W['timeout']} s"
    return idx, text, cpu, ("error" if err else "ok"), err


# --------------------------------------------------------------------------- parent side

def run_tool(tool: str, paths: list[str], jobs: int, timeout: int, keep_wrapper: bool):
    ctx = mp.get_context("spawn")
    results = [None] * len(paths)
    with ctx.Pool(jobs, initializer=_init_worker, initargs=(tool, timeout, keep_wrapper)) as pool:
        for idx, text, cpu, status, err in pool.imap_unordered(_clean_one, list(enumerate(paths)), chunksize=4):
            results[idx] = (text, cpu, status, err)
    return results


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
        else:
            raise SystemExit(f"unknown tool {name!r}; choose from {', '.join(every)} (or webprune, peers)")
        chosen += [p for p in picks if p not in chosen]
    return chosen


def _versions(tools: list[str]) -> dict[str, str]:
    from peers.cleaners import versions

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
    from peers.cleaners import PEERS
    from preprocess.pipeline import CLEANERS

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sets", default=",".join(FORMATS), help=f"comma list (default: {','.join(FORMATS)})")
    ap.add_argument("--limit", type=int, default=None, help="first N pages per set (quick runs)")
    ap.add_argument("--cleaners", default=",".join(CLEANERS),
                    help=f"webprune cleaners, comma list (default: all of CLEANERS = {','.join(CLEANERS)})")
    ap.add_argument("--tools", default=None, help="comma list of tools to run (default: all cleaners and peers)")
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
    tools = resolve_tools(args.tools, cleaners, list(PEERS))
    if not tools:
        ap.error("no tools selected")
    missing = [t for t in tools if t in PEER_MODULES and importlib.util.find_spec(PEER_MODULES[t]) is None]
    if missing:
        ap.error(f"peer(s) not installed: {', '.join(missing)}; run: .venv/bin/pip install -e '.[bench]'")
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

    per_page: list[dict] = []
    summary: dict[str, dict] = {}
    paths = [str(p.input) for p in pages]
    for tool in tools:
        w0 = time.perf_counter()
        results = run_tool(tool, paths, args.jobs, args.timeout, args.keep_wrapper)
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
                           "timeout": args.timeout, "keep_wrapper": args.keep_wrapper, "shared": str(args.shared)},
               "versions": _versions(tools), "summary": summary, "pages": per_page}
        args.json.write_text(json.dumps(doc, indent=1))
        print(f"wrote {args.json}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
