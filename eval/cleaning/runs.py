"""One ``eval-cleaning`` run: the tools over the pages, each tool's rows scored (``harness.score_tool``) and
aggregated per set and per WCXB page type (``eval.report.cleaning_tables``), its tables and its JSON file.
``webprune eval-cleaning`` (:mod:`eval.cleaning.cli`) and its ``--check`` (:mod:`eval.cleaning.check`) both run
their pages through here."""
from __future__ import annotations

import json
import sys
import time
from pathlib import Path

from eval.cleaning.harness import WP_PREFIX, calibrate_prune, score_tool, tool_options
from eval.report.cleaning_tables import _fmt_rate, _versions, aggregate, by_type, report, type_report


def prepare(tools: list[str], pages: list, settings: dict) -> None:
    """Record the pages' splits in ``settings`` ({set} in a model path: a set, or a WCXB fold) and check the
    webprune tools' model files for each: a mistyped {set} path is refused (ValueError), not scored as 0."""
    settings["splits"] = sorted({p.split for p in pages})
    for t in tools:
        if t.startswith(WP_PREFIX):
            for s in settings["splits"]:
                tool_options(t, settings, s).check_files()


def run_tools(tools: list[str], pages: list, sets: list[str], settings: dict, jobs: int, timeout: int,
              keep_wrapper: bool) -> dict:
    """Every tool over ``pages`` (after :func:`prepare`): ``{"summary": tool -> set -> aggregate,
    "page_types": tool -> type -> aggregate, "pages": per-page rows}``; progress on stderr."""
    t0 = time.perf_counter()
    golds = [p.gold_text() for p in pages]
    print(f"{len(pages)} pages in {len(sets)} sets, gold read in {time.perf_counter() - t0:.1f} s; "
          f"tools: {', '.join(tools)}; jobs={jobs}", file=sys.stderr)
    settings["thresholds"] = calibrate_prune(tools, pages, settings)
    per_page: list[dict] = []
    summary: dict[str, dict] = {}
    types: dict[str, dict] = {}
    for tool in tools:
        w0 = time.perf_counter()
        rows = score_tool(tool, pages, golds, jobs, timeout, keep_wrapper, settings)
        per_page += rows
        summary[tool] = {s: aggregate([r for r in rows if r["set"] == s]) for s in sets}
        types[tool] = by_type(rows)
        allagg = aggregate(rows)
        print(f"{tool}: {len(rows)} pages, {allagg['cpu_s']:.1f} CPU s ({_fmt_rate(allagg['docs_per_s'])} docs/s), "
              f"wall {time.perf_counter() - w0:.0f} s, errors {allagg['errors']}, timeouts {allagg['timeouts']}, "
              f"macro F1 {allagg['f1']:.1f}", file=sys.stderr, flush=True)
    return {"summary": summary, "page_types": types, "pages": per_page}


def tables(result: dict, sets: list[str], tools: list[str]) -> str:
    """One table per set and the summary; for WCXB pages, the tables per page type."""
    out = report(result["summary"], sets, tools)
    if any(result["page_types"][t] for t in tools):
        out += "\n\n" + type_report(result["page_types"], tools)
    return out


def write_json(path: Path, options: dict, result: dict, tools: list[str]) -> None:
    """The run as ``--json`` writes it: options, versions, aggregates and per-page scores (claimed first)."""
    from preprocess.folder.owned import claim_outputs, write_output

    claim_outputs([path])
    doc = {"options": options, "versions": _versions(tools), "summary": result["summary"],
           "page_types": result["page_types"], "pages": result["pages"]}
    write_output(str(path), json.dumps(doc, indent=1))
    print(f"wrote {path}", file=sys.stderr)
